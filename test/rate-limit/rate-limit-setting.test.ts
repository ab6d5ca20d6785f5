import { describe, expect, it } from 'vitest';
import { parseRateLimit, resolveRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { PROVIDER_CLASSES, resolveProviderConfig } from '../../src/providers/registry.js';

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

describe('resolveRateLimit', () => {
  const pubmedDefault = { rate: '3/s', withCredential: { env: 'PUBMED_API_KEY', rate: '10/s' } };

  it('takes the first variable that is set, then the declared default, then none', () => {
    const names = ['SEMANTICSCHOLAR_RATE_LIMIT', 'SEMANTIC_SCHOLAR_RATE_LIMIT'];
    expect(resolveRateLimit({ SEMANTIC_SCHOLAR_RATE_LIMIT: '4/s' }, names, '1/s', {})).toMatchObject({ requests: 4, variable: 'SEMANTIC_SCHOLAR_RATE_LIMIT' });
    expect(resolveRateLimit({}, names, '1/s', {})).toMatchObject({ requests: 1, intervalMs: 1000, variable: 'SEMANTICSCHOLAR_RATE_LIMIT' });
    expect(resolveRateLimit({}, names, undefined, {})).toBeUndefined();
    expect(resolveRateLimit({ SEMANTICSCHOLAR_RATE_LIMIT: 'off' }, names, '1/s', {})).toBeUndefined();
  });

  it('raises the default when the credential it depends on is set', () => {
    expect(resolveRateLimit({}, ['PUBMED_RATE_LIMIT'], pubmedDefault, {})).toMatchObject({ requests: 3 });
    expect(resolveRateLimit({}, ['PUBMED_RATE_LIMIT'], pubmedDefault, { PUBMED_API_KEY: 'k' })).toMatchObject({ requests: 10 });
  });
});

describe('provider rate limits from the registry', () => {
  const settingsOf = (name: string) => PROVIDER_CLASSES.find((type) => type.settings.name === name)!.settings;

  it('refuses a bad <NAME>_RATE_LIMIT, naming the variable', () => {
    expect(() => resolveProviderConfig(settingsOf('brave'), { env: { BRAVE_RATE_LIMIT: 'fast' } })).toThrow(/BRAVE_RATE_LIMIT must be .* got "fast"/);
  });

  it('applies the published defaults, and the higher one once a key is set', () => {
    expect(resolveProviderConfig(settingsOf('brave'), { env: {} }).rateLimit).toMatchObject({ requests: 1, intervalMs: 1000 });
    expect(resolveProviderConfig(settingsOf('arxiv'), { env: {} }).rateLimit).toMatchObject({ requests: 1, intervalMs: 3000 });
    expect(resolveProviderConfig(settingsOf('github'), { env: {} }).rateLimit).toMatchObject({ requests: 10, intervalMs: 60_000 });
    expect(resolveProviderConfig(settingsOf('github'), { env: { GITHUB_TOKEN: 'ghp_x' } }).rateLimit).toMatchObject({ requests: 30 });
    expect(resolveProviderConfig(settingsOf('searxng'), { env: {} }).rateLimit).toBeUndefined();
    expect(resolveProviderConfig(settingsOf('brave'), { env: { BRAVE_RATE_LIMIT: '20/s' } }).rateLimit).toMatchObject({ requests: 20 });
  });
});
