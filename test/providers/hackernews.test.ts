import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { hackernewsSearch } from '../../src/operations/scoped-operations.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/hackernews/${name}`, import.meta.url), 'utf8');

describe('hackernews adapter', () => {
  const upstream = useFakeUpstream();

  it('searches stories with a created_at_i filter and parses every hit', async () => {
    upstream.json('GET /hn/api/v1/search', fixture('search.json'));
    // The HACKER_NEWS_ prefix is an alias of HACKERNEWS_.
    const provider = makeProvider(HackerNewsProvider, { HACKER_NEWS_BASE_URL: `${upstream.origin}/hn` });
    const before = Math.floor(Date.now() / 1000);
    const items = await runProvider(provider, makeQuery('search', 'web', 3, { time_range: 'day' }));
    const after = Math.floor(Date.now() / 1000);
    const request = upstream.requestsTo('/hn/api/v1/search').at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url.searchParams.get('query')).toBe('search');
    expect(request.url.searchParams.get('tags')).toBe('story');
    expect(request.url.searchParams.get('hitsPerPage')).toBe('3');
    const filter = /^created_at_i>(\d+)$/.exec(request.url.searchParams.get('numericFilters') ?? '');
    expect(filter).not.toBeNull();
    expect(Number(filter![1])).toBeGreaterThanOrEqual(before - 86_400);
    expect(Number(filter![1])).toBeLessThanOrEqual(after - 86_400);
    expect(items).toEqual([
      {
        title: 'Show HN: A federated search service',
        url: 'https://fedsearch.example/launch',
        published_at: '2024-05-01T12:00:00.000Z',
        extra: { points: 250, num_comments: 12, author: 'ada', hn_url: 'https://news.ycombinator.com/item?id=101' },
      },
      {
        // An Ask HN has no link of its own: its discussion page is the result.
        title: 'Ask HN: Search tools?',
        url: 'https://news.ycombinator.com/item?id=200',
        snippet: 'What do you use for "search"? Asking for a friend.',
        published_at: '2024-04-02T08:30:00.000Z',
        extra: { points: 3, num_comments: 0, author: 'grace', hn_url: 'https://news.ycombinator.com/item?id=200' },
      },
      {
        title: 'Ask HN: Search tools?',
        url: 'https://news.ycombinator.com/item?id=203',
        snippet: 'Grep, mostly.',
        published_at: '2024-04-02T09:00:00.000Z',
        extra: { author: 'linus', hn_url: 'https://news.ycombinator.com/item?id=203' },
      },
    ]);
  });

  it('sends a typed NOT word or NOT "phrase" as the -word Algolia excludes with; a lower-case not and a quoted NOT stay words', async () => {
    upstream.json('GET /hn/api/v1/search', fixture('search.json'));
    const provider = makeProvider(HackerNewsProvider, { HACKERNEWS_BASE_URL: `${upstream.origin}/hn` });
    await runProvider(provider, makeQuery('rust NOT crab OR NOT "borrow checker" "NOT a bug" why not', 'web', 3));
    const request = upstream.requestsTo('/hn/api/v1/search').at(-1)!;
    expect(request.url.searchParams.get('query')).toBe('rust -crab -"borrow checker" "NOT a bug" why not');
  });

  /** The query Algolia is sent for a text. */
  const querySent = async (text: string): Promise<string | null> => {
    upstream.json('GET /hn/api/v1/search', fixture('search.json'));
    const provider = makeProvider(HackerNewsProvider, { HACKERNEWS_BASE_URL: `${upstream.origin}/hn` });
    await runProvider(provider, makeQuery(text, 'web', 3));
    return upstream.requestsTo('/hn/api/v1/search').at(-1)!.url.searchParams.get('query');
  };

  it('sends each word of NOT (a OR b) with the - Algolia excludes with', async () => {
    expect(await querySent('rust NOT (crab OR "borrow checker")')).toBe('rust -crab -"borrow checker"');
  });

  it('sends no AND, which Algolia does not read: a AND -b is a -b', async () => {
    // Sent, AND was one more word every story had to hold.
    expect(await querySent('rust AND -crab')).toBe('rust -crab');
    expect(await querySent('rust AND wasm')).toBe('rust wasm');
  });

  it('sends no OR, which Algolia has no operator for and would require as a word in every story', async () => {
    // Sent, OR was one more word to find, and Algolia requires every word: stories holding rust, zig and "or".
    expect(await querySent('rust OR zig')).toBe('rust zig');
    // One inside a phrase is a word of the phrase.
    expect(await querySent('"rock OR roll" music')).toBe('"rock OR roll" music');
    expect(await querySent('-crab OR rust')).toBe('-crab rust');
  });

  it('tells a caller before the search that OR is read as AND, where it chooses the tool and the provider', () => {
    // HN Search documents no OR and no optionalWords: a caller who wrote `a OR b` got stories with both, unwarned.
    expect(HackerNewsProvider.settings.description).toMatch(/OR is read as AND/);
    expect(hackernewsSearch.description).toMatch(/OR is read as AND/);
  });

  it('sends no OR at either end of the query or doubled, where it joined nothing and was a word every story had to hold', async () => {
    expect(await querySent('rust OR')).toBe('rust');
    expect(await querySent('OR rust zig')).toBe('rust zig');
    expect(await querySent('rust OR OR zig')).toBe('rust zig');
    // A query of ORs alone is not sent (an empty one would find every story): refused here, and skipped by the
    // pipeline, as for every provider.
    await expect(querySent('OR')).rejects.toMatchObject({ code: 'QUERY_INVALID', message: 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation' });
  });

  it('sends -(a OR b) as each word with the - Algolia excludes with, as NOT (a OR b) is', async () => {
    // Not `rust -(crab OR "borrow checker")`: a - before a parenthesis, which Algolia does not read.
    expect(await querySent('rust -(crab OR "borrow checker")')).toBe('rust -crab -"borrow checker"');
  });

  it('sends no group parentheses, which Algolia does not read, keeping every word and excluded term', async () => {
    // Sent as typed, `(-mice` left it to Algolia, which reads no parentheses, whether a `-` after one excludes.
    expect(await querySent('asthma (-mice rats)')).toBe('asthma -mice rats');
    expect(await querySent('asthma ( rats) NOT mice')).toBe('asthma rats -mice');
    // Every word is required, an OR's too (read as AND): a group changes nothing.
    expect(await querySent('(rust OR zig) wasm')).toBe('rust zig wasm');
    expect(await querySent('(rust wasm) OR zig')).toBe('rust wasm zig');
    expect(await querySent('rust (-crab OR zig)')).toBe('rust -crab zig');
    // A formula's parentheses are part of its word.
    expect(await querySent('solve f(x)')).toBe('solve f(x)');
  });

  it('sends the NOT of a query written in capitals as typed, a word', async () => {
    // Not `-INVENTED HERE`: the words searched for excluded.
    expect(await querySent('NOT INVENTED HERE')).toBe('NOT INVENTED HERE');
  });

  it('sends no numeric filter without a time range, and caps the page size', async () => {
    upstream.json('GET /hn/api/v1/search', fixture('search.json'));
    const provider = makeProvider(HackerNewsProvider, { HACKERNEWS_BASE_URL: `${upstream.origin}/hn` });
    await runProvider(provider, makeQuery('search', 'web', 500));
    const request = upstream.requestsTo('/hn/api/v1/search').at(-1)!;
    expect(request.url.searchParams.has('numericFilters')).toBe(false);
    expect(request.url.searchParams.get('hitsPerPage')).toBe('100');
  });

  it('needs no setting to run', () => {
    expect(makeProvider(HackerNewsProvider).missingSettings()).toEqual([]);
  });

  it('describes an error body by its message and throws on an error in a 200', () => {
    const provider = makeProvider(HackerNewsProvider);
    const error = fixture('error-400.json');
    expect(provider.describeError(response(error, 400))).toBe(
      'invalid numeric attribute(num_comments), attribute not specified in numericAttributesForFiltering setting',
    );
    expect(provider.describeError(response('Bad Gateway', 502))).toBeUndefined();
    expect(() => provider.parseResponse(response(error), makeQuery('x'))).toThrow(FedsearchError);
  });
});

// HN Search answers JSON only: the endpoint is the format.
const hackerNewsSends = { sent: [makeProvider(HackerNewsProvider).buildRequest(makeQuery('q'))], formatOf: endpointOf };

describeSharedFixtures('hackernews', hackerNewsSends, (fixtures) => {
  const provider = makeProvider(HackerNewsProvider);
  for (const shared of fixtures) {
    if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every hit is parsed with title and url`, () => {
        const hits = (JSON.parse(shared.body) as { hits: Array<{ url?: string | null }> }).hits;
        const outcome = provider.parseResponse(response(shared.body, shared.status), makeQuery('q'));
        const items = 'items' in outcome ? outcome.items : [];
        expect(hits.length).toBeGreaterThan(0);
        expect(items).toHaveLength(hits.length);
        items.forEach((item, index) => {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https?:\/\//);
          // story_text is "" on link stories: absent, never an empty snippet.
          expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
          if (hits[index]!.url) expect(item.url).toBe(new URL(hits[index]!.url!).toString());
        });
      });
    } else {
      it(`${shared.file}: the error body is described by its message`, () => {
        expect(provider.describeError(response(shared.body, shared.status))).toMatch(/^invalid numeric attribute\(points\)/);
        expect(() => provider.parseResponse(response(shared.body, shared.status), makeQuery('q'))).toThrow(FedsearchError);
      });
    }
  }
});
