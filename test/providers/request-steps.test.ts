import { describe, expect, it } from 'vitest';
import type { ParseOutcome, UpstreamRequest, UpstreamResponse } from '../../src/providers/provider.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, runProvider, transportFor } from '../support/run-provider.js';

/**
 * The steps of one page as the base class runs them (a request, the follow-ups its answer asks for, the
 * guard against a loop of them), on a SearXNG adapter whose parser is replaced for each case.
 */
describe('the requests of one page', () => {
  const upstream = useFakeUpstream();
  // Each case has its own path: the fake upstream keeps every request of the file.
  const env = (base: string) => ({ SEARXNG_URL: `${upstream.origin}/${base}` });

  it('sends the follow-up an answer asks for and gives the items of the answer that has them', async () => {
    upstream.json('GET /one/search', { step: 'first' }).json('GET /one/details', { step: 'second' });
    class TwoSteps extends SearxngProvider {
      override parseResponse(response: UpstreamResponse): ParseOutcome {
        const { step } = JSON.parse(response.body) as { step: string };
        if (step === 'first') return { followUp: { url: `${upstream.origin}/one/details?after=${step}` } };
        return { items: [{ title: 'found on the second step', url: 'https://r.example/2' }] };
      }
    }
    // A limit of one: the first page is enough, no second page is asked for.
    const items = await runProvider(makeProvider(TwoSteps, env('one')), makeQuery('two steps', 'web', 1));
    expect(items.map((item) => item.title)).toEqual(['found on the second step']);
    expect(upstream.requestsTo('/one/details').map((request) => request.url.searchParams.get('after'))).toEqual(['first']);
  });

  it('stops an adapter that keeps asking for follow-ups after four requests, with an error that says so', async () => {
    upstream.json('GET /two/search', {}).json('GET /two/again', {});
    class Endless extends SearxngProvider {
      override parseResponse(): ParseOutcome {
        return { followUp: { url: `${upstream.origin}/two/again` } };
      }
    }
    const provider = makeProvider(Endless, env('two'));
    await expect(runProvider(provider, makeQuery('loop'))).rejects.toThrow(`${provider.name} asked for more than 4 requests`);
    expect(upstream.requestsTo('/two/search')).toHaveLength(1);
    expect(upstream.requestsTo('/two/again')).toHaveLength(3);
  });

  it('rejects, rather than throws, when the adapter cannot build its request', async () => {
    class Unbuildable extends SearxngProvider {
      override buildRequest(): UpstreamRequest {
        throw new Error('no request for this query');
      }
    }
    upstream.json('GET /three/search', {});
    const provider = makeProvider(Unbuildable, env('three'));
    let answer: Promise<unknown> | undefined;
    expect(() => {
      answer = provider.search(makeQuery('nothing'), transportFor(provider), AbortSignal.timeout(10_000));
    }).not.toThrow();
    await expect(answer).rejects.toThrow('no request for this query');
    expect(upstream.requestsTo('/three/search')).toHaveLength(0);
  });
});
