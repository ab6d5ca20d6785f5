import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const KEY = 'fs-live-key-aaaaaaaaaaaaaaaa';
const FILE_KEY = 'fs-file-key-bbbbbbbbbbbbbbbb';

describe('CORS without CORS_ORIGINS', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({});
  });
  afterAll(() => service.stop());

  it('allows no origin: no CORS header on an answer, and a preflight is refused as a method the route does not take', async () => {
    const answer = await request(service.origin, '/v1/providers', { headers: { origin: 'https://app.example' } });
    expect(answer.status).toBe(200);
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const preflight = await request(service.origin, '/v1/search/web', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, POST');
    expect([...preflight.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('API keys', () => {
  let service: RunningService;
  let folder: string | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-keys-'));
    const keysFile = path.join(folder, 'keys');
    writeFileSync(keysFile, `# one key per line\n${FILE_KEY}\n`);
    service = await startService({ API_KEYS: `${KEY},other-key-cccccccc`, API_KEYS_FILE: keysFile });
  });
  afterAll(async () => {
    await service?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const search = (headers: Record<string, string>) => request(service.origin, '/v1/search/web?q=provider&providers=local', { headers });

  it('refuses a request without a key with 401 and a bare WWW-Authenticate challenge (RFC 6750 section 3.1: no error code)', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }] as Array<Record<string, string>>) {
      const response = await search(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="fedsearch"');
      expect((await response.json()).message).toContain('Authorization: Bearer <key>');
    }
  });

  it('refuses a wrong key with 401 and an invalid_token challenge', async () => {
    for (const headers of [{ authorization: 'Bearer not-the-key' }, { 'x-api-key': 'not-the-key' }] as Array<Record<string, string>>) {
      const response = await search(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="fedsearch", error="invalid_token", error_description="the API key is not valid"');
      expect((await response.json()).message).toBe('the API key is not valid');
    }
  });

  it('accepts a key as Bearer, as X-API-Key, and from the keys file', async () => {
    expect((await search({ authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await search({ 'x-api-key': KEY })).status).toBe(200);
    expect((await search({ authorization: `Bearer ${FILE_KEY}` })).status).toBe(200);
  });

  it('guards the operation routes and both MCP transports too', async () => {
    const operation = await request(service.origin, '/v1/ops/list_providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(operation.status).toBe(401);
    expect((await request(service.origin, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await request(service.origin, '/sse')).status).toBe(401);
  });

  it('keeps health probes and docs open', async () => {
    expect((await request(service.origin, '/healthz')).status).toBe(200);
    expect((await request(service.origin, '/readyz')).status).toBe(200);
    expect((await request(service.origin, '/openapi.json')).status).toBe(200);
  });

  it('guards /metrics with the API keys when it has no token of its own', async () => {
    const refused = await request(service.origin, '/metrics');
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain('fedsearch_');
    const scraped = await request(service.origin, '/metrics', { headers: { authorization: `Bearer ${KEY}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('fedsearch_');
  });

  it('never logs a key', () => {
    const logs = service.logs.join('\n');
    expect(logs).not.toContain(KEY);
    expect(logs).not.toContain(FILE_KEY);
  });
});

describe('rate limits and protective headers', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000', API_KEYS: `${KEY},${FILE_KEY}`, CORS_ORIGINS: 'https://app.example/' });
  });
  afterAll(() => service.stop());

  const search = (key: string) => request(service.origin, '/v1/search/web?q=provider&providers=local', { headers: { 'x-api-key': key } });

  it('allows RATE_LIMIT_MAX requests per key per window, then 429 with Retry-After', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await search(KEY)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await search(KEY);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await limited.json();
    expect(body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(body.message).toContain('at most 3 requests per 60 s');
    // The wait as a number too, as every refusal that asks for one gives it: Retry-After is its seconds, rounded up.
    expect(Number.isInteger(body.retry_after_ms)).toBe(true);
    expect(body.retry_after_ms).toBeGreaterThan(0);
    expect(body.retry_after_ms).toBeLessThanOrEqual(60_000);
    expect(Math.ceil(body.retry_after_ms / 1000)).toBe(Number(limited.headers.get('retry-after')));
    // And in words, the header's own, with its number: one advice, said one way.
    expect(body.message).toMatch(new RegExp(`; retry after ${limited.headers.get('retry-after')} s$`));
    // Another key has its own budget; probes are never limited.
    expect((await search(FILE_KEY)).status).toBe(200);
    expect((await request(service.origin, '/healthz')).status).toBe(200);
  });

  it('sends helmet headers and CORS for the configured origin only', async () => {
    const allowed = await request(service.origin, '/healthz', { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await request(service.origin, '/healthz', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from the configured origin, and not one from another', async () => {
    const preflight = (origin: string) =>
      request(service.origin, '/v1/search/web', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects a body over the size limit with 413', async () => {
    const response = await request(service.origin, '/v1/search/web', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': FILE_KEY },
      body: JSON.stringify({ q: 'x'.repeat(300 * 1024) }),
    });
    expect(response.status).toBe(413);
  });
});

describe('requests the HTTP parser rejects', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('answers a malformed request line with the JSON error shape and closes the connection', async () => {
    const { connect } = await import('node:net');
    const { port } = new URL(service.origin);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /v1/search/web?q=\u00ff\u0001 HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(raw).toContain('Connection: close');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 400, code: 'QUERY_INVALID' });
  });
});

describe('load shedding', () => {
  let service: RunningService;
  beforeAll(async () => {
    // A heap ceiling every process exceeds (the least allowed, 1 MiB): the service is "under pressure" from its first sample on.
    service = await startService({ PRESSURE_MAX_HEAP_BYTES: '1048576', LOG_LEVEL: 'info' });
  });
  afterAll(() => service.stop());

  it('answers 503 OVERLOADED, saying which limit and when to retry, instead of slowing everyone down', async () => {
    await expect.poll(async () => (await request(service.origin, '/v1/providers')).status, { timeout: 10_000 }).toBe(503);
    const response = await request(service.origin, '/v1/providers');
    expect(response.headers.get('retry-after')).toBe('10');
    const id = response.headers.get('x-request-id');
    expect(await response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'OVERLOADED',
      message: 'the service is overloaded (its heap in use is past its limit) and turns requests away for now; retry after 10 s',
      retry_after_ms: 10_000,
      request_id: id,
    });
  });

  it('still answers the liveness probe, and sheds readiness: a busy replica gets no traffic but is not restarted', async () => {
    await expect.poll(async () => (await request(service.origin, '/readyz')).status, { timeout: 10_000 }).toBe(503);
    expect(await (await request(service.origin, '/readyz')).json()).toMatchObject({ code: 'OVERLOADED' });
    const live = await request(service.origin, '/healthz');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
  });

  it('logs a request turned away as a rejection, not as a failure with a stack', async () => {
    const response = await request(service.origin, '/v1/providers');
    expect(response.status).toBe(503);
    const id = response.headers.get('x-request-id');
    const lines = service.logs.map((line) => JSON.parse(line) as { reqId?: string; level: number; msg?: string; code?: string; err?: unknown });
    const own = lines.filter((line) => line.reqId === id && line.msg !== 'incoming request' && line.msg !== 'request completed');
    expect(own).toEqual([expect.objectContaining({ level: 30, msg: 'request rejected', code: 'OVERLOADED' })]);
    expect(own[0]).not.toHaveProperty('err');
  });
});
