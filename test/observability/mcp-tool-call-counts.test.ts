import { afterEach, describe, expect, it } from 'vitest';
import { callTool, connect } from '../mcp/mcp-client.js';
import { request, startService, type RunningService } from '../support/service.js';

/** The fedsearch_mcp_tool_call sample lines of a scrape (histogram buckets left out), by series. */
async function toolCallSeries(service: RunningService): Promise<Map<string, number>> {
  const text = await (await request(service.origin, '/metrics')).text();
  const samples = text.split('\n').filter((line) => line.startsWith('fedsearch_mcp_tool_call') && !line.includes('_bucket{'));
  return new Map(samples.map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]));
}

/**
 * A tool call travels in a POST /mcp that answers 200 whether the tool worked or not: failing tools show on /metrics
 * only in a series of their own, by tool, operation and outcome. Its tool and operation labels are registered names,
 * never the caller's.
 */
describe('MCP tool call counts', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it('count each tool call by tool, operation and outcome, with its duration, and no series for a tool or operation that does not exist', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', LOG_LEVEL: 'silent' });
    services.push(service);
    const connected = await connect(service.origin, 'streamable');
    try {
      const ok = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: 'provider', providers: ['local'] } });
      expect(ok.isError).not.toBe(true);
      const failed = await callTool(connected.client, 'research', { operation: 'no_such_operation' });
      expect(failed.isError).toBe(true);
      const invalid = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: '' } });
      expect(invalid.isError).toBe(true);
      // A read, told from the searches by its operation though the tool is the same.
      const read = await callTool(connected.client, 'research', { operation: 'paper_read', params: {} });
      expect(read.isError).toBe(true);
      const before = await toolCallSeries(service);
      for (let index = 0; index < 20; index += 1) {
        const unknown = await callTool(connected.client, `made_up_tool_${index}`, {});
        expect(unknown.isError).toBe(true);
      }
      for (let index = 0; index < 20; index += 1) {
        const madeUp = await callTool(connected.client, 'research', { operation: `made_up_operation_${index}` });
        expect(madeUp.isError).toBe(true);
      }
      const after = await toolCallSeries(service);
      // Neither a made-up tool nor a made-up operation makes a series: the first is not counted, the second is
      // counted under the one fixed operation="none".
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      expect([...after.keys()].filter((name) => name.includes('made_up'))).toEqual([]);
      const noOperation = 'fedsearch_mcp_tool_calls_total{tool="research",operation="none",outcome="error"}';
      expect(after.get('fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="ok"}')).toBe(1);
      expect(after.get('fedsearch_mcp_tool_calls_total{tool="research",operation="web_search",outcome="error"}')).toBe(1);
      expect(after.get(noOperation)).toBe(21);
      expect(after.get('fedsearch_mcp_tool_calls_total{tool="research",operation="paper_read",outcome="error"}')).toBe(1);
      expect(after.get('fedsearch_mcp_tool_call_duration_seconds_count{tool="research",operation="web_search",outcome="ok"}')).toBe(1);
      expect(after.get('fedsearch_mcp_tool_call_duration_seconds_count{tool="research",operation="web_search",outcome="error"}')).toBe(1);
      expect(after.get('fedsearch_mcp_tool_call_duration_seconds_sum{tool="research",operation="web_search",outcome="ok"}')).toBeGreaterThan(0);
    } finally {
      await connected.leave();
    }
  });

  it('name the tool called when each operation is a tool of its own (MCP_TOOLS=split)', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', LOG_LEVEL: 'silent', MCP_TOOLS: 'split' });
    services.push(service);
    const connected = await connect(service.origin, 'sse');
    try {
      expect((await callTool(connected.client, 'web_search', { query: 'provider', providers: ['local'] })).isError).not.toBe(true);
      expect((await callTool(connected.client, 'web_search', { query: 'provider', providers: ['local'] })).isError).not.toBe(true);
      expect((await callTool(connected.client, 'list_operations', { unexpected: true })).isError).toBe(true);
      const series = await toolCallSeries(service);
      expect(series.get('fedsearch_mcp_tool_calls_total{tool="web_search",operation="web_search",outcome="ok"}')).toBe(2);
      expect(series.get('fedsearch_mcp_tool_calls_total{tool="list_operations",operation="list_operations",outcome="error"}')).toBe(1);
      expect([...series.keys()].filter((name) => name.startsWith('fedsearch_mcp_tool_calls_total'))).toHaveLength(2);
    } finally {
      await connected.leave();
    }
  });
});
