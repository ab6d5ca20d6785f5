import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const braveBody = JSON.stringify({
  web: { results: [{ title: 'Brave 1', url: 'https://brave.example/1', description: 'about providers' }] },
});

/** `<NAME>_WEIGHT=0` turns a provider off: it is not asked, and its outcome says why. */
describe('a provider with weight 0', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', braveBody).json('/wikipedia/w/api.php', { query: { search: [] } });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-key-123456',
      LOCAL_WEIGHT: '0',
      WIKIPEDIA_WEIGHT: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const outcomes = (body: { providers: Array<{ provider: string }> }) =>
    Object.fromEntries(body.providers.map((outcome) => [outcome.provider, outcome]));

  it('is left out of every web search, which the embedded index no longer joins', async () => {
    // "provider" matches the project's own docs, which the local index serves when it is on.
    const body = await (await request(service.origin, '/v1/search/web?q=provider')).json();
    const byName = outcomes(body);
    expect(byName.local).toEqual({ provider: 'local', status: 'skipped', count: 0, latency_ms: 0, message: 'turned off: LOCAL_WEIGHT=0' });
    expect(byName.wikipedia).toMatchObject({ status: 'skipped', message: 'turned off: WIKIPEDIA_WEIGHT=0' });
    expect(byName.brave).toMatchObject({ status: 'ok', count: 1 });
    const sources = body.results.flatMap((result: { sources: Array<{ provider: string }> }) => result.sources.map((source) => source.provider));
    expect(new Set(sources)).toEqual(new Set(['brave']));
    expect(upstream.requests.filter((recorded) => recorded.path.startsWith('/wikipedia/'))).toEqual([]);
  });

  it("does not serve the embedded index's documents through fetch_url either", async () => {
    const response = await request(service.origin, '/v1/ops/fetch_url', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'local:///ranking.md' }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('the embedded index is turned off: LOCAL_WEIGHT=0, so local:///ranking.md cannot be read');
  });

  it('stays off when a search names it', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=provider&providers=local')).json();
    expect(body.results).toEqual([]);
    expect(body.providers).toEqual([{ provider: 'local', status: 'skipped', count: 0, latency_ms: 0, message: 'turned off: LOCAL_WEIGHT=0' }]);
  });
});

/**
 * `weight: 0` in PROVIDERS_FILE turns an instance off too; its outcome names that entry's key, not the variable
 * of the definition's built-in instance (SEARXNG_WEIGHT, BRAVE_WEIGHT), which is not read for it.
 */
describe('a PROVIDERS_FILE instance with weight 0', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  /** Holds the providers file; removed after the service that read it stops. */
  let folder: string | undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-off-'));
    const file = path.join(folder, 'providers.yaml');
    writeFileSync(
      file,
      [
        'providers:',
        '  - name: searx-off',
        '    use: searxng',
        `    base_url: ${upstream.origin}/searx-off`,
        '    weight: 0',
        '  - name: brave',
        '    use: brave',
        '    api_key: brave-key-123456',
        '    weight: 0',
        '',
      ].join('\n'),
    );
    service = await startService({ ...providerEnv(upstream.origin), PROVIDERS_FILE: file, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('is skipped with a message naming the entry and its weight key', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=provider&providers=searx-off,brave')).json();
    expect(body.providers).toEqual([
      { provider: 'brave', status: 'skipped', count: 0, latency_ms: 0, message: 'turned off: weight of brave in PROVIDERS_FILE is 0' },
      { provider: 'searx-off', status: 'skipped', count: 0, latency_ms: 0, message: 'turned off: weight of searx-off in PROVIDERS_FILE is 0' },
    ]);
    expect(upstream.requests).toEqual([]);
  });
});
