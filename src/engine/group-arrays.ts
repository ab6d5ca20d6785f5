/**
 * The groups' arrays, each made at its final size once every entry's group is known: `[first]` and a push
 * would grow to 17 slots for a group of two. Groups come in the order of their numbers, members in entry order.
 * `groupOf[index]` is entry `index`'s group (numbered from 0 in first-seen order), `sizes[group]` its size.
 */
export function groupArrays<T>(groupOf: Int32Array, sizes: Int32Array, groupCount: number, memberAt: (index: number) => T): T[][] {
  const groups: T[][] = new Array<T[]>(groupCount);
  const filled = new Int32Array(groupCount);
  for (let index = 0; index < groupOf.length; index += 1) {
    const group = groupOf[index]!;
    const size = sizes[group]!;
    if (size === 1) groups[group] = [memberAt(index)];
    else {
      const position = filled[group]!;
      if (position === 0) groups[group] = new Array<T>(size);
      groups[group]![position] = memberAt(index);
      filled[group] = position + 1;
    }
  }
  return groups;
}
