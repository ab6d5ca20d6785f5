import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';

/** One answer as sent: undici's request() leaves the body coded, unlike fetch, and sends no Accept-Encoding of its own. */
async function raw(origin: string, path: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET', body?: string) {
  const response = await undiciRequest(`${origin}${path}`, { method, headers, body });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return { status: response.statusCode, header, bytes };
}

function decoded(bytes: Buffer, encoding: string | undefined): string {
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

// The embedded index answers this with several documents: an answer well over the 1 KiB below which nothing is compressed.
const SEARCH = '/v1/search/web?q=provider&providers=local';

describe('compressed answers', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('sends a search answer gzip-coded to a client that accepts gzip, the same answer once decoded', async () => {
    const plain = await raw(service.origin, SEARCH);
    const gzipped = await raw(service.origin, SEARCH, { 'accept-encoding': 'gzip' });
    expect(plain.header('content-encoding')).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(gzipped.status).toBe(200);
    expect(gzipped.header('content-encoding')).toBe('gzip');
    expect(gzipped.header('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(decoded(gzipped.bytes, 'gzip')).results).toEqual(JSON.parse(plain.bytes.toString('utf8')).results);
  });

  it('prefers gzip when the client takes both, gives brotli to one that takes only it, and honours q=0 and identity', async () => {
    const both = await raw(service.origin, SEARCH, { 'accept-encoding': 'br, gzip, deflate' });
    expect(both.header('content-encoding')).toBe('gzip');
    const brotli = await raw(service.origin, SEARCH, { 'accept-encoding': 'br' });
    expect(brotli.header('content-encoding')).toBe('br');
    expect(JSON.parse(decoded(brotli.bytes, 'br')).query).toBe('provider');
    const rather = await raw(service.origin, SEARCH, { 'accept-encoding': 'gzip;q=0.5, br' });
    expect(rather.header('content-encoding')).toBe('br');
    const refused = await raw(service.origin, SEARCH, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.header('content-encoding')).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString('utf8')).query).toBe('provider');
    const identity = await raw(service.origin, SEARCH, { 'accept-encoding': 'identity' });
    expect(identity.header('content-encoding')).toBeUndefined();
  });

  it('compresses a POSTed search and the page scripts, but not an answer under 1 KiB', async () => {
    const posted = await raw(service.origin, '/v1/search/web', { 'accept-encoding': 'gzip', 'content-type': 'application/json' }, 'POST', JSON.stringify({ q: 'provider', providers: 'local' }));
    expect(posted.header('content-encoding')).toBe('gzip');
    expect(JSON.parse(decoded(posted.bytes, 'gzip')).kind).toBe('web');
    const script = await raw(service.origin, '/web/app.js', { 'accept-encoding': 'gzip' });
    expect(script.status).toBe(200);
    expect(script.header('content-encoding')).toBe('gzip');
    expect(decoded(script.bytes, 'gzip')).toContain('import');
    const health = await raw(service.origin, '/healthz', { 'accept-encoding': 'gzip' });
    expect(health.status).toBe(200);
    expect(health.bytes.length).toBeLessThan(1024);
    expect(health.header('content-encoding')).toBeUndefined();
  });

  it('never codes the search stream, whose events must go out as they happen', async () => {
    const stream = await raw(service.origin, '/v1/search/web/stream?q=provider&providers=local', { 'accept-encoding': 'gzip, br' });
    expect(stream.header('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.header('content-encoding')).toBeUndefined();
    expect(stream.bytes.toString('utf8')).toContain('event: done');
  });

  it("never codes MCP's answers, which its transport writes itself", async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compression-test', version: '1.0.0' } },
    });
    const answer = await raw(
      service.origin,
      '/mcp',
      { 'accept-encoding': 'gzip, br', accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      'POST',
      initialize,
    );
    expect(answer.status).toBe(200);
    expect(answer.header('content-encoding')).toBeUndefined();
    expect(answer.bytes.toString('utf8')).toContain('"protocolVersion"');
  });
});

describe('COMPRESS_RESPONSES=false', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent', COMPRESS_RESPONSES: 'false' });
  });
  afterAll(() => service.stop());

  it('sends every answer as it is, for a proxy in front to compress', async () => {
    const answer = await raw(service.origin, SEARCH, { 'accept-encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.header('content-encoding')).toBeUndefined();
    expect(JSON.parse(answer.bytes.toString('utf8')).query).toBe('provider');
  });
});
