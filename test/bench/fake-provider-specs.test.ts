import { describe, expect, it } from 'vitest';
import { FAKE_PROVIDER_SPECS, fakeAdapter, fakeEnv, resultsFor, searchPathOf, settingsOf } from '../../bench/fake-provider-specs.js';
import { loadConfig } from '../../src/config.js';
import type { SearchQuery } from '../../src/domain/query.js';

/** The benchmark's fakes stand in for real providers: each must be one the registry has, reached and parsed as the service would. */
describe('benchmark fake providers', () => {
  const origin = 'http://127.0.0.1:9/fake';

  it.each(FAKE_PROVIDER_SPECS.map((spec) => [spec.name, spec] as const))('%s: its environment configures the registry\'s provider against the fake', (name) => {
    const config = loadConfig(fakeEnv(name, origin)).providers[name]!;
    expect(config.baseUrl).toBe(origin);
    const missing = settingsOf(name).credentials.filter((credential) => credential.required && !config.credentials[credential.env]);
    expect(missing).toEqual([]);
    expect(config.rateLimit).toBeUndefined();
  });

  it.each(FAKE_PROVIDER_SPECS.map((spec) => [spec.name, spec] as const))('%s: its adapter reads the fake\'s answer as the fake\'s results', (name, spec) => {
    const adapter = fakeAdapter(name, origin);
    const query: SearchQuery = { kind: adapter.kind, text: 'fake check', limit: 10, filters: {} };
    const request = adapter.buildRequest(query);
    expect(new URL(request.url).pathname).toBe(`/fake${searchPathOf(name)}`);
    const results = resultsFor(name, query.text);
    const outcome = adapter.parseResponse(
      { url: request.url, status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec.body(query.text, results)) },
      query,
    );
    expect('items' in outcome && outcome.items.map((item) => item.title)).toEqual(results.map((result) => result.title));
  });
});
