import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { braveBody } from '../mcp/mcp-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const LOOKUPS = ['fedsearch_cache_hits_total', 'fedsearch_cache_misses_total', 'fedsearch_cache_shared_total'] as const;

async function lookupCounts(service: RunningService): Promise<Record<(typeof LOOKUPS)[number], number | undefined>> {
  const lines = (await (await request(service.origin, '/metrics')).text()).split('\n');
  const value = (name: string): number | undefined => {
    const line = lines.find((candidate) => candidate.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  };
  return { fedsearch_cache_hits_total: value(LOOKUPS[0]), fedsearch_cache_misses_total: value(LOOKUPS[1]), fedsearch_cache_shared_total: value(LOOKUPS[2]) };
}

/**
 * An operator reads the providers' load off fedsearch_cache_misses_total: identical searches arriving together share
 * one fan-out (the single flight), so they must count one miss, the others as shared, not a miss each.
 */
describe('cache lookup counts', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
  });

  it('count identical searches in flight together as one miss and the rest as shared, then a hit', async () => {
    upstream = await startFakeUpstream();
    const held: ServerResponse[] = [];
    upstream.on(BRAVE, { kind: 'handler', handle: (_request, response) => void held.push(response) });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'silent' });
    const path = '/v1/search/web?q=together&providers=brave';
    const answers = Array.from({ length: 4 }, () => request(service!.origin, path));
    // Every search has looked in the cache (and joined the flight or started it) before the upstream answers.
    const running = service;
    await expect
      .poll(async () => Object.values(await lookupCounts(running)).reduce<number>((sum, count) => sum + (count ?? 0), 0), { timeout: 10_000 })
      .toBe(4);
    expect(held).toHaveLength(1);
    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(braveBody('https://together.example/1'));
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
    expect(upstream.requestsTo(BRAVE)).toHaveLength(1);
    expect(await lookupCounts(service)).toEqual({ fedsearch_cache_hits_total: 0, fedsearch_cache_misses_total: 1, fedsearch_cache_shared_total: 3 });

    expect((await request(service.origin, path)).status).toBe(200);
    expect(await lookupCounts(service)).toEqual({ fedsearch_cache_hits_total: 1, fedsearch_cache_misses_total: 1, fedsearch_cache_shared_total: 3 });
  });
});
