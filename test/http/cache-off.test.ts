import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/engine/answer-cache.js';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

describe('with the answer cache off (CACHE_TTL_SECONDS=0)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE_PATH, {
      kind: 'respond',
      body: braveBody('https://brave.example/1', 'https://brave.example/2'),
      headers: { 'content-type': 'application/json' },
      delayMs: 100,
    });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-test-key-0123456789', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (query: string) => (await request(service.origin, `/v1/search/web?providers=brave&${query}`)).json();

  it('says the in-process cache keeps nothing, so answers are built without what only a later reader needs', () => {
    expect(createMemoryCache({ ttlMs: 0, maxEntries: 10, maxBytes: 1000 }).storesNothing).toBe(true);
    expect(createMemoryCache({ ttlMs: 1000, maxEntries: 10, maxBytes: 1000 }).storesNothing).toBe(false);
  });

  it('explains scores when asked and only then', async () => {
    const [explained, plain] = await Promise.all([search('q=explained&explain=true'), search('q=explained')]);
    expect(explained.results[0].explain).toEqual([{ provider: 'brave', rank: 1, weight: 1, contribution: expect.closeTo(1 / 61, 6) }]);
    expect(plain.results.map((result: { url: string }) => result.url)).toEqual(explained.results.map((result: { url: string }) => result.url));
    expect(plain.results.every((result: object) => !('explain' in result))).toBe(true);
    expect(plain.cached).toBe(false);
  });

  it('still shares one fan-out between identical concurrent searches', async () => {
    const before = upstream.requestsTo(BRAVE_PATH).length;
    const answers = await Promise.all([1, 2, 3].map(() => search('q=together')));
    expect(answers.every((answer) => answer.results[0].url === 'https://brave.example/1')).toBe(true);
    expect(upstream.requestsTo(BRAVE_PATH).length - before).toBe(1);
  });
});
