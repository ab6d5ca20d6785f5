import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { SseReader } from '../support/sse-reader.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';

type LogLine = { level: number; msg: string; reqId?: string; provider?: { provider: string; code?: string } };

/**
 * A client that goes away mid-search is no failure of ours nor of the providers': its provider calls are let go
 * (each upstream sees its request aborted), and the lines logged for it say it was cancelled, never that a
 * provider answered with an error.
 */
describe('the log of a search whose client went away', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, { kind: 'hang' }).on(SEARXNG, { kind: 'hang' });
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-cancel-key-0123456789', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const lines = (): LogLine[] => service.logs.map((line) => JSON.parse(line) as LogLine);
  const askedFor = (words: string) => (path: string) => upstream.requestsTo(path).some((recorded) => recorded.url.searchParams.get('q') === words);

  /** The provider lines of the request that searched for `words`, once both providers' are written. */
  const providerLinesOf = async (words: string): Promise<LogLine[]> => {
    const ofRequest = (): LogLine[] => {
      const all = lines();
      const requestId = all.find((line) => line.msg === 'request aborted by the client' && JSON.stringify(line).includes(words.replace(/ /g, '+')))?.reqId;
      return requestId === undefined ? [] : all.filter((line) => line.reqId === requestId && line.provider !== undefined);
    };
    await expect.poll(() => ofRequest().length).toBe(2);
    return ofRequest();
  };

  const expectCancelledLines = (providerLines: LogLine[]): void => {
    expect(providerLines.map((line) => line.provider!.provider).sort()).toEqual(['brave', 'searxng']);
    for (const line of providerLines) {
      expect(line.provider!.code).toBe('REQUEST_CANCELLED');
      expect(line.msg).toBe(`provider ${line.provider!.provider}: cancelled`);
      expect(line.level).toBeLessThan(40);
    }
  };

  it('over REST: the upstream requests are aborted and the provider lines say cancelled', async () => {
    const words = 'rest gone';
    const abortedBefore = upstream.abortedPaths.length;
    const client = new AbortController();
    const pending = fetch(`${service.origin}/v1/search/web?q=${words.replace(/ /g, '+')}&providers=brave,searxng&timeout_ms=30000`, { signal: client.signal }).catch(
      (error: unknown) => error,
    );
    await expect.poll(() => [BRAVE, SEARXNG].every(askedFor(words))).toBe(true);
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => upstream.abortedPaths.slice(abortedBefore).sort()).toEqual([BRAVE, SEARXNG]);
    expectCancelledLines(await providerLinesOf(words));
  });

  it('over the stream: the same', async () => {
    const words = 'stream gone';
    const abortedBefore = upstream.abortedPaths.length;
    const client = new AbortController();
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=${words.replace(/ /g, '+')}&providers=brave,searxng&timeout_ms=30000`, { signal: client.signal });
    const events = new SseReader(response.body!);
    expect(await events.next()).toEqual({ comment: 'fedsearch search stream' });
    await expect.poll(() => [BRAVE, SEARXNG].every(askedFor(words))).toBe(true);
    client.abort();
    await expect.poll(() => upstream.abortedPaths.slice(abortedBefore).sort()).toEqual([BRAVE, SEARXNG]);
    expectCancelledLines(await providerLinesOf(words));
  });
});
