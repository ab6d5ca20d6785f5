/** What a cut text ends with: one character, so that a bound in characters holds with it. */
export const ELLIPSIS = '…';

/**
 * The first `keep` characters (UTF-16 units) of `value` and an ellipsis (`…` unless given), cut back to the last
 * word break when one lies in their second half (a cut mid-word reads as a typo), and never between the two halves
 * of a surrogate pair (a lone half is not valid Unicode: JSON encoders write it as `\udXXX`, and some clients refuse
 * it). For text longer than `keep`: callers test the length first, so that text within bounds costs that test only.
 */
export function cutText(value: string, keep: number, ellipsis: string = ELLIPSIS): string {
  let end = keep;
  const space = value.lastIndexOf(' ', keep);
  if (space > keep / 2) end = space;
  else if (isHighSurrogate(value.charCodeAt(end - 1))) end -= 1;
  return `${value.slice(0, end).trimEnd()}${ellipsis}`;
}

/** `value` when it has at most `max` characters, else cut (cutText) to at most `max`, its ellipsis included. */
export function boundedText(value: string, max: number): string {
  return value.length <= max ? value : cutText(value, max - ELLIPSIS.length);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
