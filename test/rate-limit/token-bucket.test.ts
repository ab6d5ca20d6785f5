import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/rate-limit/rate-limit-setting.js';
import { TokenBucket } from '../../src/rate-limit/token-bucket.js';

const twoPerSecond = parseRateLimit('2/s', 'TEST_RATE_LIMIT')!;

describe('TokenBucket (injected clock)', () => {
  it('gives the first caller a slot at once and the k-th one k intervals later', () => {
    const bucket = new TokenBucket(twoPerSecond, 0);
    const waits = Array.from({ length: 5 }, () => bucket.reserve(0, 10_000));
    expect(waits).toEqual([0, 500, 1000, 1500, 2000].map((waitMs) => ({ granted: true, waitMs })));
  });

  it('refuses a slot that would start at or after the deadline, takes nothing, and says when the next one is free', () => {
    const bucket = new TokenBucket(twoPerSecond, 0);
    expect(bucket.reserve(0, 1200)).toEqual({ granted: true, waitMs: 0 });
    expect(bucket.reserve(0, 1200)).toEqual({ granted: true, waitMs: 500 });
    expect(bucket.reserve(0, 1200)).toEqual({ granted: true, waitMs: 1000 });
    expect(bucket.reserve(0, 1200)).toEqual({ granted: false, retryAfterMs: 1500 });
    expect(bucket.reserve(0, 1500)).toEqual({ granted: false, retryAfterMs: 1500 });
    // The refusals took nothing: a caller with more time gets exactly the slot they were refused.
    expect(bucket.reserve(0, 5000)).toEqual({ granted: true, waitMs: 1500 });
  });

  it('refills at the rate and never holds more than the burst', () => {
    const bucket = new TokenBucket(twoPerSecond, 0);
    expect(bucket.reserve(0, 0)).toEqual({ granted: true, waitMs: 0 });
    expect(bucket.reserve(250, 0)).toEqual({ granted: false, retryAfterMs: 250 });
    expect(bucket.reserve(500, 0)).toEqual({ granted: true, waitMs: 0 });
    // A long quiet spell fills the bucket to its capacity of one, not to ten.
    expect(bucket.reserve(5500, 0)).toEqual({ granted: true, waitMs: 0 });
    expect(bucket.reserve(5500, 0)).toEqual({ granted: false, retryAfterMs: 500 });
  });

  it('spaces 1/3s three seconds apart', () => {
    const bucket = new TokenBucket(parseRateLimit('1/3s', 'ARXIV_RATE_LIMIT')!, 1000);
    expect(bucket.reserve(1000, 10_000)).toEqual({ granted: true, waitMs: 0 });
    expect(bucket.reserve(2000, 10_000)).toEqual({ granted: true, waitMs: 2000 });
    expect(bucket.reserve(2000, 10_000)).toEqual({ granted: true, waitMs: 5000 });
  });
});
