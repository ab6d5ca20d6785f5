import { describe, expect, it } from 'vitest';
import { replyJson } from '../../src/http/reply-json.js';

/** An answer of the search routes' shape, with fields JSON.stringify leaves out or writes specially. */
function answer(cacheAgeMs: number, results: readonly unknown[], providers: readonly unknown[]) {
  return {
    query: 'a "quoted" query \u2028 with é',
    kind: 'web',
    results,
    providers,
    page: 1,
    has_more: true,
    took_ms: 3,
    cached: true,
    cache_age_ms: cacheAgeMs,
    routing: undefined,
    nothing: null,
    numbers: [0, -0, 1e21, 1.5e-7],
    odd_number: Number.NaN,
    infinite: -Infinity,
    negative_zero: -0,
    big: 1e21,
    tiny: 1.5e-7,
    'needs "escaping"\n': false,
    skipped: () => 'functions are left out',
  };
}

const RESULTS = [
  {
    title: 'One',
    url: 'https://example.com/1?a=1&b=2',
    snippet: 'line\nbreak and "quotes"',
    score: 0.033333,
    sources: [{ provider: 'brave', rank: 1 }],
    domain: 'example.com',
    published_at: undefined,
    explain: [{ provider: 'brave', rank: 1, weight: 1, contribution: 0.016393 }],
  },
  { title: 'Two', url: 'https://example.org/', score: 0.016129, sources: [{ provider: 'exa', rank: 2 }, { provider: 'brave', rank: 3 }] },
];
const PROVIDERS = [
  { provider: 'brave', status: 'ok', count: 2, latency_ms: 40 },
  { provider: 'exa', status: 'timeout', count: 0, latency_ms: 3000, code: 'PROVIDER_TIMEOUT', message: 'no answer in 3000 ms' },
];

describe('replyJson', () => {
  it('writes what JSON.stringify writes, for shared frozen arrays and fresh ones alike', () => {
    const fresh = answer(0, structuredClone(RESULTS), structuredClone(PROVIDERS));
    expect(replyJson(fresh)).toBe(JSON.stringify(fresh));
    const shared = answer(12, Object.freeze(structuredClone(RESULTS)), Object.freeze(structuredClone(PROVIDERS)));
    expect(replyJson(shared)).toBe(JSON.stringify(shared));
  });

  it('writes the fields that change per request afresh around a frozen array written before', () => {
    const results = Object.freeze(structuredClone(RESULTS));
    const providers = Object.freeze(structuredClone(PROVIDERS));
    const first = answer(5, results, providers);
    const later = { ...answer(900, results, providers), cached: false, routing: { reason: 'chosen by the query' } };
    expect(replyJson(first)).toBe(JSON.stringify(first));
    expect(replyJson(later)).toBe(JSON.stringify(later));
    expect(JSON.parse(replyJson(later))).toMatchObject({ cache_age_ms: 900, cached: false, routing: { reason: 'chosen by the query' } });
  });

  it('writes anything that is not a plain object as JSON.stringify does', () => {
    const dated = { toJSON: () => ({ replaced: true }), dropped: 1 };
    for (const value of [null, 'text', 42, true, [1, { a: 2 }], Object.freeze([3]), {}, { only: undefined }, dated, new Date(0)]) {
      expect(replyJson(value)).toBe(JSON.stringify(value));
    }
  });
});
