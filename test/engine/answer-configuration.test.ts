import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { answerConfigurationTag, answerContentsOf } from '../../src/engine/answer-configuration.js';
import { createProviders } from '../../src/providers/registry.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

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

  it('differs when the embedded index loaded other files from the same folder, and not when it loaded the same ones', async () => {
    const folder = temporaryDirectory('fedsearch-tag-');
    const tagWith = async (files: Record<string, string>, env: Record<string, string> = {}): Promise<string> => {
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
      const config = loadConfig({ LOG_LEVEL: 'silent', LOCAL_INDEX_DIR: folder, ...env });
      const providers = createProviders(config.providers);
      return answerConfigurationTag(providers, config.RRF_K, await answerContentsOf(providers));
    };
    const first = await tagWith({ 'a.md': '# A\n\nfirst text\n' });
    expect(await tagWith({ 'a.md': '# A\n\nfirst text\n' })).toBe(first);
    expect(await tagWith({ 'a.md': '# A\n\nother text\n' })).not.toBe(first);
    // One more file, the first one as it was: another index too.
    expect(await tagWith({ 'a.md': '# A\n\nfirst text\n', 'b.md': '# B\n' })).not.toBe(first);
    // Turned off, the index answers nothing: what its files hold makes no difference.
    expect(await tagWith({ 'b.md': '# B again\n' }, { LOCAL_WEIGHT: '0' })).toBe(await tagWith({ 'b.md': '# B\n' }, { LOCAL_WEIGHT: '0' }));
  });
});
