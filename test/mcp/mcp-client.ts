import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request as httpRequest } from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';

export type TransportKind = 'sse' | 'streamable';
export const TRANSPORT_KINDS: TransportKind[] = ['sse', 'streamable'];

export interface Connected {
  client: Client;
  transport: SSEClientTransport | StreamableHTTPClientTransport;
  /** Goes away without a word, as a client whose user quit; its sockets go too. */
  close(): Promise<void>;
  /** Leaves as a well-behaved client: Streamable HTTP says goodbye with DELETE first. */
  leave(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent with every request (an API key, say). */
  headers?: Record<string, string>;
  /** Streamable HTTP: goes on with this session, opened before (the SDK then sends no initialize), as a client come back. */
  sessionId?: string;
}

/**
 * The official SDK client over real HTTP: legacy SSE on /sse or Streamable HTTP on /mcp. Each client has
 * its own connection pool, closed with it: a socket left open by the client would hold the service's close.
 */
export async function connect(origin: string, kind: TransportKind, options: ConnectOptions = {}): Promise<Connected> {
  const agent = new Agent();
  const fetchThroughAgent = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
  const client = new Client({ name: 'fedsearch-test', version: '0.0.0' });
  const shared = { fetch: fetchThroughAgent, requestInit: { headers: options.headers } };
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(new URL('/sse', origin), { ...shared, eventSourceInit: { fetch: fetchThroughAgent } })
      : new StreamableHTTPClientTransport(new URL('/mcp', origin), { ...shared, sessionId: options.sessionId });
  try {
    await client.connect(transport);
  } catch (error) {
    await agent.destroy();
    throw error;
  }
  const close = async (): Promise<void> => {
    await client.close();
    await agent.destroy();
  };
  const leave = async (): Promise<void> => {
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
    await close();
  };
  return { client, transport, close, leave };
}

/** callTool with the result typed as a tool result (the SDK's union also admits the legacy toolResult shape). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export function braveBody(...urls: string[]): string {
  return JSON.stringify({
    type: 'search',
    web: { type: 'search', results: urls.map((url, index) => ({ title: `Brave ${index + 1}`, url, description: 'about providers' })) },
  });
}

/** One raw HTTP request with any headers (fetch will not send a custom Host). */
export function rawRequest(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, origin), { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export const MCP_POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A client's first message, as a raw request sends it. */
export const INITIALIZE_MESSAGE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fedsearch-test', version: '0.0.0' } },
});

export const LIST_TOOLS_MESSAGE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** The Mcp-Session-Id a Streamable HTTP client was given (an SSE session is named inside its stream instead). */
export function streamableSessionId(connected: Connected): string | undefined {
  return connected.transport instanceof StreamableHTTPClientTransport ? connected.transport.sessionId : undefined;
}
