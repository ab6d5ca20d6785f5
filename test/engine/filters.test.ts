import { describe, expect, it } from 'vitest';
import type { SearchFilters } from '../../src/domain/query.js';
import { cacheKey } from '../../src/engine/cached-answer.js';
import { applyPostFilters, requestedFilters, unsupportedFilters } from '../../src/engine/filters.js';
import { filtersOf } from '../../src/operations/search-operations.js';
import type { Provider } from '../../src/providers/provider.js';

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

  it('counts no value that asks for nothing: safesearch off skips no provider, moderate and strict do', () => {
    expect(requestedFilters({ safesearch: 'off', include_domains: [] })).toEqual([]);
    expect(unsupportedFilters({ safesearch: 'off', time_range: 'day' }, [])).toEqual([]);
    expect(unsupportedFilters({ safesearch: 'off', language: 'de' }, [])).toEqual(['language']);
    expect(unsupportedFilters({ safesearch: 'moderate' }, [])).toEqual(['safesearch']);
    expect(unsupportedFilters({ safesearch: 'strict' }, [], true)).toEqual(['safesearch']);
  });

  it('keeps safesearch off in the search, apart from one without it, and drops open_access false', () => {
    // Brave and YouTube filter by their default unless sent off: off is another search, with its own cached answer.
    expect(filtersOf({ query: 'q', safesearch: 'off', open_access: false })).toEqual({ safesearch: 'off' });
    const key = (filters: SearchFilters) => cacheKey({ kind: 'web', text: 'q', limit: 11, filters }, [{ name: 'brave' } as Provider]);
    expect(key(filtersOf({ safesearch: 'off' }))).not.toBe(key(filtersOf({})));
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

  describe('a domain entry with a path', () => {
    const pages = [
      { title: 'Guide index', url: 'https://docs.example.com/guide' },
      { title: 'Guide intro', url: 'https://docs.example.com/guide/intro' },
      { title: 'Guides', url: 'https://docs.example.com/guides/x' },
      { title: 'Private', url: 'https://docs.example.com/private/x' },
      { title: 'Public', url: 'https://docs.example.com/public' },
      { title: 'Other host', url: 'https://other.example.org/guide/intro' },
    ];
    const titles = (filters: Parameters<typeof applyPostFilters>[1], list: typeof pages = pages) =>
      applyPostFilters(list, filters, [], NOW).map((item) => item.title);

    it('includes the path and what lies under it, not a longer segment nor another host', () => {
      expect(titles({ include_domains: ['docs.example.com/guide'] })).toEqual(['Guide index', 'Guide intro']);
    });

    it('excludes the path and what lies under it, and keeps the rest of the host', () => {
      expect(titles({ exclude_domains: ['docs.example.com/private'] })).toEqual(['Guide index', 'Guide intro', 'Guides', 'Public', 'Other host']);
    });

    it('takes a trailing slash on either side, and a host in any letter case', () => {
      expect(titles({ include_domains: ['Docs.Example.COM/guide/'] })).toEqual(['Guide index', 'Guide intro']);
      expect(titles({ include_domains: ['docs.example.com/guide'] }, [{ title: 'Slash', url: 'https://DOCS.example.com/guide/' }])).toEqual(['Slash']);
    });

    it('compares paths as the URL parser reads them: letter case counts, percent-encoding and dot segments do not', () => {
      const spelled = [
        { title: 'Upper', url: 'https://example.com/Guide/a' },
        { title: 'Encoded', url: 'https://example.com/caf%C3%A9/menu' },
        { title: 'Dotted', url: 'https://example.com/x/../guide/b' },
      ];
      expect(titles({ include_domains: ['example.com/guide'] }, spelled)).toEqual(['Dotted']);
      expect(titles({ include_domains: ['example.com/Guide'] }, spelled)).toEqual(['Upper']);
      expect(titles({ include_domains: ['example.com/café'] }, spelled)).toEqual(['Encoded']);
    });

    it('holds for subdomains and www, as a host entry does', () => {
      const hosts = [
        { title: 'Sub', url: 'https://eu.docs.example.com/guide/a' },
        { title: 'Www', url: 'https://www.example.com/guide' },
        { title: 'Lookalike', url: 'https://notexample.com/guide' },
      ];
      expect(titles({ include_domains: ['example.com/guide'] }, hosts)).toEqual(['Sub', 'Www']);
      expect(titles({ include_domains: ['www.example.com/guide'] }, hosts)).toEqual(['Sub', 'Www']);
    });

    it('reads www.com as that one host, not as every .com site', () => {
      const hosts = [
        { title: 'Www.com', url: 'https://www.com/page' },
        { title: 'Under www.com', url: 'https://shop.www.com/page' },
        { title: 'Another .com', url: 'https://example.com/page' },
        { title: 'Bare com', url: 'https://com/page' },
      ];
      expect(titles({ include_domains: ['www.com'] }, hosts)).toEqual(['Www.com', 'Under www.com']);
      expect(titles({ exclude_domains: ['www.com'] }, hosts)).toEqual(['Another .com', 'Bare com']);
      expect(titles({ include_domains: ['WWW.com/page'] }, hosts)).toEqual(['Www.com', 'Under www.com']);
    });

    it('reads a suffix others register under (github.io, gov.uk) as every site under it, as Tavily and Exa do', () => {
      const hosts = [
        { title: 'Pages site', url: 'https://someone.github.io/blog' },
        { title: 'GitHub', url: 'https://github.com/someone' },
        { title: 'UK department', url: 'https://www.education.gov.uk/a' },
        { title: 'UK company', url: 'https://shop.co.uk/a' },
      ];
      expect(titles({ include_domains: ['github.io', 'gov.uk'] }, hosts)).toEqual(['Pages site', 'UK department']);
    });

    it('leaves host entries as they were, beside path entries', () => {
      expect(titles({ include_domains: ['other.example.org', 'docs.example.com/public'] })).toEqual(['Public', 'Other host']);
      expect(titles({ include_domains: ['example.com/'] })).toEqual(titles({ include_domains: ['example.com'] }));
    });
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
