import { describe, expect, it } from 'vitest';
import { TIME_RANGES, timeRangeStart } from '../../src/domain/time-range.js';
import { applyPostFilters } from '../../src/engine/filters.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const DAY_MS = 86_400_000;

describe('time ranges', () => {
  it('reach back a day, a week, and a month and a year at their longest (31 and 366 days)', () => {
    expect(TIME_RANGES.map((range) => (NOW - timeRangeStart(range, NOW)) / DAY_MS)).toEqual([1, 7, 31, 366]);
  });

  it.each(TIME_RANGES)('%s starts at the same instant for every adapter that sends a start date and for the engine', (range) => {
    const start = timeRangeStart(range, NOW);
    const query = makeQuery('q', 'web', 10, { time_range: range });
    const exa = JSON.parse((makeProvider(ExaProvider, { EXA_API_KEY: 'k' }) as ExaProvider).buildRequest(query, NOW).body!) as { startPublishedDate: string };
    expect(Date.parse(exa.startPublishedDate)).toBe(start);
    const youtube = new URL((makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'k' }) as YoutubeProvider).buildRequest({ ...query, kind: 'video' }, NOW).url);
    expect(Date.parse(youtube.searchParams.get('publishedAfter')!)).toBe(start);
    const hackerNews = new URL((makeProvider(HackerNewsProvider) as HackerNewsProvider).buildRequest(query, NOW).url);
    expect(hackerNews.searchParams.get('numericFilters')).toBe(`created_at_i>${start / 1000}`);
    // The engine keeps a result published at the start and drops one a second before it.
    const items = [
      { title: 'at the start', url: 'https://example.org/a', published_at: new Date(start).toISOString() },
      { title: 'just before', url: 'https://example.org/b', published_at: new Date(start - 1000).toISOString() },
    ];
    expect(applyPostFilters(items, { time_range: range }, [], NOW).map((item) => item.title)).toEqual(['at the start']);
  });
});
