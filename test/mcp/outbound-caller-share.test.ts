import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBraveAtOnePerSecond } from '../support/arrivals.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import type { RunningService } from '../support/service.js';
import { callTool, connect, type Connected } from './mcp-client.js';

const KEY_A = 'mcp-caller-a-0123456789';
const KEY_B = 'mcp-caller-b-0123456789';

interface SearchAnswer {
  providers: Array<{ provider: string; status: string; message?: string }>;
}

/** The MCP side of the outbound share per caller: a tool call's searches count for the API key that sent it. */
describe('MCP searches under an outbound rate limit (BRAVE_RATE_LIMIT=1/s) share it between callers', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let callerA: Connected;
  let callerB: Connected;
  let arrivals: number[];

  beforeAll(async () => {
    ({ upstream, service, arrivals } = await startBraveAtOnePerSecond([KEY_A, KEY_B]));
    callerA = await connect(service.origin, 'streamable', { headers: { authorization: `Bearer ${KEY_A}` } });
    callerB = await connect(service.origin, 'streamable', { headers: { authorization: `Bearer ${KEY_B}` } });
  });
  afterAll(async () => {
    await callerA?.close();
    await callerB?.close();
    await service.stop();
    await upstream.stop();
  });

  const braveOf = async (connected: Connected, query: string, timeoutMs: number) => {
    const result = await callTool(connected.client, 'research', { operation: 'web_search', params: { query, providers: ['brave'], timeout_ms: timeoutMs } });
    return (result.structuredContent as unknown as SearchAnswer).providers[0]!;
  };

  /** Starts `count` tool calls of one caller at once; `refused` settles when the first is answered rate_limited. */
  const burst = (connected: Connected, label: string, count: number) => {
    let heardRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (heardRefusal = resolve));
    const outcomes = Promise.all(
      Array.from({ length: count }, (_, index) =>
        braveOf(connected, `${label} ${index}`, 4000).then((outcome) => {
          if (outcome.status === 'rate_limited') heardRefusal();
          return outcome;
        }),
      ),
    );
    return { refused, outcomes };
  };

  it("gives the second key's first search a slot the first held past its share, and room while the first keeps bursting", async () => {
    const first = burst(callerA, 'mcp first burst', 10);
    await first.refused;
    // B finds no slot of its own before its 3 s deadline: A holds more than its share of them, and gives one up.
    expect((await braveOf(callerB, 'mcp caller b first', 3000)).status).toBe('ok');
    // A's first waiting search is sent (a slot has passed); then A bursts again.
    const sentBefore = arrivals.length;
    const giveUpAt = performance.now() + 3000;
    while (arrivals.length === sentBefore) {
      if (performance.now() > giveUpAt) throw new Error('no Brave request within 3 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = burst(callerA, 'mcp second burst', 10);
    await second.refused;
    expect((await braveOf(callerB, 'mcp caller b again', 4000)).status).toBe('ok');
    const fromA = [...(await first.outcomes), ...(await second.outcomes)];
    expect(fromA.filter((outcome) => outcome.status === 'rate_limited').some((outcome) => /this caller already has its share/.test(outcome.message ?? ''))).toBe(true);
  });
});
