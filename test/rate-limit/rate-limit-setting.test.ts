import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { readProviderConfig } from '../../src/providers/provider-config.js';
import { PROVIDER_CLASSES } from '../../src/providers/registry.js';

describe('parseRateLimit', () => {
  it.each([
    ['1/s', 1, 1000],
    ['2/s', 2, 1000],
    ['1/3s', 1, 3000],
    ['100/min', 100, 60_000],
    ['100/5min', 100, 300_000],
    ['10000/h', 10_000, 3_600_000],
    [' 5 / 2s ', 5, 2000],
  ])('reads %s as %i per %i ms, one at a time', (text, requests, intervalMs) => {
    expect(parseRateLimit(text, 'BRAVE_RATE_LIMIT')).toMatchObject({ requests, intervalMs, burst: 1, variable: 'BRAVE_RATE_LIMIT' });
  });

  it('reads off (any case) as no limit', () => {
    expect(parseRateLimit('off', 'BRAVE_RATE_LIMIT')).toBeUndefined();
    expect(parseRateLimit('OFF', 'BRAVE_RATE_LIMIT')).toBeUndefined();
  });

  it.each(['fast', '', '0/s', '1/0s', '-1/s', '1.5/s', '1/s/s', '2 per second', '1/day', '1/100000h'])('refuses "%s", naming the variable and what is allowed', (text) => {
    expect(() => parseRateLimit(text, 'BRAVE_RATE_LIMIT')).toThrow(
      /BRAVE_RATE_LIMIT must be N\/s, N\/Ns, N\/min, N\/Nmin or N\/h \(e\.g\. 1\/s, 1\/3s, 100\/min\), or off/,
    );
  });
});

describe('provider rate limits from the registry', () => {
  const settingsOf = (name: string) => PROVIDER_CLASSES.find((type) => type.settings.name === name)!.settings;

  it('refuses a bad <NAME>_RATE_LIMIT, naming the variable', () => {
    expect(() => readProviderConfig(settingsOf('brave'), { BRAVE_RATE_LIMIT: 'fast' })).toThrow(/BRAVE_RATE_LIMIT: expected N\/s, .* got "fast"/);
  });

  it('takes the first of the variable spellings that is set, and off means none', () => {
    const scholar = settingsOf('semanticscholar');
    expect(readProviderConfig(scholar, { SEMANTIC_SCHOLAR_RATE_LIMIT: '4/s' }).rateLimit).toMatchObject({ requests: 4, variable: 'SEMANTIC_SCHOLAR_RATE_LIMIT' });
    expect(readProviderConfig(scholar, {}).rateLimit).toMatchObject({ variable: 'SEMANTICSCHOLAR_RATE_LIMIT' });
    expect(readProviderConfig(scholar, { SEMANTICSCHOLAR_RATE_LIMIT: 'off' }).rateLimit).toBeUndefined();
  });

  it('raises the PubMed default once its API key is set', () => {
    expect(readProviderConfig(settingsOf('pubmed'), {}).rateLimit).toMatchObject({ requests: 3 });
    expect(readProviderConfig(settingsOf('pubmed'), { PUBMED_API_KEY: 'k' }).rateLimit).toMatchObject({ requests: 10 });
  });

  it('applies the published defaults, and the higher one once a key is set', () => {
    expect(readProviderConfig(settingsOf('brave'), {}).rateLimit).toMatchObject({ requests: 1, intervalMs: 1000 });
    expect(readProviderConfig(settingsOf('arxiv'), {}).rateLimit).toMatchObject({ requests: 1, intervalMs: 3000 });
    expect(readProviderConfig(settingsOf('github'), {}).rateLimit).toMatchObject({ requests: 10, intervalMs: 60_000 });
    expect(readProviderConfig(settingsOf('github'), { GITHUB_TOKEN: 'ghp_x' }).rateLimit).toMatchObject({ requests: 30 });
    expect(readProviderConfig(settingsOf('searxng'), {}).rateLimit).toBeUndefined();
    expect(readProviderConfig(settingsOf('brave'), { BRAVE_RATE_LIMIT: '20/s' }).rateLimit).toMatchObject({ requests: 20 });
  });
});
