import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerLookups } from '../../src/fetch/lookup-slots.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { HeldResolver } from '../support/held-resolver.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const SLOT_WAIT = String.raw`\(waiting \d+ ms for a DNS lookup slot: other fetches' lookups were still running\)`;

/**
 * A fetch cut by the caller's own deadline (timeout_ms) while queued for a DNS lookup slot (src/fetch/lookup-slots.ts)
 * is told it was the queue, and counted, whichever path checked its host: paper_read's download, and fetch_url's check
 * before Firecrawl is sent the URL.
 */
describe("a fetch cut by the caller's deadline while queued for a DNS lookup slot", () => {
  const held = new HeldResolver();
  let upstream: FakeUpstream;
  let service: RunningService;
  const timeouts = async () => sample(await (await request(service.origin, '/metrics')).text(), 'fedsearch_fetch_dns_slot_timeouts_total') ?? 0;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService(
      { ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', FETCH_TIMEOUT_MS: '5000', LOG_LEVEL: 'silent' },
      undefined,
      { resolveHost: held.lookup },
    );
    // Every slot taken by a lookup that never answers: the fetches that took them give up, their lookups do not.
    const busy = Array.from({ length: callerLookups.size }, (_, index) => callOperation(service, 'fetch_url', { url: `http://busy${index}.dead-zone.test/`, engine: 'direct', timeout_ms: 100 }));
    await held.untilStarted(callerLookups.size);
    await Promise.all(busy);
  });
  afterAll(async () => {
    // The slots are the process's: every held lookup is answered, so the next test file finds them free.
    held.answerAll();
    await service.stop();
    await upstream.stop();
  });

  it('paper_read of a URL says it waited for a slot, and is counted', async () => {
    const before = await timeouts();
    const response = await callOperation(service, 'paper_read', { url: 'http://late-paper.test/paper.pdf', timeout_ms: 150 });
    const body = (await response.json()) as { code: string; message: string };
    expect(response.status).toBe(504);
    expect(body.code).toBe('FETCH_TIMEOUT');
    expect(body.message).toMatch(new RegExp(String.raw`^fetching http://late-paper\.test/paper\.pdf took longer than \d+ ms ${SLOT_WAIT}$`));
    expect(await timeouts()).toBe(before + 1);
  });

  it('fetch_url through Firecrawl, whose host is checked here first, says it waited for a slot, and is counted', async () => {
    const before = await timeouts();
    const response = await callOperation(service, 'fetch_url', { url: 'http://late-firecrawl.test/page', engine: 'firecrawl', timeout_ms: 150 });
    const body = (await response.json()) as { code: string; message: string };
    expect(response.status).toBe(504);
    expect(body.code).toBe('FETCH_TIMEOUT');
    expect(body.message).toMatch(new RegExp(String.raw`^resolving the host of http://late-firecrawl\.test/page took longer than 150 ms ${SLOT_WAIT}$`));
    expect(await timeouts()).toBe(before + 1);
    // Firecrawl was never sent a URL whose host was not checked.
    expect(upstream.requests.filter((entry) => entry.path.startsWith('/firecrawl'))).toEqual([]);
  });
});
