import { describe, expect, it } from 'vitest';
import { applyPostFilters, requestedFilters, unsupportedFilters } from '../../src/engine/filters.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const items = [
  { title: 'Fresh reddit post', url: 'https://old.reddit.com/r/x/1', published_at: '2026-11-20T10:00:00Z', year: 2026 },
  { title: 'Old blog', url: 'https://blog.example.com/a', published_at: '2019-01-01', year: 2019 },
  { title: 'Undated page', url: 'https://www.reddit.com/r/y/2' },
];

describe('search filters', () => {
  it('counts only filters that are set', () => {
    expect(requestedFilters({ time_range: 'week', include_domains: [], scope: 'code' })).toEqual(['time_range']);
  });

  it('refuses filters that neither the provider nor the engine can apply', () => {
    expect(unsupportedFilters({ language: 'de', time_range: 'day' }, [])).toEqual(['language']);
    expect(unsupportedFilters({ language: 'de', safesearch: 'strict', open_access: true }, ['language'])).toEqual(['safesearch', 'open_access']);
    expect(unsupportedFilters({ include_domains: ['a.com'], year_from: 2000 }, [])).toEqual([]);
  });

  it('applies domain filters by host and subdomain', () => {
    expect(applyPostFilters(items, { include_domains: ['reddit.com'] }, [], NOW).map((item) => item.title)).toEqual(['Fresh reddit post', 'Undated page']);
    expect(applyPostFilters(items, { exclude_domains: ['reddit.com'] }, [], NOW).map((item) => item.title)).toEqual(['Old blog']);
  });

  it('applies a time range to dated items and leaves out items that cannot be shown to match', () => {
    expect(applyPostFilters(items, { time_range: 'week' }, [], NOW).map((item) => item.title)).toEqual(['Fresh reddit post']);
  });

  it('applies year bounds', () => {
    expect(applyPostFilters(items, { year_from: 2020 }, [], NOW).map((item) => item.title)).toEqual(['Fresh reddit post']);
    expect(applyPostFilters(items, { year_to: 2020 }, [], NOW).map((item) => item.title)).toEqual(['Old blog']);
  });

  it('leaves to the upstream what the provider applies natively', () => {
    expect(applyPostFilters(items, { time_range: 'week' }, ['time_range'], NOW)).toHaveLength(3);
  });
});
