import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { answerConfigurationTag } from '../../src/engine/answer-configuration.js';
import { createProviders } from '../../src/providers/registry.js';

/** The tag of a service configured from `env`, as search-setup.ts computes it. */
function tagOf(env: Record<string, string>): string {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  return answerConfigurationTag(createProviders(config.providers), config.RRF_K);
}

describe('answerConfigurationTag', () => {
  it('is the same for replicas configured alike, whatever the value of a secret', () => {
    expect(tagOf({ BRAVE_API_KEY: 'test-key-1' })).toBe(tagOf({ BRAVE_API_KEY: 'test-key-1' }));
    // Two accounts of one API give the same answers: the tag says a key is set, never which.
    expect(tagOf({ BRAVE_API_KEY: 'test-key-1' })).toBe(tagOf({ BRAVE_API_KEY: 'test-key-2' }));
    expect(tagOf({ BRAVE_API_KEY: 'test-key-1' })).not.toContain('test-key');
  });

  it('differs when a setting that shapes answers differs', () => {
    const base = tagOf({});
    const variations: Array<Record<string, string>> = [
      { BRAVE_API_KEY: 'test-key-1' },
      { BRAVE_WEIGHT: '2' },
      { BRAVE_BASE_URL: 'http://127.0.0.1:9/brave' },
      { SEARXNG_URL: 'http://127.0.0.1:9/searx' },
      { RRF_K: '10' },
    ];
    for (const env of variations) {
      expect(tagOf(env), JSON.stringify(env)).not.toBe(base);
    }
  });

  it('is the same when only timeouts, rate limits or concurrency differ: they change whether a provider fails, not what it answers', () => {
    expect(tagOf({ BRAVE_TIMEOUT_MS: '900', BRAVE_RATE_LIMIT: '5/s', BRAVE_CONCURRENCY: '2', DEFAULT_TIMEOUT_MS: '2000' })).toBe(tagOf({}));
  });
});
