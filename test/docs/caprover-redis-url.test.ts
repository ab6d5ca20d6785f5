import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
/** CapRover's one-click Redis app asks for a password and runs `redis-server --requirepass` with it. */
const ONE_CLICK_PASSWORD = 'test-pass@1/2';
const CAPROVER_REDIS_ADDRESS = 'srv-captain--redis:6379';

/** The REDIS_URL README.md tells CapRover operators to set, pointed at `address` and filled with `password`. */
function documentedRedisUrl(address: string, password: string): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const example = new RegExp('`REDIS_URL=(redis://[^`]*' + CAPROVER_REDIS_ADDRESS + ')`').exec(readme)?.[1];
  if (!example) throw new Error(`README.md shows no REDIS_URL=redis://…${CAPROVER_REDIS_ADDRESS}`);
  // The README asks for the password's special characters percent-encoded, as encodeURIComponent writes them.
  return example.replace(CAPROVER_REDIS_ADDRESS, address).replace('PASSWORD', encodeURIComponent(password));
}

describeWithRedis("README's CapRover REDIS_URL against a Redis that requires a password, as the one-click app runs it", () => {
  let redis: RedisServer;
  let upstream: FakeUpstream;
  let replicaA: RunningService;
  let replicaB: RunningService;

  beforeAll(async () => {
    redis = await startRedisServer({ password: ONE_CLICK_PASSWORD });
    upstream = await startFakeUpstream();
    upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Shared', url: 'https://shared.example/' }] } });
    const env = {
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'test-key-1',
      REDIS_URL: documentedRedisUrl(`127.0.0.1:${redis.port}`, ONE_CLICK_PASSWORD),
    };
    replicaA = await startService(env);
    replicaB = await startService(env);
  });
  afterAll(async () => {
    await replicaA?.stop();
    await replicaB?.stop();
    await upstream?.stop();
    await redis?.stop();
  });

  it('shares answers between replicas, as the README says it does', async () => {
    const first = await (await request(replicaA.origin, '/v1/search/web?q=caprover+redis&providers=brave')).json();
    const second = await (await request(replicaB.origin, '/v1/search/web?q=caprover+redis&providers=brave')).json();
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(upstream.requestsTo(BRAVE_PATH).length).toBe(1);
  });
});
