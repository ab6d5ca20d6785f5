import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations/registry.js';
import { generateOpenApi } from '../../scripts/generate-openapi.js';
import { request, startService, type RunningService } from '../support/service.js';

const committedText = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
const committed = JSON.parse(committedText);

interface DocumentedOperation {
  operationId?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  parameters?: Array<{ name: string; schema: { default?: unknown } }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}

/** A schema as written, or the shared schema it refers to. */
function namedOrInline(schema: { $ref?: string; type?: string; properties?: Record<string, unknown> }): { type?: string; properties?: Record<string, unknown> } {
  const name = schema.$ref?.replace('#/components/schemas/', '');
  return name === undefined ? schema : committed.components.schemas[name];
}

/** Every object schema with fields inside `value` (itself included), each with where it is. */
function objectSchemasIn(value: unknown, where: string): Array<{ where: string; schema: Record<string, unknown> }> {
  if (typeof value !== 'object' || value === null) return [];
  const inside = Object.entries(value).flatMap(([key, member]) => objectSchemasIn(member, `${where}/${key}`));
  const schema = value as Record<string, unknown>;
  return schema.type === 'object' && typeof schema.properties === 'object' ? [{ where, schema }, ...inside] : inside;
}

/** Every (path, method, operation) of an OpenAPI document. */
function operationsOf(document: { paths: Record<string, Record<string, DocumentedOperation>> }): Array<[string, string, DocumentedOperation]> {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, entry]) => [path, method, entry] as [string, string, DocumentedOperation]));
}

