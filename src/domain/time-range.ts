/** The periods a search can be limited to (`time_range`): results published within the last day, week, … */
export const TIME_RANGES = ['day', 'week', 'month', 'year'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/**
 * How many days back each period reaches. A month and a year are counted at their longest (31 and 366 days),
 * so a result that belongs in the period is never cut off by a short month or a leap year.
 */
const TIME_RANGE_DAYS: Readonly<Record<TimeRange, number>> = { day: 1, week: 7, month: 31, year: 366 };
const DAY_MS = 86_400_000;

/** The earliest publication time (ms since the epoch) that falls within the period, counted back from `now`. */
export function timeRangeStart(range: TimeRange, now = Date.now()): number {
  return now - TIME_RANGE_DAYS[range] * DAY_MS;
}
