import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
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
  status: number;
}

const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: 'application/json' });

/**
 * Real answers of every REST route, successes and errors, checked against the OpenAPI document the service
 * serves: the status must be documented for the route, under the media type the answer was sent as, and the
 * JSON must fit the schema documented there (Ajv reads the document itself, $refs and all). This is the
 * contract a client generated from the document relies on, checked by a validator that is not zod.
 */
const CALLS: Call[] = [
  { method: 'GET', path: '/v1/search/web?q=fusion&providers=brave,wikipedia&explain=true', route: '/v1/search/web', status: 200 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'fusion', providers: ['arxiv'], explain: true }), status: 200 },
  { method: 'GET', path: '/v1/search/web?q=', route: '/v1/search/web', status: 400 },
  { method: 'POST', path: '/v1/search/web', route: '/v1/search/web', body: '{"q":"fusion"}', contentType: 'text/plain', status: 415 },
  { method: 'POST', path: '/v1/search/papers', route: '/v1/search/papers', ...json({ q: 'x'.repeat(5000) }), status: 413 },
  { method: 'GET', path: '/v1/search/papers/stream?q=fusion&limit=0', route: '/v1/search/papers/stream', status: 400 },
  { method: 'GET', path: '/v1/providers', route: '/v1/providers', status: 200 },
  { method: 'GET', path: '/v1/providers?kind=web', route: '/v1/providers', status: 400 },
  { method: 'GET', path: '/healthz', route: '/healthz', status: 200 },
  { method: 'GET', path: '/readyz', route: '/readyz', status: 200 },
  { method: 'GET', path: '/v1/papers/download?id=', route: '/v1/papers/download', status: 400 },
  { method: 'GET', path: '/v1/papers/download?id=10.1/a&url=https://example.org/a.pdf', route: '/v1/papers/download', status: 400 },
  { method: 'POST', path: '/v1/ops/web_search', route: '/v1/ops/web_search', ...json({ query: 'fusion', providers: ['brave'] }), status: 200 },
  { method: 'POST', path: '/v1/ops/paper_search', route: '/v1/ops/paper_search', ...json({ query: 'fusion', providers: ['arxiv'] }), status: 200 },
  { method: 'POST', path: '/v1/ops/list_operations', route: '/v1/ops/list_operations', ...json({}), status: 200 },
  { method: 'POST', path: '/v1/ops/list_providers', route: '/v1/ops/list_providers', ...json({ kind: 'papers' }), status: 200 },
  { method: 'POST', path: '/v1/ops/paper_details', route: '/v1/ops/paper_details', ...json({ id: 'not an id' }), status: 400 },
  { method: 'POST', path: '/v1/ops/fetch_url', route: '/v1/ops/fetch_url', body: 'url=https://example.org', contentType: 'application/x-www-form-urlencoded', status: 415 },
];

describe('real answers fit the OpenAPI document the service serves', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let ajv: Ajv;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/brave/res/v1/web/search', fixture('brave/web-search.json'))
      .json('/wikipedia/w/api.php', fixture('wikipedia/list-search.json'))
      .on('/arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: fixture('arxiv/search.xml') });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-123456', BODY_LIMIT_BYTES: '4096', LOG_LEVEL: 'silent' });
    const document = await (await request(service.origin, '/openapi.json')).json();
    // OpenAPI 3.0 schemas carry keywords JSON Schema does not know (nullable is Ajv's own option, example is not).
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(document, 'openapi');
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it.each(CALLS)('$method $path → $status', async (call) => {
    const response = await request(service.origin, call.path, {
      method: call.method,
      ...(call.body === undefined ? {} : { body: call.body, headers: { 'content-type': call.contentType ?? 'application/json' } }),
    });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(call.status);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0];
    const responsePointer = `openapi#/paths/${token(call.route)}/${call.method.toLowerCase()}/responses/${call.status}`;
    expect(ajv.getSchema(responsePointer), `${call.status} is documented for ${call.method} ${call.route}`).toBeDefined();
    const schemaPointer = `${responsePointer}/content/${token(mediaType ?? '')}/schema`;
    const validate = ajv.getSchema(schemaPointer);
    expect(validate, `${call.status} of ${call.method} ${call.route} is documented as ${mediaType}`).toBeDefined();
    validate?.(answer);
    expect(validate?.errors ?? []).toEqual([]);
  });
});
