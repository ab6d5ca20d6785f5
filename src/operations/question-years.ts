/**
 * The years a question asks for, read from a few clear patterns: "this year", "last year", "in the past year",
 * "in 2025", "since 2023", "from 2023", "2019–2021", "from 2019 to 2021", "between 2019 and 2021".
 *
 * A year anywhere else is part of what is asked ("the 2024 Nobel prize", "GPT-4 2024 paper titled …") and stays a
 * word. So does a year after the current one ("AI predictions in 2030", "Agenda 2020–2030"): nothing is published
 * then yet, so it names a subject, not a date. A question with two such phrases ("in 2019 and in 2021") is read as
 * words too: one year span cannot say it.
 */
export interface YearSpan {
  /** The words that said it ("since 2023"), taken out of the query sent to providers that match every word. */
  phrase: string;
  year_from?: number;
  year_to?: number;
  /** 'year' when the span lies within the last 366 days a web search's time_range 'year' reaches. */
  time_range?: 'year';
}

const YEAR = '((?:19|20)\\d{2})';
/** Not a year that goes on ("2024-25", "2024.1", "2020s"), nor one inside a name ("covid-2019"). */
const YEAR_END = '(?![-–—./]?\\w)';
const YEAR_START = '(?<![\\w-])';

type Reader = (match: RegExpMatchArray, year: number) => Omit<YearSpan, 'phrase'> | undefined;

/** A span of whole years, all of them past or current: a later year names a subject, not a date. */
function yearsBetween(from: number, to: number | undefined, year: number): Omit<YearSpan, 'phrase'> | undefined {
  if (from < 1900 || from > year || (to !== undefined && (to < from || to > year))) return undefined;
  return { year_from: from, ...(to !== undefined ? { year_to: to } : {}), ...(from === year ? { time_range: 'year' as const } : {}) };
}

/**
 * How far back a bare "in 1969" or "1939–1945" is read as when papers were published: further back it names when
 * something happened ("the moon landing in 1969", "WWII 1939–1945"), which papers are written about to this day.
 * "since", "from" and "between" say it is the papers' years whatever the year.
 */
const BARE_YEARS_BACK = 10;

function recentOnly(read: Reader): Reader {
  return (match, year) => (Number(match[1]) < year - BARE_YEARS_BACK ? undefined : read(match, year));
}

/** In the order they are tried: a range before "from 2019" alone, "the last year" before "last year". */
const PATTERNS: ReadonlyArray<[RegExp, Reader]> = [
  [
    new RegExp(`\\b(?:from|between)\\s+${YEAR}\\s*(?:[-–—]|to|until|till|through|and)\\s*${YEAR}${YEAR_END}`, 'i'),
    (match, year) => yearsBetween(Number(match[1]), Number(match[2]), year),
  ],
  [
    new RegExp(`(?:\\b(?:in|during)\\s+)?${YEAR_START}${YEAR}\\s*[-–—]\\s*${YEAR}${YEAR_END}`, 'i'),
    recentOnly((match, year) => yearsBetween(Number(match[1]), Number(match[2]), year)),
  ],
  [new RegExp(`\\b(?:since|from)\\s+${YEAR}${YEAR_END}`, 'i'), (match, year) => yearsBetween(Number(match[1]), undefined, year)],
  [new RegExp(`\\b(?:in|during)\\s+${YEAR}${YEAR_END}`, 'i'), recentOnly((match, year) => yearsBetween(Number(match[1]), Number(match[1]), year))],
  // "in the past year" is the last twelve months, as "recent papers" is read: from last year on, the web for a year.
  [/(?:\b(?:in|over|during|within|from)\s+)?\bthe\s+(?:last|past)\s+(?:year|12 months)\b/i, (_match, year) => ({ year_from: year - 1, time_range: 'year' })],
  [/\bthis year\b/i, (_match, year) => ({ year_from: year, year_to: year, time_range: 'year' })],
  // Last calendar year: the web's time_range 'year' would cut off its first months, so the web keeps the words.
  [/\blast year\b/i, (_match, year) => ({ year_from: year - 1, year_to: year - 1 })],
];

/** The year span a question asks for (`year` is the current one), or undefined when it names none, or more than one. */
export function findYearSpan(text: string, year: number): YearSpan | undefined {
  let rest = text;
  const found: YearSpan[] = [];
  for (const [pattern, read] of PATTERNS) {
    for (let match = rest.match(pattern); match; match = rest.match(pattern)) {
      const span = read(match, year);
      // A phrase read as words is taken out of what the later patterns see ("from 2019 to 2030" is no "from 2019").
      rest = `${rest.slice(0, match.index)} ${rest.slice(match.index! + match[0].length)}`;
      found.push(span ? { phrase: match[0], ...span } : { phrase: '' });
    }
  }
  return found.length === 1 && found[0]!.phrase !== '' ? found[0] : undefined;
}

/** The question without the span's words, for providers that would demand "since" and "2023" in the text. */
export function withoutYearSpan(text: string, span: YearSpan | undefined): string {
  if (!span) return text;
  return text.replace(span.phrase, ' ').replace(/\s+/g, ' ').trim();
}
