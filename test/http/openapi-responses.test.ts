import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** A JSON pointer token: "/v1/search/web" as "~1v1~1search~1web". */
const token = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** The path as the document lists it (without the query string). */
  route: string;
  body?: string;
  contentType?: string;
  /** Request headers; Host among them (fetch would not send a Host of the test's choice). */
  headers?: Record<string, string>;
  status: number;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });

/** The PDF the fake upstream serves for the download route: what content sniffing recognises as one. */
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

/**
 * Real answers of every REST route, successes and errors, checked against the OpenAPI document the service
 * serves: the status must be documented for the route, under the media type the answer was sent as (or with no
 * content, for an answer without a body), the JSON must fit the schema documented there (Ajv reads the document
 * itself, $refs and all), and every header a client reads must be documented with a schema its value fits.
 * This is the contract a client generated from the document relies on, checked by a validator that is not zod.
 */
const CALLS: Call[] = [
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=brave,wikipedia&explain=true', route: '/v1/search/web', status: 200 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'fusion', providers: ['arxiv'], explain: true }), status: 200 },
  { method: 'GET', path: '/v1/search/web?q=', route: '/v1/search/web', status: 400 },
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=nope', route: '/v1/search/web', status: 400 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', body: '{"q":"fusion"}', contentType: 'text/plain', status: 415 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'x'.repeat(5000) }), status: 413 },
  { method: 'GET', path: '/v1/search/web/stream?q=fusion&providers=brave', route: '/v1/search/web/stream', status: 200 },
  // An EventSource reconnecting after its stream ended: no body, so the document must promise none.
  { method: 'GET', path: '/v1/search/web/stream?q=fusion', route: '/v1/search/web/stream', headers: { 'last-event-id': 'end' }, status: 204 },
  { method: 'GET', path: '/v1/search/papers/stream?q=fusion&limit=0', route: '/v1/search/papers/stream', status: 400 },
  { method: 'GET', path: '/v1/providers', route: '/v1/providers', status: 200 },
  { method: 'GET', path: '/v1/providers?kind=web', route: '/v1/providers', status: 400 },
  { method: 'GET', path: '/v1/providers', route: '/v1/providers', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: '/healthz', route: '/healthz', status: 200 },
  { method: 'GET', path: '/readyz', route: '/readyz', status: 200 },
  // The Host check refuses a name it does not admit before any route, the probes' too.
  { method: 'GET', path: '/healthz', route: '/healthz', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: '/readyz', route: '/readyz', headers: { host: 'unlisted.example' }, status: 403 },
  { method: 'GET', path: '/v1/papers/download?id=', route: '/v1/papers/download', status: 400 },
  { method: 'GET', path: '/v1/papers/download?id=10.1/a&url=https://example.org/a.pdf', route: '/v1/papers/download', status: 400 },
  { method: 'POST', path: '/v1/ops/web_search', route: '/v1/ops/web_search', ...json({ query: 'fusion', providers: ['brave'] }), status: 200 },
  { method: 'POST', path: '/v1/ops/paper_search', route: '/v1/ops/paper_search', ...json({ query: 'fusion', providers: ['arxiv'] }), status: 200 },
  { method: 'POST', path: '/v1/ops/list_operations', route: '/v1/ops/list_operations', ...json({}), status: 200 },
  { method: 'POST', path: '/v1/ops/list_providers', route: '/v1/ops/list_providers', ...json({ kind: 'papers' }), status: 200 },
  { method: 'POST', path: '/v1/ops/paper_details', route: '/v1/ops/paper_details', ...json({ id: 'not an id' }), status: 400 },
  // Only arXiv's fake knows papers; the other lookups' upstreams answer 404 and PubMed's failure makes it a 502.
  { method: 'POST', path: '/v1/ops/paper_details', route: '/v1/ops/paper_details', ...json({ id: '10.1234/unknown' }), status: 502 },
  { method: 'POST', path: '/v1/ops/fetch_url', route: '/v1/ops/fetch_url', body: 'url=https://example.org', contentType: 'application/x-www-form-urlencoded', status: 415 },
];

/** One request, with any Host header the call names; the whole answer, body as text. */
function send(origin: string, call: Pick<Call, 'method' | 'path' | 'body' | 'contentType' | 'headers'>): Promise<Answer> {
  const url = new URL(call.path, origin);
  const headers = { ...(call.body === undefined ? {} : { 'content-type': call.contentType ?? 'application/json' }), ...call.headers };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: call.method, headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('latin1');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}

/** Headers a generated client reads: what the service's own hooks send, and the download's and stream's. */
const CLIENT_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'www-authenticate',
  'content-disposition',
  'cache-control',
];

interface DocumentedHeader {
  required?: boolean;
  schema: Record<string, unknown>;
}

