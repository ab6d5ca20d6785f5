import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis } from '../support/redis-server.js';
import { request } from '../support/service.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
/** The least CACHE_SHARED_MAX_BYTES accepts: an answer of a few long results is past it. */
const MAX_SHARED_BYTES = 1024;

describeWithRedis('an answer longer than CACHE_SHARED_MAX_BYTES', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-bound-key-0123456789', CACHE_SHARED_MAX_BYTES: String(MAX_SHARED_BYTES) });
    const results = Array.from({ length: 5 }, (_, index) => ({ title: `Long result ${index}`, url: `https://long.example/${index}`, description: 'words '.repeat(60) }));
    replicas.upstream.json(BRAVE_PATH, { web: { results } });
  });
  afterAll(() => replicas?.stop());

  it('is kept by the replica that gathered it and never written to Redis', async () => {
    const path = '/v1/search/web?q=long+answer&providers=brave';
    const first = await (await request(replicas.a.origin, path)).json();
    expect(first.cached).toBe(false);
    expect(JSON.stringify(first.results).length).toBeGreaterThan(MAX_SHARED_BYTES);
    // Its own copy answers the next asking, so the answer was kept (and a write to Redis would have gone out by then).
    const again = await (await request(replicas.a.origin, path)).json();
    expect(again.cached).toBe(true);
    expect(await replicas.raw.keys('fedsearch:answer:*')).toEqual([]);
  });
});
