/**
 * Reading the dates upstreams and pages write into ISO 8601, keeping only the precision they gave. Shared by the
 * provider adapters (a result's published_at) and fetch_url (a page's published time), so both read "March 2024"
 * or "4 April 2024" alike, whatever the server's time zone.
 */

const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06',
  jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

/**
 * An ISO 8601 date from what upstreams send: full timestamps, `YYYY-MM-DD`, `YYYY-MM`, `YYYY`, PubMed's
 * `2018 Jun 19` or `2018 Jun`, a month written before its year (`Apr 2024`, `04/2024`). Keeps only the precision
 * that was given (a month without a day is `YYYY-MM`); undefined when unreadable.
 */
export function isoDate(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Unix seconds (HN's created_at_i) or milliseconds.
    const ms = value < 1e12 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/, '$1T$2');
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(trimmed)) return validCalendarDate(trimmed) ? trimmed : undefined;
  const named = /^(\d{4})\s+([A-Za-z]{3})[a-z]*(?:\s+(\d{1,2}))?$/.exec(trimmed);
  if (named) {
    const month = MONTHS[named[2]!.toLowerCase()];
    if (!month) return named[1];
    return named[3] ? `${named[1]}-${month}-${named[3].padStart(2, '0')}` : `${named[1]}-${month}`;
  }
  const monthOfYear = monthAndYear(trimmed);
  if (monthOfYear !== undefined) return monthOfYear;
  if (!/\d{4}/.test(trimmed)) return undefined;
  // A timestamp without an offset is read as UTC, so the answer does not depend on the server's zone.
  const withZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed) ? `${trimmed}Z` : trimmed;
  const parsed = new Date(withZone);
  if (Number.isNaN(parsed.getTime())) return undefined;
  // A day without a time of day or a zone ("April 4, 2024", Brave's `age`) is read at midnight in the server's zone;
  // as an instant it would fall on April 3rd in UTC on a server east of Greenwich. It is that calendar day.
  if (!/\d:\d/.test(trimmed) && !/\b(GMT|UTC|Z)\b|[+-]\d{2}:?\d{2}$/i.test(trimmed)) return localCalendarDay(parsed);
  return parsed.toISOString();
}

/**
 * A month of a year without a day ("Apr 2024", "April, 2024", "2024/04", "04/2024") as `YYYY-MM`, and a season
 * of a year ("Spring 2024") as `YYYY`: read whole as a date, each became the 1st of its month (January for a
 * season), a day the source never gave. Undefined for anything else.
 */
const MONTH_THEN_YEAR =
  /^(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?[\s-]+(\d{4})$/i;

function monthAndYear(value: string): string | undefined {
  const season = /^(?:spring|summer|autumn|fall|winter),?\s+(\d{4})$/i.exec(value);
  if (season) return season[1];
  const named = MONTH_THEN_YEAR.exec(value);
  if (named) return `${named[2]}-${MONTHS[named[1]!.slice(0, 3).toLowerCase()]!}`;
  const yearFirst = /^(\d{4})[/.-](\d{1,2})$/.exec(value);
  const monthFirst = /^(\d{1,2})[/.-](\d{4})$/.exec(value);
  const [year, month] = yearFirst ? [yearFirst[1]!, Number(yearFirst[2])] : monthFirst ? [monthFirst[2]!, Number(monthFirst[1])] : [];
  if (year === undefined || month === undefined || month < 1 || month > 12) return undefined;
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` of a date as read in the server's zone. */
function localCalendarDay(date: Date): string {
  const pad = (part: number): string => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function validCalendarDate(value: string): boolean {
  const [year, month = 1, day = 1] = value.split('-').map(Number) as [number, number?, number?];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
