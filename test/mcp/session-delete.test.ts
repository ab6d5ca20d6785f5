import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSessionCounts } from '../../src/mcp/register.js';
import { startService, type RunningService } from '../support/service.js';
import { INITIALIZE_MESSAGE, LIST_TOOLS_MESSAGE, MCP_POST_HEADERS, rawRequest } from './mcp-client.js';

describe('DELETE /mcp from a client that sends Content-Type: application/json on every request', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('ends the session (the empty body is no malformed JSON), and the id is unknown afterwards', async () => {
    const opened = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: MCP_POST_HEADERS, body: INITIALIZE_MESSAGE });
    expect(opened.status).toBe(200);
    const sessionHeaders = { ...MCP_POST_HEADERS, 'mcp-session-id': opened.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
    expect(mcpSessionCounts(service.app).streamable).toBe(1);

    // As Python clients send it: their common headers (Accept, Content-Type) go with the DELETE too.
    const deleted = await rawRequest(service.origin, '/mcp', { method: 'DELETE', headers: sessionHeaders });
    expect(deleted.status).toBe(200);
    expect(mcpSessionCounts(service.app).streamable).toBe(0);

    const reused = await rawRequest(service.origin, '/mcp', { method: 'POST', headers: sessionHeaders, body: LIST_TOOLS_MESSAGE });
    expect(reused.status).toBe(404);
    expect(JSON.parse(reused.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
  });
});
