import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const postJson = (origin: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(origin, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A 5xx tells the caller to quote its request id: the id must reach them, and match the server's log lines. */
describe('request ids returned to the client', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/youtube/youtube/v3/videos', { error: { code: 500, message: 'backend error' } }, 500);
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: 'yt-key-1234567890' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('sends x-request-id on every answer: success, client error, unknown route', async () => {
    const answers = [
      await request(service.origin, '/healthz'),
      await request(service.origin, '/v1/search/web?q=x&providers=local'),
      await postJson(service.origin, '/v1/ops/web_search', { query: '' }),
      await request(service.origin, '/no/such/route'),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    const notFound = await answers[3]!.json();
    expect(notFound.request_id).toBe(ids[3]);
  });

  it('puts the id of a 5xx in its body and header, the same id its log lines carry', async () => {
    const response = await postJson(service.origin, '/v1/ops/youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 502, request_id: id });
    const logged = service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string }).filter((line) => line.reqId === id);
    expect(logged.map((line) => line.msg)).toContain('request failed');
  });

  it('keeps a well-formed id the caller (or its proxy) sent, and replaces one that is not', async () => {
    const kept = await request(service.origin, '/healthz', { headers: { 'x-request-id': 'edge-4f2a.77:1' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-4f2a.77:1');
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'quote"d']) {
      const replaced = await request(service.origin, '/healthz', { headers: { 'x-request-id': bad } });
      expect(replaced.headers.get('x-request-id'), bad).toMatch(UUID);
    }
  });

  it('sends the id with a 401 when API keys are required', async () => {
    const guarded = await startService({ API_KEYS: 'id-key-0123456789', LOG_LEVEL: 'silent' });
    try {
      const response = await request(guarded.origin, '/v1/providers');
      expect(response.status).toBe(401);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
      expect((await response.json()).request_id).toBe(response.headers.get('x-request-id'));
    } finally {
      await guarded.stop();
    }
  });
});

describe('request id for browser clients', () => {
  it('lets a page on an allowed origin read the x-request-id header (CORS exposes it)', async () => {
    const service = await startService({ CORS_ORIGINS: 'https://app.example', LOG_LEVEL: 'silent' });
    try {
      const response = await request(service.origin, '/healthz', { headers: { origin: 'https://app.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(response.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain('x-request-id');
    } finally {
      await service.stop();
    }
  });
});

describe('request id on a 5xx whose cause is hidden', () => {
  let service: RunningService;
  beforeAll(async () => {
    // No real route fails this way on purpose: a route of the test's own throws an error no caller should read.
    service = await startService({ LOG_LEVEL: 'info' }, (app) => {
      app.get('/test/broken', () => {
        throw new Error('invariant broken at /srv/fedsearch/secret-path');
      });
    });
  });
  afterAll(() => service.stop());

  it('tells the caller which id to quote, and gives it in the body and the header', async () => {
    const response = await request(service.origin, '/test/broken');
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 500, code: 'INTERNAL', request_id: id });
    expect(body.message).toContain(id);
    expect(JSON.stringify(body)).not.toContain('secret-path');
    const logged = service.logs.map((line) => JSON.parse(line) as { reqId?: string; level: number; msg?: string; err?: { message?: string } });
    expect(logged.find((line) => line.reqId === id && line.msg === 'request failed')).toMatchObject({ level: 50, err: { message: expect.stringContaining('secret-path') } });
  });
});
