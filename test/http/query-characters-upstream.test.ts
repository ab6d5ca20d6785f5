import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const OPENALEX = '/openalex/works';
const HACKERNEWS = '/hackernews/api/v1/search';

type Outcome = { provider: string; status: string; count: number; message?: string };

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * OpenAlex as it answers today: a `*` or `?` in a `search` word is a wildcard, which its stemmed search refuses with 400
 * (the message is OpenAlex's own, reported by its users for questions ending in `?`).
 */
function openAlex(recorded: RecordedRequest, response: ServerResponse): void {
  if (/[*?]/.test(recorded.url.searchParams.get('search') ?? '')) {
    answer(response, 400, {
      error: 'Invalid query parameters error.',
      message: 'Wildcards (* or ?) require exact (no-stem) search. Use the search.exact= parameter instead.',
    });
    return;
  }
  answer(response, 200, { meta: { count: 1 }, results: [{ id: 'https://openalex.org/W1', display_name: 'A work about halves', cited_by_count: 0 }] });
}

/** HN Search hands on Algolia's refusal of a query of 512 bytes or more (UTF-8), whatever its count of characters. */
function hackerNews(recorded: RecordedRequest, response: ServerResponse): void {
  if (Buffer.byteLength(recorded.url.searchParams.get('query') ?? '', 'utf8') >= 512) {
    answer(response, 400, { code: 400, message: 'Invalid value for "query" parameter, expected string shorter than 512 bytes' });
    return;
  }
  answer(response, 200, { hits: [{ objectID: '1', title: 'A story', url: 'https://news.example/1', created_at_i: 1_700_000_000 }], nbPages: 1 });
}

describe('query text an upstream reads by rules of its own', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(`GET ${OPENALEX}`, { kind: 'handler', handle: openAlex });
    upstream.on(`GET ${HACKERNEWS}`, { kind: 'handler', handle: hackerNews });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (kind: 'web' | 'papers', text: string, provider: string): Promise<Outcome> => {
    const response = await request(service.origin, `/v1/search/${kind}?q=${encodeURIComponent(text)}&providers=${provider}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[] };
    return body.providers.find((outcome) => outcome.provider === provider)!;
  };

  it('asks OpenAlex a question ending in ? without the ?, which it would refuse as a wildcard', async () => {
    const before = upstream.requestsTo(OPENALEX).length;
    expect(await search('papers', 'what is 1/2?', 'openalex')).toMatchObject({ status: 'ok', count: 1 });
    const sent = upstream.requestsTo(OPENALEX).slice(before);
    expect(sent).toHaveLength(1);
    // The bytes on the wire: `1/2` as %2F, and no %3F left.
    expect(sent[0]!.url.search).toMatch(/^\?search=what\+is\+1%2F2&/);
  });

  it('does not ask OpenAlex a text of wildcards alone, and says why', async () => {
    const before = upstream.requestsTo(OPENALEX).length;
    // Punctuation alone (`* ?`) is no word for any provider: the pipeline says so before OpenAlex's own check.
    expect(await search('papers', '* ?', 'openalex')).toMatchObject({
      status: 'skipped',
      count: 0,
      message: 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation',
    });
    expect(upstream.requestsTo(OPENALEX)).toHaveLength(before);
  });

  it('asks OpenAlex a symbol with a wildcard as the symbol, as it asks the symbol alone', async () => {
    const before = upstream.requestsTo(OPENALEX).length;
    // A symbol is a word to every provider (closed-query.ts noWordProblem), and so it is once OpenAlex's wildcards are out.
    expect(await search('papers', '€*', 'openalex')).toMatchObject({ status: 'ok' });
    const sent = upstream.requestsTo(OPENALEX).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url.searchParams.get('search')).toBe('€');
  });

  it('skips Hacker News for 171 Japanese characters (513 bytes), saying why, and asks it for 170 (510 bytes)', async () => {
    const tooLong = '検索語'.repeat(57);
    expect(tooLong).toHaveLength(171);
    const before = upstream.requestsTo(HACKERNEWS).length;
    expect(await search('web', tooLong, 'hackernews')).toMatchObject({
      status: 'skipped',
      count: 0,
      message: 'accepts queries of at most 511 bytes in UTF-8 (an accented letter takes two, a CJK character three, an emoji four); this one has 513',
    });
    expect(upstream.requestsTo(HACKERNEWS)).toHaveLength(before);

    const enough = tooLong.slice(0, 170);
    expect(await search('web', enough, 'hackernews')).toMatchObject({ status: 'ok', count: 1 });
    const sent = upstream.requestsTo(HACKERNEWS).slice(before);
    expect(sent).toHaveLength(1);
    // Each character as its three UTF-8 bytes, percent-encoded once.
    expect(sent[0]!.url.search).toContain(`query=${'%E6%A4%9C%E7%B4%A2%E8%AA%9E'.repeat(56)}%E6%A4%9C%E7%B4%A2&`);
  });

  it('asks Hacker News for 500 ASCII characters, which are 500 bytes', async () => {
    const words = `${'words '.repeat(83)}xx`;
    expect(words).toHaveLength(500);
    expect(await search('web', words, 'hackernews')).toMatchObject({ status: 'ok', count: 1 });
  });
});
