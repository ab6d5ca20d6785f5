import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFetchTarget } from '../../src/fetch/fetch-target.js';
import { callerLookups } from '../../src/fetch/lookup-slots.js';
import { HeldResolver } from '../support/held-resolver.js';
import { callOperation, request, startService, type RunningService } from '../support/service.js';

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * Lookups of the hosts callers name wait for a few process-wide slots (src/fetch/lookup-slots.ts): a caller naming
 * hosts whose DNS never answers makes other callers' fetches queue and time out. Operators see the queue on /metrics,
 * and the caller whose fetch ran out of time in it is told so, not left to blame the site.
 */
describe('the DNS lookup queue of fetched hosts', () => {
  const held = new HeldResolver();
  let service: RunningService;
  const metrics = async () => (await request(service.origin, '/metrics')).text();

  beforeAll(async () => {
    service = await startService({ FETCH_TIMEOUT_MS: '200', LOG_LEVEL: 'silent' }, undefined, { resolveHost: held.lookup });
  });
  afterAll(async () => {
    // The slots are the process's: every held lookup is answered, so the next test file finds them free.
    held.answerAll();
    await service.stop();
  });

  it('shows lookups running and waiting and counts fetches out of time in the queue; the caller is told it was the queue', async () => {
    const timeoutsBefore = sample(await metrics(), 'fedsearch_fetch_dns_slot_timeouts_total') ?? 0;
    const busy = Array.from({ length: callerLookups.size }, (_, index) => `busy${index}.dead-zone.test`);
    const busyCalls = busy.map((hostname) => callOperation(service, 'fetch_url', { url: `http://${hostname}/`, engine: 'direct' }));
    await held.untilStarted(callerLookups.size);

    const late = await callOperation(service, 'fetch_url', { url: 'http://late.test/page', engine: 'direct' });
    const text = await late.text();
    expect(late.status).toBe(504);
    const body = JSON.parse(text);
    expect(body.code).toBe('FETCH_TIMEOUT');
    expect(body.message).toMatch(/^fetching http:\/\/late\.test\/page took longer than 200 ms \(waiting \d+ ms for a DNS lookup slot: other fetches' lookups were still running\)$/);
    for (const hostname of busy) expect(text).not.toContain(hostname);

    // The fetches that took the slots have given up by now, but their lookups still hold the slots.
    for (const call of await Promise.all(busyCalls)) expect(call.status).toBe(504);
    const queued = checkFetchTarget('http://queued.test/', { lookup: held.lookup });
    const during = await metrics();
    expect(sample(during, 'fedsearch_fetch_dns_lookups{state="running"}')).toBe(callerLookups.size);
    expect(sample(during, 'fedsearch_fetch_dns_lookups{state="waiting"}')).toBe(1);
    expect(sample(during, 'fedsearch_fetch_dns_slot_timeouts_total')).toBe(timeoutsBefore + 1);

    held.answerAll();
    await queued;
    const after = await metrics();
    expect(sample(after, 'fedsearch_fetch_dns_lookups{state="running"}')).toBe(0);
    expect(sample(after, 'fedsearch_fetch_dns_lookups{state="waiting"}')).toBe(0);
    expect(sample(after, 'fedsearch_fetch_dns_slot_timeouts_total')).toBe(timeoutsBefore + 1);
  });
});
