import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations/registry.js';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { documentOf, send, type Answer, type DocumentCheck, type DocumentedRoute, type Sent } from '../support/openapi-check.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** One row of the table: what is sent, where the document lists it, and the status it must be answered with. */
interface Call extends Sent, DocumentedRoute {
  status: number;
}

/** Written in a row where the fake upstream's origin goes: it is known once the tests run, not as they are declared. */
const UPSTREAM = '{upstream}';

const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });

/** The PDF the fake upstream serves for the download route: what content sniffing recognises as one. */
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
const DOI = '10.5555/lookup.2020.3';
/** The one video whose watch page has captions; every other has none. */
const CAPTIONED_VIDEO = 'abcDEF12345';

/** Parameters of an operation that reach the loopback fakes instead of the internet; the others run their example. */
const OPERATION_PARAMS: Record<string, unknown> = {
  fetch_url: { url: `${UPSTREAM}/site/article.html` },
  paper_details: { id: DOI },
  paper_read: { url: `${UPSTREAM}/site/paper.pdf` },
  youtube_video_details: { ids: [CAPTIONED_VIDEO, 'zzzzzzzzzzz'] },
  youtube_transcript: { video: CAPTIONED_VIDEO },
};

/** Every operation's success, from the registry: an operation added is checked against the document at once. */
const OPERATION_SUCCESSES: Call[] = OPERATIONS.map((operation) => ({
  method: 'POST',
  path: `/v1/ops/${operation.name}`,
  route: `/v1/ops/${operation.name}`,
  ...json(OPERATION_PARAMS[operation.name] ?? operation.example),
  status: 200,
}));

/**
 * Real answers of every REST route, successes and errors, each checked against the document the service serves
 * (support/openapi-check.ts). Every route has its success here (a test below holds the table to the document's
 * routes), and the errors are one of each kind of refusal: bad input of each sort, a Host not admitted, a body too
 * large or not JSON, nothing found, an upstream failure, a deadline passed.
 */
