/**
 * How much the word rules (opposite-titles.ts, replaced-words.ts, added-words.ts) may read while papers are grouped.
 * They read only pairs of titles already alike by their bigrams, and only the words where the two differ (their common
 * opening and ending words aside), so their cost grows with those differing words. In a real result list a title has
 * few such near-twins, and few words truly apart from each: a drug, an animal, a spelling ("randomized" and
 * "randomised"), though two such changes near both ends put every word between them among the differing words. A
 * hostile upstream's titles at their length bound, each alike to every other (the same words in other orders, the same
 * letters spaced otherwise), have all their words apart, up to a hundred and more.
 */

/**
 * Words apart (wordsApart, of both titles of a pair) the word rules may read for the title being placed: 64 near-twins
 * a word apart, twenty trials of one design that name another drug and spell two words otherwise (six words apart, in
 * some fifty differing words), one title whose words are all apart from the other's. The first pair is always read,
 * unless the other title is one of a crowd (CROWD_WORDS).
 */
const MAX_WORDS_APART_PER_TITLE = 128;

/**
 * Differing words the whole list may read, per title, and the least any list may read, before what is counted is every
 * word read rather than the words apart, and a crowd is made at half its words: the rules' cost is the words they read,
 * and a hostile upstream's titles that hold a word of their own near each end of the same long run of words (each pair
 * read in full, only four words apart) were otherwise read against 32 others each, for a second. A real list reads far
 * less: most of its titles have no near-twin at all.
 */
const LIST_WORDS_PER_TITLE = 32;
const LIST_WORDS_AT_LEAST = 16_384;

/**
 * Words apart, in pairs a title was in, whichever of the two was being placed, that make it one of a crowd: a pair found
 * to differ counts DIFFERING_PAIR_WEIGHT times its words. Found to differ from near-twins in 256 words apart (128 other
 * works named by a word in place of one, or two of a hostile upstream's titles whose words are all apart), or read
 * against its own respellings for 1,024 words apart, a title is no real paper's: a real one has a few twins, spelled
 * another way, and fewer near-twins. The 69 trials of one design a reviewer found, each a drug apart from the others,
 * are 544 words for the first of them: no crowd.
 */
const DIFFERING_PAIR_WEIGHT = 4;
const CROWD_WORDS = 2 * MAX_WORDS_APART_PER_TITLE * DIFFERING_PAIR_WEIGHT;

/**
 * How many words of two titles' differing words are apart: the fewer of those not in the same place when the two are
 * laid side by side from their first word or from their last, both titles' count, and the words one has more. Never
 * fewer than the words an edit of one into the other changes; as many as the differing words when the same words come
 * in other orders. Read in place, once per pair read, beside the rules' own reading of the same words.
 */
export function wordsApart(differingA: readonly string[], differingB: readonly string[]): number {
  const shorter = Math.min(differingA.length, differingB.length);
  const lastA = differingA.length - 1;
  const lastB = differingB.length - 1;
  let apartFromStart = 0;
  let apartFromEnd = 0;
  for (let at = 0; at < shorter; at += 1) {
    if (differingA[at] !== differingB[at]) apartFromStart += 1;
    if (differingA[lastA - at] !== differingB[lastB - at]) apartFromEnd += 1;
  }
  return 2 * Math.min(apartFromStart, apartFromEnd) + Math.abs(differingA.length - differingB.length);
}

/**
 * What the word rules have read: for the title being placed, against MAX_WORDS_APART_PER_TITLE, for the whole list,
 * against its share (LIST_WORDS_PER_TITLE), and for every title, in every pair it was in, against CROWD_WORDS. Titles
 * are compared with the first members of their blocks, so a hostile upstream's titles are all read against the same
 * few: a cap on the title being placed alone let each of 2,505 such titles be read against four or five of them, and
 * held a search for a second. A title alike to one of a crowd is taken to differ from it without reading, and is one of
 * the crowd from then on, so that the crowd's other titles, placed in other blocks, are not read either. Past either
 * share, two titles are taken to differ: the budget can keep two works apart, never join two.
 */
export class WordReadingBudget {
  /** The title being placed, and what was counted for it so far: words apart, or words read past the list's share. */
  private placing = -1;
  private wordsRead = 0;
  /** Differing words read for the whole list, and how many it may read before each title's share counts them. */
  private listWordsRead = 0;
  private readonly listWords: number;
  /** Per title, what was counted of the pairs it was in (CROWD_WORDS); made at the first pair, as most lists read none. */
  private crowdWords: Int32Array | undefined;

  constructor(private readonly titles: number) {
    this.listWords = Math.max(LIST_WORDS_AT_LEAST, titles * LIST_WORDS_PER_TITLE);
  }

  /** Whether the title being placed has read its share: it then differs from every title but the same one. */
  spent(placed: number): boolean {
    return this.placing === placed && this.wordsRead >= MAX_WORDS_APART_PER_TITLE;
  }

  /** Whether the word rules may read the pair of `placed`, the title being placed, and `other`, a title before it. */
  allows(placed: number, other: number): boolean {
    if (this.placing !== placed) {
      this.placing = placed;
      this.wordsRead = 0;
    }
    return this.wordsRead < MAX_WORDS_APART_PER_TITLE && !this.crowded(other);
  }

  /**
   * Counts a pair read (after allows): the differing words of both titles, how many of them are apart (wordsApart), and
   * whether the rules found the two to differ. The title being placed counts the words apart while the list has read
   * less than its share, every word read past it.
   */
  spend(placed: number, other: number, differing: number, apart: number, differ: boolean): void {
    this.listWordsRead += differing;
    const words = this.pastListShare() ? differing : apart;
    this.wordsRead += words;
    const counted = (this.crowdWords ??= new Int32Array(this.titles));
    const weighed = differ ? words * DIFFERING_PAIR_WEIGHT : words;
    counted[placed] = counted[placed]! + weighed;
    counted[other] = counted[other]! + weighed;
  }

  /**
   * Records that `placed`, alike to `other` by its bigrams and numbers, was taken to differ from it unread (allows was
   * false): when for `other` being one of a crowd, the title being placed is one of the crowd too.
   */
  refused(placed: number, other: number): void {
    if (!this.crowded(other)) return;
    this.wordsRead = MAX_WORDS_APART_PER_TITLE;
    this.crowdWords![placed] = Math.max(this.crowdWords![placed]!, CROWD_WORDS);
  }

  /** Whether past the list's share: every word read is counted, and a crowd is made at half its words. */
  private pastListShare(): boolean {
    return this.listWordsRead > this.listWords;
  }

  private crowded(title: number): boolean {
    const counted = this.crowdWords;
    return counted !== undefined && counted[title]! >= (this.pastListShare() ? CROWD_WORDS / 2 : CROWD_WORDS);
  }
}
