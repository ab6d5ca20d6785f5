import type { ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiters, gatherResults, hearFanOut, type ProvidersInFlight } from '../../src/engine/gather.js';
import type { ProviderReport } from '../../src/engine/provider-pipeline.js';
import type { FlightOffer } from '../../src/engine/single-flight.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { Provider } from '../../src/providers/provider.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { makeQuery } from '../support/run-provider.js';
import { TestProvider, resultsBody } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });

/** What a caller hearing the fan-out late was told, in order: provider, count of items, and whether more came at once. */
type Heard = [provider: string, items: number, moreAtOnce: boolean];

/** The items a provider's answer holds as deep as the fan-out reads it (2): ok gave 3, failing none, held 1. */
const ITEMS: Record<string, number> = { ok: 2, failing: 0, held: 1 };

/**
 * A plain fan-out (no onAnswer) keeps no log of its providers' answers: a caller that comes to hear it while it runs (a
 * stream joining a plain search) hears them from the answers the fan-out itself waits for, offered in one field.
 */
describe('hearFanOut', () => {
  let upstream: FakeUpstream;
  const held: ServerResponse[] = [];
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream
      .json('/ok/search', resultsBody('https://ok.example/1', 'https://ok.example/2', 'https://ok.example/3'))
      .json('/failing/search', { error: 'boom' }, 500)
      .on('/held/search', { kind: 'handler', handle: (_request, response) => void held.push(response) });
  });
  afterAll(() => upstream.stop());

  const provider = (name: string) => new TestProvider(name, `${upstream.origin}/${name}`, { timeoutMs: 10_000 });

  it('tells a caller that comes late the providers already in at once, in the order they finished, then the rest before the fan-out ends', async () => {
    const finished: ProviderReport[] = [];
    const dependencies = {
      transportFor: (asked: Provider) => createUpstreamTransport(asked, { dispatcher: agent, maxBytes: 64 * 1024 }),
      limiterFor: createLimiters(),
      secrets: () => [],
      onOutcome: (report: ProviderReport) => void finished.push(report),
    };
    const offer: FlightOffer<ProvidersInFlight> = { offered: undefined };
    // A depth of 2: a caller hearing late is given each provider's items as deep as the fan-out reads them.
    const gathering = gatherResults([provider('held'), provider('ok'), provider('failing')], makeQuery('late', 'web', 2), { offerTo: offer }, dependencies);
    expect(offer.offered).toHaveLength(3);
    await expect.poll(() => finished.length).toBe(2);
    await expect.poll(() => held.length).toBe(1);

    const heard: Heard[] = [];
    const latencies: number[] = [];
    hearFanOut(offer.offered!, 2, (answer, moreAtOnce) => {
      heard.push([answer.provider.name, answer.items.length, moreAtOnce]);
      latencies.push(answer.outcome.latency_ms);
    });
    const heardBeforeTheEnd = gathering.then(() => heard.slice());
    await expect.poll(() => heard.length).toBe(2);
    // Both at once, the last of them without more at once, the quicker first (the providers were asked together).
    expect(heard.map(([name]) => name).sort()).toEqual(['failing', 'ok']);
    expect(heard.map(([, items, moreAtOnce]) => [items, moreAtOnce])).toEqual([
      [ITEMS[heard[0]![0]], true],
      [ITEMS[heard[1]![0]], false],
    ]);
    expect(latencies[0]).toBeLessThanOrEqual(latencies[1]!);

    held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(resultsBody('https://held.example/1'));
    const answers = await gathering;
    // The held provider, the moment it finished: told before the fan-out's own value was made.
    expect(await heardBeforeTheEnd).toEqual([...heard.slice(0, 2), ['held', 1, false]]);
    expect(answers.map((answer) => [answer.provider.name, answer.outcome.status])).toEqual([
      ['held', 'ok'],
      ['ok', 'ok'],
      ['failing', 'error'],
    ]);
  });

  it('leaves nothing to hear from a fan-out that hears its providers itself', async () => {
    const offer: FlightOffer<ProvidersInFlight> = { offered: undefined };
    const dependencies = {
      transportFor: (asked: Provider) => createUpstreamTransport(asked, { dispatcher: agent, maxBytes: 64 * 1024 }),
      limiterFor: createLimiters(),
      secrets: () => [],
    };
    const told: string[] = [];
    await gatherResults([provider('ok')], makeQuery('heard'), { offerTo: offer, onAnswer: (answer) => void told.push(answer.provider.name) }, dependencies);
    expect(told).toEqual(['ok']);
    expect(offer.offered).toBeUndefined();
  });
});
