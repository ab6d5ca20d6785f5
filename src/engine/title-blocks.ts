/**
 * Title blocks of one kind (heads, tails or whole titles), each an ordered list of entry indexes. Most blocks
 * hold one title, so a block is a chain through typed arrays (first, last, next) rather than an array of its
 * own: on large inputs thousands of small arrays stay alive through grouping, and every young-generation
 * collection copies them.
 */
export class TitleBlocks<Key extends string | number> {
  private readonly blockOfKey = new Map<Key, number>();
  /** Per block: its first and last member (-1 while empty). */
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  /** Per entry: the next member of its block (-1 at the end). An entry is in at most one block of a kind. */
  private readonly next: Int32Array;

  /** `entries` bounds both the entry indexes and the number of blocks. */
  constructor(entries: number) {
    this.first = new Int32Array(entries).fill(-1);
    this.last = new Int32Array(entries).fill(-1);
    this.next = new Int32Array(entries).fill(-1);
  }

  /** The block with this key, made empty when it is new. */
  block(key: Key): number {
    let block = this.blockOfKey.get(key);
    if (block === undefined) {
      block = this.blockOfKey.size;
      this.blockOfKey.set(key, block);
    }
    return block;
  }

  /** The first member of a block, or -1. */
  firstMember(block: number): number {
    return this.first[block]!;
  }

  /** The member after this one in its block, or -1. */
  nextMember(entry: number): number {
    return this.next[entry]!;
  }

  /** Adds an entry at the end of a block. */
  append(block: number, entry: number): void {
    const last = this.last[block]!;
    if (last < 0) this.first[block] = entry;
    else this.next[last] = entry;
    this.last[block] = entry;
  }
}
