import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveBody, callTool, connect, textOf, type Connected } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const ALLOWED_TEXT = 'allowed: text with at least one visible character, no control characters (tabs and line breaks are fine)';

/** node:http rather than fetch, so the query string goes out byte for byte, however malformed. */
function rawGet(origin: string, path: string): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('search text that cannot be sent to providers', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let mcp: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(BRAVE_PATH, JSON.parse(braveBody('https://brave.example/1')));
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', LOG_LEVEL: 'silent' });
    mcp = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await mcp.close();
    await service.stop();
    await upstream.stop();
  });

  const post = (path: string, body: unknown) =>
    request(service.origin, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it.each([
    ['q=%E0%A4%A', 'q: invalid percent-encoding, "%E0%A4" is not UTF-8; allowed: UTF-8 text with each byte written %XX (é is %C3%A9)'],
    ['q=50%&providers=brave', 'q: invalid percent-encoding, "%" not followed by two hex digits; allowed: UTF-8 text with each byte written %XX (é is %C3%A9)'],
    ['q=a%00b', `q: holds the control character U+0000 at position 2; ${ALLOWED_TEXT}`],
    ['q=bell%07', `q: holds the control character U+0007 at position 5; ${ALLOWED_TEXT}`],
    ['q=%E2%80%8B%E2%80%8D', `q: has no visible character (only spaces, zero-width or formatting characters); ${ALLOWED_TEXT}`],
  ])('GET ?%s is a 400 naming q, and no provider is asked', async (search, message) => {
    const before = upstream.requests.length;
    const response = await rawGet(service.origin, `/v1/search/web?${search}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'QUERY_INVALID', message });
    expect(upstream.requests.length).toBe(before);
  });

  it('GET ?__proto__=… is a 400 naming the unknown parameter, not a parameter silently dropped', async () => {
    const before = upstream.requests.length;
    const response = await rawGet(service.origin, '/v1/search/web?q=a&providers=brave&__proto__=x');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('QUERY_INVALID');
    expect(response.body.message).toContain('__proto__');
    expect(upstream.requests.length).toBe(before);
  });

  it('GET takes providers as a comma list, as repeated parameters, or both, with spaces and empty names ignored', async () => {
    for (const search of ['providers=brave,%20local', 'providers=brave&providers=local', 'providers=brave,,&providers=%20local%20']) {
      const response = await request(service.origin, `/v1/search/web?q=lists&${search}`);
      expect(response.status).toBe(200);
      expect((await response.json()).providers.map((outcome: { provider: string }) => outcome.provider).sort()).toEqual(['brave', 'local']);
    }
  });

  it.each([
    ['a\u0000b', 'holds the control character U+0000 at position 2'],
    ['\u200b\ufeff\u200d', 'has no visible character (only spaces, zero-width or formatting characters)'],
    ['lone \ud800 half', 'is not valid Unicode (it holds a lone surrogate)'],
  ])('POST q=%j is a 400 naming q over REST, the operation route and MCP alike', async (text, problem) => {
    const before = upstream.requests.length;
    const search = await post('/v1/search/web', { q: text, providers: ['brave'] });
    expect(search.status).toBe(400);
    expect((await search.json()).message).toBe(`q: ${problem}; ${ALLOWED_TEXT}`);
    const operation = await post('/v1/ops/web_search', { query: text, providers: ['brave'] });
    expect(operation.status).toBe(400);
    expect((await operation.json()).message).toBe(`query: ${problem}; ${ALLOWED_TEXT}`);
    const tool = await callTool(mcp.client, 'research', { operation: 'web_search', params: { query: text, providers: ['brave'] } });
    expect(tool.isError).toBe(true);
    expect(textOf(tool)).toContain(`query: ${problem}; ${ALLOWED_TEXT}`);
    expect(upstream.requests.length).toBe(before);
  });

  it('still takes ordinary text: percent-encoded UTF-8, a literal %, tabs and line breaks', async () => {
    const response = await rawGet(service.origin, '/v1/search/web?q=caf%C3%A9+50%25%0Anext&providers=brave');
    expect(response.status).toBe(200);
    // The line break between words is white space, sent as one space: the same search, and answer, as `café 50% next`.
    expect(upstream.requestsTo(BRAVE_PATH).at(-1)!.url.searchParams.get('q')).toBe('café 50% next');
  });
});

describe('messages that say what is wrong and what is allowed', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  const post = (path: string, body: string | object) =>
    request(service.origin, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it.each(['{"q": "a", "__proto__": {"admin": true}}', '{"q": "a", "constructor": {"prototype": {"admin": true}}}'])(
    'refuses a body with a prototype-pollution key and says so: %s',
    async (body) => {
      const response = await post('/v1/search/web', body);
      expect(response.status).toBe(400);
      const answer = await response.json();
      expect(answer.code).toBe('QUERY_INVALID');
      expect(answer.message).toBe(
        'body: refused, it holds a "__proto__" or "constructor.prototype" key, which could alter the prototype of objects (prototype pollution); ' +
          'allowed: a JSON object without those keys',
      );
    },
  );

  it.each([
    [
      '/v1/search/web',
      { q: 'a', providers: 7 },
      'providers: matches none of the accepted forms; allowed: a list of 1–20 provider names (see /v1/providers), a comma-separated string of them, or "auto"',
    ],
    [
      '/v1/ops/web_search',
      { query: 'a', providers: 'brave' },
      'providers: matches none of the accepted forms; allowed: a list of 1–20 provider names (see list_providers) or "auto"',
    ],
    ['/v1/ops/paper_read', { id: '10.1000/x', url: 'https://example.org/x.pdf' }, 'id: sent together with url; allowed: exactly one of id or url'],
    ['/v1/ops/paper_search', { query: 'a', year_from: 2021, year_to: 2019 }, 'year_from: 2021 is after year_to (2019); allowed: a year no later than year_to'],
    ['/v1/ops/paper_read', { url: 'not a link' }, 'url: "not a link" is not a URL; allowed: an http(s) URL'],
  ])('POST %s %j names the field once', async (path, body, message) => {
    const response = await post(path, body);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  });

  it('GET /v1/papers/download with both id and url names the conflict', async () => {
    const response = await request(service.origin, '/v1/papers/download?id=10.1000/x&url=https://example.org/x.pdf');
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('id: sent together with url; allowed: exactly one of id or url');
  });
});