/** Checks one real answer against the document: status, media type and JSON schema, headers. */
class DocumentCheck {
  // A PDF's body is documented as format: binary, which says how to read it, not what to check.
  private readonly ajv = new Ajv({ strict: false, allErrors: true, formats: { binary: true } });

  constructor(private readonly document: { components: { headers?: Record<string, DocumentedHeader> } }) {
    // OpenAPI 3.0 schemas carry keywords JSON Schema does not know (nullable is Ajv's own option, example is not).
    this.ajv.addSchema(document, 'openapi');
  }

  expectFits(call: Pick<Call, 'method' | 'route'>, answer: Answer): void {
    const responsePointer = `openapi#/paths/${token(call.route)}/${call.method.toLowerCase()}/responses/${answer.status}`;
    const documented = this.ajv.getSchema(responsePointer)?.schema as { content?: Record<string, unknown>; headers?: Record<string, DocumentedHeader | { $ref: string }> } | undefined;
    expect(documented, `${answer.status} is documented for ${call.method} ${call.route}`).toBeDefined();
    this.expectBodyFits(call, answer, responsePointer, documented?.content);
    this.expectHeadersFit(call, answer, documented?.headers ?? {});
  }

  private expectBodyFits(call: Pick<Call, 'method' | 'route'>, answer: Answer, responsePointer: string, content: Record<string, unknown> | undefined): void {
    if (answer.body === '') {
      // A client generated from the document tries to parse whatever content it promises.
      expect(content, `${answer.status} of ${call.method} ${call.route} has no body, and is documented with none`).toBeUndefined();
      return;
    }
    const mediaType = String(answer.headers['content-type'] ?? '').split(';')[0] ?? '';
    const validate = this.ajv.getSchema(`${responsePointer}/content/${token(mediaType)}/schema`);
    expect(validate, `${answer.status} of ${call.method} ${call.route} is documented as ${mediaType}`).toBeDefined();
    if (mediaType !== 'application/json') return;
    validate?.(JSON.parse(answer.body));
    expect(validate?.errors ?? []).toEqual([]);
  }

  private expectHeadersFit(call: Pick<Call, 'method' | 'route'>, answer: Answer, headers: Record<string, DocumentedHeader | { $ref: string }>): void {
    const documented = new Map(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), this.resolved(header)]));
    const where = `${answer.status} of ${call.method} ${call.route}`;
    for (const name of CLIENT_HEADERS) {
      const value = answer.headers[name];
      if (value === undefined) continue;
      const header = documented.get(name);
      expect(header, `${where} sends ${name}, and documents it`).toBeDefined();
      const text = String(value);
      const validate = this.ajv.compile(header?.schema ?? {});
      validate(header?.schema.type === 'integer' && /^\d+$/.test(text) ? Number(text) : text);
      expect(validate.errors ?? [], `${where}: ${name}: ${text}`).toEqual([]);
    }
    for (const [name, header] of documented) {
      if (header.required) expect(answer.headers[name], `${where} documents ${name} as always sent`).toBeDefined();
    }
  }

  private resolved(header: DocumentedHeader | { $ref: string }): DocumentedHeader {
    if (!('$ref' in header)) return header;
    const name = header.$ref.replace('#/components/headers/', '');
    const target = this.document.components.headers?.[name];
    expect(target, header.$ref).toBeDefined();
    return target as DocumentedHeader;
  }
}

/** The document GET /openapi.json serves (openapi.test.ts holds them equal), read without a request the service might shed. */
function documentOf(service: RunningService): DocumentCheck {
  return new DocumentCheck(JSON.parse(JSON.stringify(service.app.swagger())));
}

describe('real answers fit the OpenAPI document the service serves', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let check: DocumentCheck;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/brave/res/v1/web/search', fixture('brave/web-search.json'))
      .json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'))
      .on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: fixture('arxiv/search.xml') })
      .on('/files/paper.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: PDF });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-123456',
      BODY_LIMIT_BYTES: '4096',
      // The download's PDF is served by the fake upstream, on loopback.
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
    check = documentOf(service);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const titled = CALLS.map((call) => [`${call.method} ${call.path}${call.headers ? ` ${JSON.stringify(call.headers)}` : ''} → ${call.status}`, call] as const);
  it.each(titled)('%s', async (_title, call) => {
    const answer = await send(service.origin, call);
    expect(answer.status, answer.body.slice(0, 500)).toBe(call.status);
    check.expectFits(call, answer);
  });

  it('GET /v1/papers/download?url=… → 200, the PDF as an attachment', async () => {
    const call = { method: 'GET', path: `/v1/papers/download?url=${encodeURIComponent(`${upstream.origin}/files/paper.pdf`)}`, route: '/v1/papers/download' } as const;
    const answer = await send(service.origin, call);
    expect(answer.status, answer.body.slice(0, 500)).toBe(200);
    expect(answer.body).toBe(PDF);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="paper.pdf"');
    check.expectFits(call, answer);
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
