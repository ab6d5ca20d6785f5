import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { laterPageFailed, stoppedBeforeEnd, type UpstreamTransport } from '../../src/providers/provider.js';
import { useFakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, runProvider, transportFor } from '../support/run-provider.js';

const BRAVE = '/brave/res/v1/web/search';

/**
 * A Brave that serves `pages[offset]` as the web results of each offset; an offset with no entry answers
 * `failure` (a status) or an empty page.
 */
function braveServing(pages: string[][], failure?: number) {
  return {
    kind: 'handler' as const,
    handle: (request: RecordedRequest, response: ServerResponse) => {
      const urls = pages[Number(request.url.searchParams.get('offset'))];
      if (!urls && failure) {
        response.writeHead(failure, { 'content-type': 'application/json' }).end('{"type":"ErrorResponse","error":{"code":"X","detail":"no"}}');
        return;
      }
      const results = (urls ?? []).map((url) => ({ title: url, url, description: 'a page' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ web: { results } }));
    },
  };
}

const page = (from: number, count = 20): string[] => Array.from({ length: count }, (_, index) => `https://r.example/${from + index}`);

describe('a search deeper than one request allows', () => {
  const upstream = useFakeUpstream();
  const brave = () => makeProvider(BraveProvider, { BRAVE_API_KEY: 'k', BRAVE_BASE_URL: `${upstream.origin}/brave` });
  const requestsFor = (text: string) => upstream.requestsTo(BRAVE).filter((request) => request.url.searchParams.get('q') === text);

  it('reads pages in order through the transport, drops what an earlier page gave, and stops at the limit', async () => {
    // Page 2 repeats the last result of page 1 (results shift between requests): it is listed once, where it came first.
    upstream.on(BRAVE, braveServing([page(0), [page(0)[19]!, ...page(20, 19)], page(39)]));
    const items = await runProvider(brave(), makeQuery('deep', 'web', 45));
    expect(requestsFor('deep').map((request) => request.url.searchParams.get('offset'))).toEqual(['0', '1', '2']);
    expect(requestsFor('deep').map((request) => request.url.searchParams.get('count'))).toEqual(['20', '20', '20']);
    expect(items.map((item) => item.url)).toEqual(page(0, 45));
  });

  it('reads on when a full first page repeats a URL: a repeat does not count towards the limit', async () => {
    const repeating = [...page(0, 19), page(0)[3]!];
    upstream.on(BRAVE, braveServing([repeating, page(20)]));
    const items = await runProvider(brave(), makeQuery('repeats', 'web', 20));
    expect(requestsFor('repeats')).toHaveLength(2);
    expect(items.map((item) => item.url)).toEqual([...page(0, 19), page(20)[0]]);
  });

  it('asks once when a full first page has the limit in distinct URLs', async () => {
    upstream.on(BRAVE, braveServing([page(0), page(20)]));
    const items = await runProvider(brave(), makeQuery('enough', 'web', 20));
    expect(requestsFor('enough')).toHaveLength(1);
    expect(items.map((item) => item.url)).toEqual(page(0));
  });

  it('stops after a short page', async () => {
    upstream.on(BRAVE, braveServing([page(0), page(20, 7), page(27)]));
    const items = await runProvider(brave(), makeQuery('short', 'web', 45));
    expect(requestsFor('short')).toHaveLength(2);
    expect(items).toHaveLength(27);
  });

  it('stops when a page adds nothing new (an API that ignores its offset)', async () => {
    upstream.on(BRAVE, braveServing([page(0), page(0)]));
    const items = await runProvider(brave(), makeQuery('same', 'web', 45));
    expect(requestsFor('same')).toHaveLength(2);
    expect(items.map((item) => item.url)).toEqual(page(0));
  });

  it('keeps the pages already read when a later page fails', async () => {
    upstream.on(BRAVE, braveServing([page(0)], 500));
    const items = await runProvider(brave(), makeQuery('fails', 'web', 45));
    expect(requestsFor('fails').map((request) => request.url.searchParams.get('offset'))).toContain('1');
    expect(items.map((item) => item.url)).toEqual(page(0));
    // Short of the upstream's end, because of a failure that may pass: the answer is cached only briefly.
    expect(stoppedBeforeEnd(items)).toBe(true);
    expect(laterPageFailed(items)).toBe(true);
  });

  it('says no page failed when every page it asked for answered, however short the last', async () => {
    upstream.on(BRAVE, braveServing([page(0), page(20, 7)]));
    const shortLast = await runProvider(brave(), makeQuery('all answered', 'web', 45));
    expect(shortLast).toHaveLength(27);
    expect(laterPageFailed(shortLast)).toBe(false);
  });

  it('hands its transport what it read before each later page, short of the end, and nothing for one page', async () => {
    upstream.on(BRAVE, braveServing([page(0), page(20), page(40)]));
    const provider = brave();
    const told: ProviderItem[][] = [];
    const real = transportFor(provider);
    // The real transport, and a record of what a deadline passing during a later page would leave the call.
    const transport: UpstreamTransport = { send: (request, signal, read) => real.send(request, signal, read), readSoFar: (items) => void told.push(items) };
    await provider.search(makeQuery('told', 'web', 45), transport, AbortSignal.timeout(10_000));
    expect(told.map((items) => items.map((item) => item.url))).toEqual([page(0), page(0, 40)]);
    expect(told.every(stoppedBeforeEnd)).toBe(true);
    told.length = 0;
    await provider.search(makeQuery('one page', 'web', 20), transport, AbortSignal.timeout(10_000));
    expect(told).toEqual([]);
  });

  it('fails as before when the first page fails', async () => {
    upstream.on(BRAVE, braveServing([], 500));
    await expect(runProvider(brave(), makeQuery('fails', 'web', 45))).rejects.toThrow();
  });
});
