import { EventSource } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';

/**
 * An EventSource reconnects whenever its stream ends, a finished one too (the HTML standard's rule): the stream's
 * `done` carried no id, so each reconnection was a new request that searched again (from the cache), sent `done`
 * again and ended again, every 3 s for as long as the page stayed open, each counted against the rate limit.
 */
describe('an EventSource reading GET /v1/search/{kind}/stream', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('gets `done` once: its reconnection after the end is answered 204, and it stops', async () => {
    upstream.json(BRAVE, { web: { results: [{ title: 'Once', url: 'https://once.example/', description: 'x' }] } });
    const source = new EventSource(`${service.origin}/v1/search/web/stream?q=reconnect&providers=brave`);
    const done: MessageEvent[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        source.addEventListener('done', (event) => {
          done.push(event as MessageEvent);
          if (done.length > 1) reject(new Error('the stream was searched and sent again after it had ended'));
        });
        // The EventSource stops for good (CLOSED) only when the service tells it to; a reconnection it will retry is CONNECTING.
        source.addEventListener('error', () => {
          if (source.readyState === EventSource.CLOSED) resolve();
        });
      });
    } finally {
      source.close();
    }
    expect(done).toHaveLength(1);
    expect(done[0]!.lastEventId).toBe('end');
    expect(JSON.parse(done[0]!.data as string)).toMatchObject({ query: 'reconnect', results: [{ url: 'https://once.example/' }] });
    expect(upstream.requestsTo(BRAVE)).toHaveLength(1);
  });

  it('answers 204 to a reconnection after the end without searching, and streams as before without one', async () => {
    upstream.json(BRAVE, { web: { results: [{ title: 'Fresh', url: 'https://fresh.example/', description: 'x' }] } });
    const asked = upstream.requestsTo(BRAVE).length;
    const path = '/v1/search/web/stream?q=after+the+end&providers=brave';
    const reconnected = await request(service.origin, path, { headers: { accept: 'text/event-stream', 'last-event-id': 'end' } });
    expect(reconnected.status).toBe(204);
    expect(await reconnected.text()).toBe('');
    expect(upstream.requestsTo(BRAVE)).toHaveLength(asked);

    const first = await request(service.origin, path, { headers: { accept: 'text/event-stream' } });
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(body).toContain('id: end\nevent: done\n');
    expect(body.match(/^id: /gm)).toHaveLength(1);
    expect(upstream.requestsTo(BRAVE)).toHaveLength(asked + 1);
  });
});
