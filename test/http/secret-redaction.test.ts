import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';
import { prefixesOf } from '../support/secret-prefixes.js';

const YOUTUBE_KEY = 'youtube-test-key-0123456789abcdef';
const EXA_KEY = 'exa-key-0123456789abcdef0123456789abc';
/** The longest Exa error text before the key that still puts the key across the transport's 160-character cut. */
const FILLER = 'x'.repeat(117);


/**
 * Upstreams that echo the key they were sent (many APIs do in 400 and 401 bodies): the key must reach
 * neither a response nor a log line, however the error travels or is cut.
 */
describe('secrets echoed by an upstream', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/youtube/youtube/v3/videos', {
      kind: 'handler',
      handle: (request, response) => {
        const message = `API key not valid: ${request.url.searchParams.get('key')}`;
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, errors: [{ reason: 'badRequest' }] } }));
      },
    });
    upstream.on('/exa/search', {
      kind: 'handler',
      handle: (request, response) => {
        const error = `${FILLER} invalid key ${String(request.headers['x-api-key'])}`;
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: YOUTUBE_KEY, EXA_API_KEY: EXA_KEY, CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('a failed capability call is logged with its cause, and no log line holds the key', async () => {
    const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const body = await response.json();
    const upstreamMessage = 'HTTP 400: the key was refused: badRequest: API key not valid: [redacted] (check YOUTUBE_API_KEY)';
    expect(body.message).toBe(`youtube: ${upstreamMessage}`);
    expect(upstream.requestsTo('/youtube/youtube/v3/videos')).toHaveLength(1);

    const failures = service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; err?: { message?: string; stack?: string } });
    const logged = failures.filter((line) => line.reqId === body.request_id && line.msg === 'request failed');
    expect(logged).toHaveLength(1);
    // pino writes the cause chain's messages and stacks into the line: the upstream's own error is there, redacted.
    expect(logged[0]!.err?.message).toBe(`youtube: ${upstreamMessage}: ${upstreamMessage}`);
    expect(logged[0]!.err?.stack).toContain(`caused by: FedsearchError: ${upstreamMessage}`);
    for (const line of service.logs) expect(line).not.toContain(YOUTUBE_KEY);
  });

  it('an error body cut to 160 characters shows no part of a key that straddles the cut', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=leak&providers=exa')).json();
    const outcome = body.providers.find((provider: { provider: string }) => provider.provider === 'exa');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_AUTH' });
    expect(outcome.message).toBe(`HTTP 401: the key was refused: ${FILLER} invalid key [redacted] (check EXA_API_KEY)`);

    const listing = await (await request(service.origin, '/v1/providers')).json();
    const health = listing.providers.find((provider: { name: string }) => provider.name === 'exa').health;
    // Every caller reads provider health: it keeps our words, not the upstream's.
    expect(health.last_error.message).toBe('HTTP 401: the key was refused (check EXA_API_KEY)');
    for (const text of [JSON.stringify(body), JSON.stringify(listing), ...service.logs]) {
      for (const prefix of prefixesOf(EXA_KEY)) expect(text).not.toContain(prefix);
    }
  });
});

describe('the service logger', () => {
  let service: RunningService;

  beforeAll(async () => {
    // A route of the test's own whose error quotes a configured key deep in its cause chain, as an adapter bug or
    // a library's error might: the logger itself must redact it, whatever path the error took.
    service = await startService({ EXA_API_KEY: EXA_KEY, LOG_LEVEL: 'warn' }, (app) => {
      app.get('/test/echoed-key', async () => {
        throw new Error('lookup failed', { cause: new Error('wrapped', { cause: new Error(`upstream said: bad key ${EXA_KEY}`) }) });
      });
    });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('redacts a configured key from an error it logs, cause chain included', async () => {
    const response = await request(service.origin, '/test/echoed-key');
    expect(response.status).toBe(500);
    const logged = service.logs.map((line) => JSON.parse(line) as { msg?: string; err?: { stack?: string } }).filter((line) => line.msg === 'request failed');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.err?.stack).toContain('upstream said: bad key [redacted]');
    for (const line of service.logs) expect(line).not.toContain(EXA_KEY);
  });
});
