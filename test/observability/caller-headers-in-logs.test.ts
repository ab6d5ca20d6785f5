import { afterEach, describe, expect, it } from 'vitest';
import { INITIALIZE_MESSAGE, MCP_POST_HEADERS, rawRequest } from '../mcp/mcp-client.js';
import { startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { reqId?: string; msg?: string };

/** Long enough to stand out, short enough for Node's 16 KB header limit. */
const LONG_NAME = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.`.repeat(12);

/**
 * A refusal's warn line names the Origin or Host that was refused, whose length is the caller's choice: a 12 KB
 * header was a 12 KB line at warn, for each request. Cut as the Host check already cuts its own.
 */
describe('header values a refusal logs', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  function refusalLine(service: RunningService, requestId: string): string {
    const refusal = service.logs.find((line) => {
      const parsed = JSON.parse(line) as Line;
      return parsed.reqId === requestId && /refused/.test(parsed.msg ?? '');
    });
    expect(refusal).toBeDefined();
    return refusal!;
  }

  it('are cut short: a cross-site Origin, an MCP Origin and an MCP Host', async () => {
    const service = await startService({ ALLOWED_HOSTS: '*', MCP_ALLOWED_HOSTS: '127.0.0.1' });
    services.push(service);
    const origin = `https://${LONG_NAME}example`;
    const crossSite = await rawRequest(service.origin, '/v1/search/web?q=rust', {
      headers: { 'sec-fetch-site': 'cross-site', origin, 'x-request-id': 'id-cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const mcpOrigin = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, origin, 'x-request-id': 'id-mcp-origin' },
      body: INITIALIZE_MESSAGE,
    });
    expect(mcpOrigin.status).toBe(403);
    const mcpHost = await rawRequest(service.origin, '/mcp', {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, host: `${LONG_NAME}example`, 'x-request-id': 'id-mcp-host' },
      body: INITIALIZE_MESSAGE,
    });
    expect(mcpHost.status).toBe(403);
    await service.stop();

    for (const [requestId, field] of [['id-cross-site', 'origin'], ['id-mcp-origin', 'origin'], ['id-mcp-host', 'host']] as const) {
      const line = refusalLine(service, requestId);
      expect(line.length).toBeLessThan(1000);
      // Still named, in part: enough to tell one caller's refusals from another's.
      expect((JSON.parse(line) as Record<string, string>)[field]).toMatch(/^(https:\/\/)?a{60}\./);
    }
  });
});