const CALLS: Call[] = [
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=brave,wikipedia&explain=true', route: '/v1/search/web', status: 200 },
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=auto', route: '/v1/search/web', status: 200 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', ...json({ q: 'fusion', providers: ['brave', 'exa'], page: 2 }), status: 200 },
  { method: 'GET', path: '/v1/search/papers?q=fusion&providers=arxiv,pubmed', route: '/v1/search/papers', status: 200 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'fusion', providers: ['arxiv'], explain: true }), status: 200 },
  { method: 'GET', path: '/v1/search/web?q=', route: '/v1/search/web', status: 400 },
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=nope', route: '/v1/search/web', status: 400 },
  { method: 'GET', path: '/v1/search/web?q=fusion&unknown=1', route: '/v1/search/web', status: 400 },
  { method: 'GET', path: '/v1/search/web?q=%C3', route: '/v1/search/web', status: 400 },
  { method: 'GET', path: '/v1/search/papers?q=fusion&year_from=2020&year_to=2010', route: '/v1/search/papers', status: 400 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', body: '{"q":', contentType: 'application/json', status: 400 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', body: '[]', contentType: 'application/json', status: 400 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', body: '{"q":"fusion"}', contentType: 'text/plain', status: 415 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', ...json({ q: 'fusion' }), headers: { 'content-encoding': 'gzip' }, status: 415 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'x'.repeat(5000) }), status: 413 },
  { method: 'GET', path: '/v1/search/web/stream?q=fusion&providers=brave', route: '/v1/search/web/stream', status: 200 },
  { method: 'GET', path: '/v1/search/papers/stream?q=fusion&providers=arxiv', route: '/v1/search/papers/stream', status: 200 },
  // An EventSource reconnecting after its stream ended: no body, so the document must promise none.
  { method: 'GET', path: '/v1/search/web/stream?q=fusion', route: '/v1/search/web/stream', headers: { 'last-event-id': 'end' }, status: 204 },
  { method: 'GET', path: '/v1/search/papers/stream?q=fusion&limit=0', route: '/v1/search/papers/stream', status: 400 },
  { method: 'GET', path: '/v1/providers', route: '/v1/providers', status: 200 },
  { method: 'GET', path: '/v1/providers?kind=web', route: '/v1/providers', status: 400 },
  { method: 'GET', path: '/v1/providers', route: '/v1/providers', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: '/healthz', route: '/healthz', status: 200 },
  { method: 'GET', path: '/readyz', route: '/readyz', status: 200 },
  // Probes ignore parameters, but not a malformed escape: the query-string check comes before every route.
  { method: 'GET', path: '/healthz?source=%zz', route: '/healthz', status: 400 },
  { method: 'GET', path: '/readyz?source=%C3', route: '/readyz', status: 400 },
  // The Host check refuses a name it does not admit before any route, the probes' too.
  { method: 'GET', path: '/healthz', route: '/healthz', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: '/readyz', route: '/readyz', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: `/v1/papers/download?url=${UPSTREAM}/files/paper.pdf`, route: '/v1/papers/download', status: 200 },
  { method: 'GET', path: '/v1/papers/download?id=', route: '/v1/papers/download', status: 400 },
  { method: 'GET', path: '/v1/papers/download?id=10.1/a&url=https://example.org/a.pdf', route: '/v1/papers/download', status: 400 },
  { method: 'GET', path: '/v1/papers/download?url=file:///etc/passwd', route: '/v1/papers/download', status: 400 },
  { method: 'GET', path: `/v1/papers/download?url=${UPSTREAM}/site/article.html`, route: '/v1/papers/download', status: 415 },
  ...OPERATION_SUCCESSES,
  { method: 'POST', path: '/v1/ops/paper_details', route: '/v1/ops/paper_details', ...json({ id: 'not an id' }), status: 400 },
  { method: 'POST', path: '/v1/ops/fetch_url', route: '/v1/ops/fetch_url', ...json({ url: 'file:///etc/passwd' }), status: 400 },
  { method: 'POST', path: '/v1/ops/youtube_transcript', route: '/v1/ops/youtube_transcript', ...json({ video: 'zzzzzzzzzzz' }), status: 404 },
  // A search whose one provider fails (PubMed is routed nowhere: the fake's 404) is still a 200: no 502 is documented.
  { method: 'POST', path: '/v1/ops/paper_search', route: '/v1/ops/paper_search', ...json({ query: 'fusion', providers: ['pubmed'] }), status: 200 },
  // Only arXiv's fake knows papers; the other lookups' upstreams answer 404 and PubMed's failure makes it a 502.
  { method: 'POST', path: '/v1/ops/paper_details', route: '/v1/ops/paper_details', ...json({ id: '10.1234/unknown' }), status: 502 },
  { method: 'POST', path: '/v1/ops/fetch_url', route: '/v1/ops/fetch_url', ...json({ url: `${UPSTREAM}/site/slow.html`, timeout_ms: 300 }), status: 504 },
  { method: 'POST', path: '/v1/ops/fetch_url', route: '/v1/ops/fetch_url', body: 'url=https://example.org', contentType: 'application/x-www-form-urlencoded', status: 415 },
];

