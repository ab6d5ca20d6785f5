import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

type Line = { reqId?: string; level?: number; msg?: string; code?: string; err?: unknown };

const WARN = 40;
const ERROR = 50;

/**
 * An upstream that fails is the upstream's trouble, not the service's: its requests are logged as warnings with
 * the code, so a provider that is down for an hour does not fill the error level (where alerts look) with a stack
 * per request. The error level stays for the service's own faults.
 */
describe('log levels of answers an upstream failed', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let keyed: RunningService;
  let nobody: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    nobody = await closedPort();
    upstream.on('/youtube/youtube/v3/videos', { kind: 'respond', status: 500, body: 'down' });
    service = await startService({ ...providerEnv(upstream.origin), FETCH_ALLOW_PRIVATE: 'true' }, (app) => {
      app.get('/test/bug', async () => {
        throw new Error('a bug of ours');
      });
    });
    keyed = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: 'yt-key-0123456789' });
  });
  afterAll(async () => {
    await service.stop();
    await keyed.stop();
    await upstream.stop();
  });

  const linesOf = (id: string | null): Line[] =>
    [...service.logs, ...keyed.logs].map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === id);

  it.each([
    ['fetch_url of an address that refuses the connection', () => callOperation(service, 'fetch_url', { url: `http://127.0.0.1:${nobody}/page` })],
    ['video details from a provider without its key', () => callOperation(service, 'youtube_video_details', { ids: ['dQw4w9WgXcQ'] })],
    ['video details from a provider that answers 500', () => callOperation(keyed, 'youtube_video_details', { ids: ['dQw4w9WgXcQ'] })],
  ])('%s: a warning with its code, no error', async (_case, send) => {
    const response = await send();
    const body = (await response.json()) as { code?: string };
    const id = response.headers.get('x-request-id');
    if (response.status < 500) return expect.fail(`expected the upstream's failure to reach the caller, got ${response.status} ${JSON.stringify(body)}`);
    await expect.poll(() => linesOf(id).some((line) => line.msg === 'request completed')).toBe(true);
    const lines = linesOf(id);
    expect(lines.filter((line) => (line.level ?? 0) >= ERROR)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: WARN, code: body.code }));
  });

  it('still writes a fault of its own at error, with its stack', async () => {
    const response = await request(service.origin, '/test/bug');
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    await expect.poll(() => linesOf(id).some((line) => line.level === ERROR && line.err !== undefined)).toBe(true);
  });
});