describe('OpenAPI document', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('committed openapi/openapi.json is what the running service serves (run `npm run openapi` after changing routes)', async () => {
    const served = await (await fetch(`${service.origin}/openapi.json`)).json();
    expect(served).toEqual(committed);
  });

  it('committed openapi/openapi.json is, byte for byte, what `npm run openapi` writes now', async () => {
    expect(await generateOpenApi()).toBe(committedText);
  });

  it('documents every search route and operation with its parameters', () => {
    expect(Object.keys(committed.paths)).toEqual(
      expect.arrayContaining(['/v1/search/web', '/v1/search/papers', '/v1/providers', '/v1/ops/web_search', '/healthz', '/readyz']),
    );
    const parameters = committed.paths['/v1/search/web'].get.parameters.map((parameter: { name: string }) => parameter.name);
    const filters = { web: ['time_range', 'language', 'include_domains', 'exclude_domains', 'safesearch'], papers: ['year_from', 'year_to', 'open_access'] };
    expect(parameters).toEqual(['q', 'providers', 'limit', 'timeout_ms', 'page', 'explain', ...filters.web]);
    const paperParameters = committed.paths['/v1/search/papers/stream'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(paperParameters).toEqual(['q', 'providers', 'limit', 'timeout_ms', 'page', 'explain', ...filters.papers]);
  });

  it('gives every route a unique operationId, the operation name for /v1/ops/*', () => {
    const ids = operationsOf(committed).map(([path, method, entry]) => {
      expect(entry.operationId, `${method} ${path}`).toEqual(expect.any(String));
      return entry.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of OPERATIONS) {
      expect(committed.paths[`/v1/ops/${operation.name}`].post.operationId).toBe(operation.name);
    }
  });

  it('fills each operation\'s request body with the registry\'s example, so Swagger UI pre-fills a working call', () => {
    for (const operation of OPERATIONS) {
      const body = committed.paths[`/v1/ops/${operation.name}`].post.requestBody.content['application/json'];
      expect(body.example, operation.name).toEqual(operation.example);
      expect(body.schema.type).toBe('object');
    }
    // The example is data, not prose in the description.
    expect(JSON.stringify(committed)).not.toContain('Example body:');
  });

  it('gives examples and parameter defaults that fit their own schemas, so the call Swagger UI pre-fills is not refused', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, formats: { uri: true } });
    ajv.addSchema(committed, 'openapi');
    let checked = 0;
    for (const [path, method, entry] of operationsOf(committed)) {
      const pointer = `openapi#/paths/${path.replace(/\//g, '~1')}/${method}`;
      const body = entry.requestBody?.content['application/json'];
      if (body?.example !== undefined) {
        const validate = ajv.getSchema(`${pointer}/requestBody/content/application~1json/schema`);
        expect(validate?.(body.example), `${method} ${path} example: ${JSON.stringify(validate?.errors)}`).toBe(true);
        checked += 1;
      }
      for (const [index, parameter] of (entry.parameters ?? []).entries()) {
        if (parameter.schema.default === undefined) continue;
        const validate = ajv.getSchema(`${pointer}/parameters/${index}/schema`);
        expect(validate?.(parameter.schema.default), `${method} ${path} ${parameter.name} default`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(OPERATIONS.length);
  });

  it('documents the 200 answer of every operation with a schema of its fields', () => {
    const answerOf = (name: string) => namedOrInline(committed.paths[`/v1/ops/${name}`].post.responses['200'].content['application/json'].schema);
    for (const operation of OPERATIONS) {
      const ok = committed.paths[`/v1/ops/${operation.name}`].post.responses['200'];
      expect(ok.description, operation.name).toMatch(/\w/);
      expect(answerOf(operation.name), operation.name).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
    const answerFields = (name: string) => Object.keys(answerOf(name).properties ?? {});
    expect(answerFields('web_search')).toEqual(expect.arrayContaining(['query', 'results', 'providers', 'took_ms', 'cached']));
    expect(answerFields('fetch_url')).toEqual(expect.arrayContaining(['final_url', 'text', 'next_offset', 'links']));
    expect(answerFields('youtube_transcript')).toEqual(expect.arrayContaining(['video_id', 'language', 'text', 'timestamps']));
    expect(answerFields('list_providers')).toEqual(['providers']);
  });

  describe('names each answer shape that several routes share once, so a generated client has one type of it', () => {
    const answers = () =>
      operationsOf(committed).flatMap(([path, method, entry]) =>
        Object.entries(entry.responses).flatMap(([status, response]) => objectSchemasIn(response.content, `${method} ${path} ${status}`)),
      );

    it('writes no answer shape out twice: each appears in one place, and is referred to everywhere else', () => {
      const shared = Object.entries(committed.components.schemas).flatMap(([name, schema]) => objectSchemasIn(schema, `components.schemas.${name}`));
      const placesOf = new Map<string, string[]>();
      for (const { where, schema } of [...answers(), ...shared]) {
        const shape = JSON.stringify(schema);
        placesOf.set(shape, [...(placesOf.get(shape) ?? []), where]);
      }
      const repeated = [...placesOf.values()].filter((places) => places.length > 1);
      expect(repeated).toEqual([]);
      // The walk did see the answers' fields: the shapes below each lie somewhere in it.
      expect(answers().length + shared.length).toBeGreaterThan(OPERATIONS.length);
    });

    it('refers to the search answer, its results and provider outcomes by name on every route that returns them', () => {
      const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
      const okSchema = (path: string, method: string) => committed.paths[path][method].responses['200'].content['application/json'].schema;
      for (const path of ['/v1/search/web', '/v1/search/papers']) {
        for (const method of ['get', 'post']) expect(okSchema(path, method), `${method} ${path}`).toEqual(ref('SearchResponse'));
      }
      for (const name of ['web_search', 'paper_search', 'github_search']) expect(okSchema(`/v1/ops/${name}`, 'post'), name).toEqual(ref('SearchResponse'));
      const { SearchResponse, SearchResult, ProviderItem } = committed.components.schemas;
      expect(SearchResponse.properties.results.items).toEqual(ref('SearchResult'));
      expect(SearchResponse.properties.providers.items).toEqual(ref('ProviderOutcome'));
      expect(SearchResult.properties).toMatchObject({ title: { type: 'string' }, score: { type: 'number' } });
      expect(ProviderItem.required).toEqual(['title', 'url']);
      // An optional shared shape is the reference itself, not an allOf of it alone (which linters flag).
      expect(okSchema('/v1/ops/paper_read', 'post').properties.paper).toEqual(ref('SearchResult'));
      expect(okSchema('/v1/ops/youtube_video_details', 'post').properties.videos.items).toEqual(ref('ProviderItem'));
      expect(committedText).not.toContain('"allOf"');
    });
  });

  it('documents the error answers of every operation with the shared error envelope', () => {
    expect(committed.components.schemas.ErrorEnvelope.properties).toEqual(
      expect.objectContaining({ statusCode: expect.any(Object), code: expect.any(Object), message: expect.any(Object), request_id: expect.any(Object) }),
    );
    for (const operation of OPERATIONS) {
      const responses = committed.paths[`/v1/ops/${operation.name}`].post.responses;
      for (const [status, response] of Object.entries(responses).filter(([status]) => status !== '200' && status !== '4XX')) {
        expect(response, `${operation.name} ${status}`).toMatchObject({
          description: expect.stringMatching(/\w/),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        });
      }
      // Bad parameters, a body too slow, too large or not JSON, a fault: any operation may meet each.
      expect(Object.keys(responses), operation.name).toEqual(expect.arrayContaining(['400', '408', '413', '415', '500']));
    }
  });

  describe('documents per operation only the errors it can answer', () => {
    let served: { paths: Record<string, { post: DocumentedOperation }> };
    beforeAll(async () => {
      served = await (await request(service.origin, '/openapi.json')).json();
    });
    const statusesOf = (name: string) => Object.keys(served.paths[`/v1/ops/${name}`]!.post.responses);

    it('a closed-world operation (a catalogue) asks nothing outside the service: no 502 or 504, and no 404', () => {
      const closed = OPERATIONS.filter((operation) => operation.closedWorld === true).map((operation) => operation.name);
      expect(closed).toEqual(expect.arrayContaining(['list_operations', 'list_providers']));
      for (const name of closed) expect(statusesOf(name), name).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(404|502|504)$/)]));
    });

    it('a search or a research tells each provider\'s failure in its 200: no 502 or 504, and finding nothing is no 404', () => {
      for (const name of ['web_search', 'paper_search', 'github_search', 'wikipedia_search', 'company_research', 'auto_research']) {
        expect(statusesOf(name), name).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(404|502|504)$/)]));
        expect(statusesOf(name), name).toEqual(expect.arrayContaining(['400', '503']));
      }
    });

    it('a lookup documents its 404 saying when, and the 502 and 504 of the upstream it asks', () => {
      for (const name of ['paper_details', 'paper_read', 'youtube_transcript', 'fetch_url']) {
        expect(statusesOf(name), name).toEqual(expect.arrayContaining(['404', '502', '503', '504']));
      }
      expect(served.paths['/v1/ops/youtube_transcript']!.post.responses['404']!.description).toContain('no captions');
      // Video details list the ids YouTube does not know apart: nothing it asks for is a 404.
      expect(statusesOf('youtube_video_details')).toEqual(expect.arrayContaining(['502', '504']));
      expect(statusesOf('youtube_video_details')).not.toContain('404');
    });
  });

  it("documents the refusals the service's own hooks can answer any route with", () => {
    const probes = ['/healthz', '/readyz'];
    for (const [path, method, entry] of operationsOf(committed)) {
      const statuses = Object.keys(entry.responses);
      // The Host check comes before everything, the probes included.
      expect(statuses, `${method} ${path}`).toContain('403');
      if (probes.includes(path)) continue;
      // No key, too many requests, a fault of the service's own, load shed: any route but a probe may meet each.
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429', '500', '503']));
    }
  });

  it('never says "Default Response": every response says what it means', () => {
    for (const [path, method, entry] of operationsOf(committed)) {
      for (const [status, response] of Object.entries(entry.responses)) {
        expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it("states the service's licence, as package.json does, for the client package a generator writes", () => {
    const { license } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { license: string };
    expect(committed.info.license).toEqual(expect.objectContaining({ name: license }));
  });

  it('documents both ways to send an API key, so Swagger UI shows its Authorize button', () => {
    expect(committed.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    // Without API_KEYS nothing requires a key, and the document says so.
    expect(committed.security).toBeUndefined();
  });

  it('with API keys configured, requires a key of every route but the probes, as the service does', async () => {
    const guarded = await startService({ API_KEYS: 'doc-key-0123456789', LOG_LEVEL: 'silent' });
    try {
      const document = await (await request(guarded.origin, '/openapi.json')).json();
      expect(document.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      expect(document.paths['/healthz'].get.security).toEqual([]);
      expect(document.paths['/readyz'].get.security).toEqual([]);
      // What the document promises: the probe answers without a key, an operation does not.
      expect((await request(guarded.origin, '/healthz')).status).toBe(200);
      expect((await request(guarded.origin, '/v1/ops/list_operations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
      expect(
        (await request(guarded.origin, '/v1/ops/list_operations', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'doc-key-0123456789' }, body: '{}' }))
          .status,
      ).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});