describe('real answers fit the OpenAPI document the service serves', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let check: DocumentCheck;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const page = '<!doctype html><html><head><title>Fusion</title></head><body><article><h1>Fusion</h1><p>Reciprocal rank fusion rewards agreement.</p><p><a href="/site/more.html">more</a></p></article></body></html>';
    const xml = (body: string) => ({ kind: 'respond' as const, headers: { 'content-type': 'text/xml' }, body });
    upstream
      .json('/brave/res/v1/web/search', fixture('brave/web-search.json'))
      .json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'))
      .on('/arxiv/api/query', xml(fixture('arxiv/search.xml')))
      .json('/github/search/repositories', fixture('github/search-repositories.json'))
      .json('/youtube/youtube/v3/search', fixture('youtube/search.json'))
      .json('/youtube/youtube/v3/videos', fixture('youtube/videos.json'))
      .json('/hackernews/api/v1/search', fixture('hackernews/search.json'))
      .json(`/crossref/works/${DOI}`, fixture('crossref/work-lookup.json'))
      .json(`/semanticscholar/graph/v1/paper/DOI:${DOI}`, fixture('semanticscholar/paper-lookup.json'))
      .json(`/openalex/works/doi:${DOI}`, fixture('openalex/work-lookup.json'))
      .on('/files/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: PDF })
      .on('/site/article.html', { kind: 'respond', headers: { 'content-type': 'text/html; charset=utf-8' }, body: page })
      .on('/site/slow.html', { kind: 'hang' })
      .on('/site/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: minimalPdf({ lines: ['Reciprocal rank fusion'], title: 'Fusion' }).toString('latin1') })
      .on('/yt/watch', {
        kind: 'handler',
        handle: (recorded, response) => {
          const track = { baseUrl: `${upstream.origin}/yt/api/timedtext?lang=en`, languageCode: 'en', name: { simpleText: 'English' } };
          const captions = recorded.url.searchParams.get('v') === CAPTIONED_VIDEO ? { captions: { playerCaptionsTracklistRenderer: { captionTracks: [track] } } } : {};
          const player = { playabilityStatus: { status: 'OK' }, ...captions };
          response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></html>`);
        },
      })
      .on('/yt/api/timedtext', xml('<?xml version="1.0"?><transcript><text start="0.5" dur="2">Hello</text><text start="61" dur="3">a minute in</text></transcript>'));
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-123456',
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      YOUTUBE_WEB_BASE_URL: `${upstream.origin}/yt`,
      BODY_LIMIT_BYTES: '4096',
      // The pages and PDFs to fetch are served by the fake upstream, on loopback.
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
    check = documentOf(service);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const titled = CALLS.map((call) => [`${call.method} ${call.path}${call.body ? ` ${call.body.slice(0, 60)}` : ''}${call.headers ? ` ${JSON.stringify(call.headers)}` : ''} → ${call.status}`, call] as const);
  it.each(titled)('%s', async (_title, call) => {
    const withOrigin = (text: string | undefined) => text?.replaceAll(UPSTREAM, upstream.origin);
    const answer = await send(service.origin, { ...call, path: withOrigin(call.path)!, body: withOrigin(call.body) });
    expect(answer.status, answer.body.slice(0, 500)).toBe(call.status);
    check.expectFits(call, answer);
  });

  it('has a success of every route the document lists, so a route added is checked too', () => {
    const succeeded = new Set(CALLS.filter((call) => call.status < 300).map((call) => `${call.method} ${call.route}`));
    expect(check.routes().filter((route) => !succeeded.has(route))).toEqual([]);
  });

  it('the download is the PDF itself, as an attachment', async () => {
    const answer = await send(service.origin, { method: 'GET', path: `/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/files/paper.pdf`)}` });
    expect(answer.body).toBe(PDF);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="paper.pdf"');
  });
});

describe('with API keys and a rate limit, refusals fit the document too', () => {
  const key = 'test-key-0123456789';
  let service: RunningService;
  let check: DocumentCheck;

  beforeAll(async () => {
    service = await startService({ API_KEYS: key, RATE_LIMIT_MAX: '1', LOG_LEVEL: 'silent' });
    check = documentOf(service);
  });
  afterAll(() => service.stop());

  it('a missing key is a 401 with its challenge, the key allowed once a 200, then a 429 saying when to retry', async () => {
    const route = { method: 'GET', route: '/v1/providers' } as const;
    const refused = await send(service.origin, { ...route, path: '/v1/providers' });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="fedsearch"');
    check.expectFits(route, refused);

    const allowed = await send(service.origin, { ...route, path: '/v1/providers', headers: { 'x-api-key': key } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['x-ratelimit-limit']).toBe('1');
    check.expectFits(route, allowed);

    const limited = await send(service.origin, { ...route, path: '/v1/providers', headers: { 'x-api-key': key } });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    check.expectFits(route, limited);
  });
});

describe('shedding load, the readiness probe fits the document', () => {
  let service: RunningService;
  let check: DocumentCheck;

  beforeAll(async () => {
    // A heap limit every process is past: the service sheds load from its first pressure sample on.
    service = await startService({ PRESSURE_MAX_HEAP_BYTES: '1048576', LOG_LEVEL: 'silent' });
    check = documentOf(service);
  });
  afterAll(() => service.stop());

  it('GET /readyz → 503 in the error envelope (OVERLOADED), with Retry-After', async () => {
    await expect.poll(async () => (await request(service.origin, '/readyz')).status, { timeout: 10_000 }).toBe(503);
    const answer = await send(service.origin, { method: 'GET', path: '/readyz' });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'OVERLOADED' });
    check.expectFits({ method: 'GET', route: '/readyz' }, answer);
  });
});

