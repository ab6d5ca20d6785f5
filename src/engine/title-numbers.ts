/**
 * Numbers in titles. Titles that differ only in a number are near-identical by their bigrams, yet name other
 * works: part I and part II of a series, a study's 2019 and 2020 editions, the second and third workshop of a
 * series, YOLOv2 and YOLOv3, vitamins D2 and D3, variants BA.2 and BA.4. Indexes also spell one number several
 * ways: `COVID-19` and `COVID19`, `2nd` and `second`, `Part I` and `Part 1`, `CO<sub>2</sub>` (its tag a space once
 * normalised) and `CO2`. Read only for the few pairs of titles already found similar, never per result.
 */

/** Number words, cardinal and ordinal, by value: "part two" and "part three", "the second workshop" and "the third". */
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  [
    ['one', 'first'], ['two', 'second'], ['three', 'third'], ['four', 'fourth'], ['five', 'fifth'], ['six', 'sixth'],
    ['seven', 'seventh'], ['eight', 'eighth'], ['nine', 'ninth'], ['ten', 'tenth'], ['eleven', 'eleventh'],
    ['twelve', 'twelfth'], ['thirteen', 'thirteenth'], ['fourteen', 'fourteenth'], ['fifteen', 'fifteenth'],
    ['sixteen', 'sixteenth'], ['seventeen', 'seventeenth'], ['eighteen', 'eighteenth'], ['nineteen', 'nineteenth'],
    ['twenty', 'twentieth'],
  ].flatMap(([cardinal, ordinal], index): Array<[string, number]> => [[cardinal!, index + 1], [ordinal!, index + 1]]),
);

/**
 * In a normalised title: every run of digits, wherever it stands (`19` of `covid19`, `2` of `yolov2`, `2` of `2nd`),
 * and, as whole words, a roman numeral made of i, v and x (`part ii`) or a number word (`second`).
 */
const TITLE_NUMBER = new RegExp(String.raw`\p{N}+|(?<![\p{L}\p{N}])(?:[ivx]+|${[...NUMBER_WORDS.keys()].join('|')})(?![\p{L}\p{N}])`, 'gu');
/** TITLE_NUMBER without its global flag, so that a test keeps no position between calls. */
const TITLE_NUMBER_ANYWHERE = new RegExp(TITLE_NUMBER.source, 'u');

/** Roman numerals from 1 to 9, to write a value back and see whether a numeral was written as Romans wrote it. */
const ROMAN_UNITS = ['', 'i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix'];
const ROMAN_VALUES: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10 };

/**
 * A number of a title as one spelling: digits without leading zeros, and a number word or a well-formed roman
 * numeral (up to xxxix) as its digits. Any other run of i, v and x stays as written: only the same run matches it.
 */
function numberValue(number: string): string {
  const code = number.charCodeAt(0);
  if (code < 0x61 || code > 0x7a) return /^[0-9]+$/.test(number) ? number.replace(/^0+(?=.)/, '') : number;
  const word = NUMBER_WORDS.get(number);
  if (word !== undefined) return String(word);
  let value = 0;
  for (let index = 0; index < number.length; index += 1) {
    const digit = ROMAN_VALUES[number[index]!]!;
    const next = index + 1 < number.length ? ROMAN_VALUES[number[index + 1]!]! : 0;
    value += digit < next ? -digit : digit;
  }
  const canonical = 'x'.repeat(Math.floor(value / 10)) + ROMAN_UNITS[value % 10]!;
  return value > 0 && value < 40 && canonical === number ? String(value) : number;
}

/** Whether two normalised titles hold the same numbers in the same order (TITLE_NUMBER, each as numberValue spells it). */
export function sameTitleNumbers(a: string, b: string): boolean {
  return titleNumbers(a) === titleNumbers(b);
}

/**
 * A normalised title's numbers (TITLE_NUMBER), each as numberValue spells it, in order and joined by spaces (no value
 * holds one): two titles hold the same numbers when these are equal, and a title without any has "". Worked out once
 * per title by a caller comparing one title with many (title-words.ts).
 */
export function titleNumbers(normalized: string): string {
  const numbers = normalized.match(TITLE_NUMBER);
  return numbers === null ? '' : numbers.map(numberValue).join(' ');
}

/** Whether a word of a normalised title holds a number as TITLE_NUMBER reads one: such words are sameTitleNumbers's to compare. */
export function holdsTitleNumber(word: string): boolean {
  return TITLE_NUMBER_ANYWHERE.test(word);
}
