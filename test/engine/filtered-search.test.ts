import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { searchFiltered } from '../../src/engine/filtered-search.js';
import type { Provider, UpstreamTransport } from '../../src/providers/provider.js';
import { makeQuery } from '../support/run-provider.js';

/** A provider with `available` results, odd ones on a.example; `fail` makes the asks of those depths reject. */
function corpus(available: number, fail: (limit: number) => boolean = () => false) {
  const asked: number[] = [];
  const provider = {
    search: (query: { limit: number }) => {
      asked.push(query.limit);
      if (fail(query.limit)) return Promise.reject(new Error('upstream refused'));
      const items: ProviderItem[] = Array.from({ length: Math.min(query.limit, available) }, (_, index) => ({
        title: `${index + 1}`,
        url: `https://${index % 2 ? 'b' : 'a'}.example/${index + 1}`,
      }));
      return Promise.resolve(items);
    },
  } as unknown as Provider;
  return { provider, asked };
}

const onA = (items: ProviderItem[]): ProviderItem[] => items.filter((item) => item.url.startsWith('https://a.example/'));
const noMatch = (): ProviderItem[] => [];
const call = (deadline = performance.now() + 5000) => ({ transport: {} as UpstreamTransport, signal: new AbortController().signal, deadline });

describe('a search whose results the engine filters', () => {
  it('asks deeper while the filter leaves it short, and keeps the first results that pass, in order', async () => {
    const { provider, asked } = corpus(100);
    const answer = await searchFiltered(provider, makeQuery('q', 'web', 6), onA, call());
    expect(asked).toEqual([6, 12]);
    expect(answer.items.map((item) => item.url)).toEqual([1, 3, 5, 7, 9, 11].map((rank) => `https://a.example/${rank}`));
    expect(answer.upstreamFull).toBe(true);
  });

  it('stops when the upstream gave fewer than asked: it has nothing more', async () => {
    const { provider, asked } = corpus(8);
    const answer = await searchFiltered(provider, makeQuery('q', 'web', 6), onA, call());
    expect(asked).toEqual([6, 12]);
    expect(answer.items).toHaveLength(4);
    expect(answer.upstreamFull).toBe(false);
  });

  it('asks a bounded number of rounds, and says the upstream may still have more', async () => {
    const { provider, asked } = corpus(1000);
    const answer = await searchFiltered(provider, makeQuery('q', 'web', 6), noMatch, call());
    expect(asked).toEqual([6, 48, 384]);
    expect(answer).toEqual({ items: [], upstreamFull: true, cutShort: false });
  });

  it('keeps the round before a deeper one that fails, or that the deadline would not leave time for', async () => {
    const failing = corpus(100, (limit) => limit > 6);
    const kept = await searchFiltered(failing.provider, makeQuery('q', 'web', 6), onA, call());
    expect(failing.asked).toEqual([6, 12]);
    // Cut short by the failure, which may pass: the answer is partial (cached-answer.ts isPartialGathering).
    expect(kept).toMatchObject({ items: { length: 3 }, upstreamFull: true, cutShort: true });

    const late = corpus(100);
    const past = await searchFiltered(late.provider, makeQuery('q', 'web', 6), onA, call(performance.now() - 1));
    expect(late.asked).toEqual([6]);
    // Nothing failed, but the deadline left no room for a deeper round: a caller that waits longer would get more, so
    // the answer is partial too (kept briefly, and with timeout_ms only for callers that wait no longer).
    expect(past).toMatchObject({ items: { length: 3 }, upstreamFull: true, cutShort: true });

    // A round that kept enough, or an upstream that gave all it had, leaves nothing for more time to find.
    const enough = await searchFiltered(corpus(100).provider, makeQuery('q', 'web', 3), (items) => items, call(performance.now() - 1));
    expect(enough).toMatchObject({ items: { length: 3 }, cutShort: false });
    const all = await searchFiltered(corpus(4).provider, makeQuery('q', 'web', 6), onA, call(performance.now() - 1));
    expect(all).toMatchObject({ items: { length: 2 }, upstreamFull: false, cutShort: false });
  });
});