/** A request's head written in two parts: the service holds its connection open, waiting for the rest. */
interface HalfSentRequest {
  route: DocumentedRoute;
  finish(): void;
  answer: Promise<Answer>;
}

/** Sends all of a GET's head but its last line break, and reads what the service answers once it is sent. */
function halfSend(origin: string, route: DocumentedRoute): HalfSentRequest {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.write(`GET ${route.route} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
  const answer = new Promise<Answer>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => {
      const headEnd = received.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = received.slice(0, headEnd).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: received.slice(headEnd + 4) });
    });
  });
  return { route, finish: () => socket.write('\r\n'), answer };
}

describe('answers given before any route handler runs fit the document too', () => {
  let service: RunningService;
  let check: DocumentCheck;

  beforeAll(async () => {
    // REQUEST_TIMEOUT_MS at its least: a body that stops arriving is answered within two seconds.
    service = await startService({ REQUEST_TIMEOUT_MS: '1000', LOG_LEVEL: 'silent' });
    check = documentOf(service);
  });
  afterAll(() => service.stop());

  it('a POST whose body stops arriving → 408 REQUEST_TIMEOUT', async () => {
    const calls = ['/v1/search/web', '/v1/ops/web_search'].map((route) => ({ method: 'POST', route, path: route, ...json({ q: 'fusion' }) }) as const);
    const answers = await Promise.all(calls.map((call) => send(service.origin, call, { cutBody: true })));
    calls.forEach((call, index) => {
      const answer = answers[index]!;
      expect(answer.status, answer.body).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      check.expectFits(call, answer);
    });
  });

  // Node refuses these before any route: every path can meet them, and each operation lists them as its "4XX".
  it('what Node refuses before any route → 417 for an unmet Expect, 431 for headers too large, 408 for a GET whose head stops', async () => {
    const search = { method: 'POST', route: '/v1/search/web' } as const;
    const expectation = await send(service.origin, { ...search, path: search.route, ...json({ q: 'fusion' }), headers: { expect: 'something-else' } });
    expect(expectation.status, expectation.body).toBe(417);
    const providers = { method: 'GET', route: '/v1/providers' } as const;
    const oversized = await send(service.origin, { ...providers, path: providers.route, headers: { 'x-padding': 'p'.repeat(20_000) } });
    expect(oversized.status, oversized.body).toBe(431);
    // Its head never ends: the service answers once REQUEST_TIMEOUT_MS has passed.
    const slow = await halfSend(service.origin, providers).answer;
    expect(slow.status, slow.body).toBe(408);
    for (const [route, answer] of [[search, expectation], [providers, oversized], [providers, slow]] as const) {
      expect(JSON.parse(answer.body)).toMatchObject({ code: answer.status === 408 ? 'REQUEST_TIMEOUT' : 'QUERY_INVALID' });
      check.expectFits(route, answer);
    }
  });

  it('every route asked while the service closes → 503 SHUTTING_DOWN, the probes too', async () => {
    const routes: DocumentedRoute[] = ['/healthz', '/readyz', '/v1/providers'].map((route) => ({ method: 'GET', route }));
    const requests = routes.map((route) => halfSend(service.origin, route));
    // Each connection is open and its request still arriving when the close begins, so none is closed as idle.
    await expect.poll(() => new Promise<number>((resolve, reject) => service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))))).toBe(routes.length);
    const stopped = service.stop();
    await expect.poll(() => service.app.readiness.ready).toBe(false);
    for (const sent of requests) sent.finish();
    for (const sent of requests) {
      const answer = await sent.answer;
      expect(answer.status, `${sent.route.route}: ${answer.body}`).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'SHUTTING_DOWN' });
      check.expectFits(sent.route, answer);
    }
    await stopped;
  });
});
