import { createHash, scryptSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { credentialDigest, planRateLimitBuckets, type BucketMember } from '../../src/rate-limit/rate-limit-buckets.js';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';

const oncePerSecond = parseRateLimit('1/s', 'BRAVE_RATE_LIMIT')!;
const twicePerSecond = parseRateLimit('2/s', 'rate_limit of brave-news in PROVIDERS_FILE')!;

function member(name: string, overrides: Partial<BucketMember> = {}): BucketMember {
  return { name, definition: 'brave', baseUrl: 'https://api.search.brave.com', credentials: {}, limit: oncePerSecond, ...overrides };
}

const keyOne = { BRAVE_API_KEY: 'test-key-1' };
const keyTwo = { BRAVE_API_KEY: 'test-key-2' };

describe('outbound buckets by the quota instances spend', () => {
  it('gives instances with one key on one host one bucket, and instances with different keys one each', () => {
    const { buckets } = planRateLimitBuckets([
      member('brave', { credentials: keyOne }),
      member('brave-news', { credentials: keyOne, baseUrl: 'https://api.search.brave.com/news-proxy-path' }),
      member('brave-team', { credentials: keyTwo }),
    ]);
    expect(buckets.get('brave')!.key).toBe(buckets.get('brave-news')!.key);
    expect(buckets.get('brave-team')!.key).not.toBe(buckets.get('brave')!.key);
  });

  it('shares one bucket between instances without a key on one host, whatever the scheme', () => {
    const { buckets } = planRateLimitBuckets([
      member('arxiv', { definition: 'arxiv', baseUrl: 'https://export.arxiv.org', limit: parseRateLimit('1/3s', 'ARXIV_RATE_LIMIT') }),
      member('arxiv-plain', { definition: 'arxiv', baseUrl: 'http://export.arxiv.org', limit: parseRateLimit('1/3s', 'ARXIV_RATE_LIMIT') }),
    ]);
    expect(buckets.get('arxiv')).toEqual(buckets.get('arxiv-plain'));
    expect(buckets.get('arxiv')!.key).toBe('arxiv@export.arxiv.org');
  });

  it('keeps two APIs behind one host apart, and an instance with no host in a bucket of its own name', () => {
    const { buckets } = planRateLimitBuckets([
      member('brave', { baseUrl: 'http://127.0.0.1:9000/brave' }),
      member('exa', { definition: 'exa', baseUrl: 'http://127.0.0.1:9000/exa' }),
      member('local', { definition: 'local', baseUrl: '' }),
    ]);
    expect(buckets.get('brave')!.key).not.toBe(buckets.get('exa')!.key);
    expect(buckets.get('local')!.key).toBe('local');
  });

  it('runs a shared bucket at the stricter limit, also for an instance left without one, and says so once', () => {
    const { buckets, notices } = planRateLimitBuckets([
      member('brave-news', { credentials: keyOne, limit: twicePerSecond }),
      member('brave', { credentials: keyOne }),
      member('brave-off', { credentials: keyOne, limit: undefined }),
    ]);
    for (const name of ['brave', 'brave-news', 'brave-off']) expect(buckets.get(name)!.limit).toBe(oncePerSecond);
    expect(notices).toEqual([
      'outbound rate limit: brave-news, brave, brave-off spend one quota (brave at api.search.brave.com, one credential) and share one bucket ' +
        'at the stricter limit, 1/s (BRAVE_RATE_LIMIT); configured: brave-news 2/s, brave 1/s, brave-off off',
    ]);
  });

  it('says nothing when instances sharing a bucket agree, and gives none to instances with no limit at all', () => {
    const { buckets, notices } = planRateLimitBuckets([
      member('brave', { credentials: keyOne }),
      member('brave-news', { credentials: keyOne }),
      member('searx-a', { definition: 'searxng', baseUrl: 'https://searx.example', limit: undefined }),
    ]);
    expect(notices).toEqual([]);
    expect(buckets.has('searx-a')).toBe(false);
  });

  it('names a bucket by a digest of its credentials that every replica works out alike, never by the credential', () => {
    const { buckets } = planRateLimitBuckets([member('brave', { credentials: keyOne })]);
    const key = buckets.get('brave')!.key;
    expect(key).toBe(`brave@api.search.brave.com#${credentialDigest(keyOne)}`);
    expect(key).toMatch(/#[0-9a-f]{16}$/);
    expect(key).not.toContain('test-key-1');
    // The same credentials in another order are the same account.
    expect(credentialDigest({ B: 'two', A: 'one' })).toBe(credentialDigest({ A: 'one', B: 'two' }));
    expect(credentialDigest({})).toBeUndefined();
  });

  it('makes the digest with scrypt, so a key read off Redis cannot be searched for at hash speed', () => {
    // RFC 7914's scrypt with Node's default work factors over the sorted [setting, value] pairs, 8 bytes kept.
    const slow = scryptSync(JSON.stringify([['BRAVE_API_KEY', 'short']]), 'fedsearch outbound bucket', 8, { N: 16384, r: 8, p: 1 });
    expect(credentialDigest({ BRAVE_API_KEY: 'short' })).toBe(slow.toString('hex'));
    const fast = createHash('sha256').update(JSON.stringify([['BRAVE_API_KEY', 'short']])).digest('hex').slice(0, 16);
    expect(credentialDigest({ BRAVE_API_KEY: 'short' })).not.toBe(fast);
  });
});

describe('docs/providers.md on shared buckets', () => {
  it("quotes the start-up line as the planner writes it for the documented case", () => {
    const docs = readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8').replace(/\s*\n\s*/g, ' ');
    const { notices } = planRateLimitBuckets([
      member('brave', { credentials: keyOne }),
      member('brave-news', { credentials: keyOne, limit: parseRateLimit('2/s', 'rate_limit of brave-news in PROVIDERS_FILE') }),
    ]);
    expect(notices).toHaveLength(1);
    expect(docs).toContain(`e.g. \`${notices[0]}\``);
  });
});
