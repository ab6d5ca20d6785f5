import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORT_KINDS, callTool, connect } from '../mcp/mcp-client.js';
import { startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { reqId?: string; msg?: string; route?: string };

/**
 * Logs carry a request id on every line (README, LOG_LEVEL): a tool call's lines (its outcome, its providers, its
 * failure) must carry the id of the HTTP request that brought it, so an operator can join them to that request's
 * `request completed` line, which says how long it took, and to the x-request-id its client was given.
 */
describe('the log lines of an MCP tool call', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it.each(TRANSPORT_KINDS)('carry the request id of the HTTP request that carried the call (%s)', async (kind) => {
    const service = await startService({ LOCAL_WEIGHT: '1' });
    services.push(service);
    const connected = await connect(service.origin, kind);
    const result = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: 'provider', providers: ['local'] } });
    expect(result.isError).not.toBe(true);
    await connected.leave();
    await service.stop();

    const lines = service.logs.map((line) => JSON.parse(line) as Line);
    const toolCall = lines.find((line) => line.msg === 'MCP tool call');
    expect(toolCall).toMatchObject({ operation: 'web_search', outcome: 'ok' });
    expect(typeof toolCall!.reqId).toBe('string');
    const carrier = lines.find((line) => line.msg === 'request completed' && line.reqId === toolCall!.reqId);
    expect(carrier).toMatchObject({ route: kind === 'sse' ? '/messages' : '/mcp', req: { method: 'POST' } });
  });
});
