import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect } from '../mcp/mcp-client.js';

/** README.md's advice on MCP for several instances under CapRover: the "MCP over Streamable HTTP" item. */
function readmeMcpReplicaAdvice(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = /^### Several replicas\n([\s\S]*?)^##/m.exec(readme)?.[1] ?? '';
  const item = /^- MCP over Streamable HTTP[\s\S]*?(?=^- )/m.exec(section)?.[0];
  if (!item) throw new Error('README.md: no "MCP over Streamable HTTP" item under "Several replicas"');
  return item.replace(/\s+/g, ' ');
}

/** The settings (`NAME=value`) that item tells operators to set. */
function settingsIn(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/`([A-Z][A-Z0-9_]*)=([^`\s]+)`/g)].map((match) => [match[1]!, match[2]!]));
}

/**
 * Stands for CapRover's nginx in front of a Swarm service: each request goes out on a new connection (nginx's
 * `proxy_pass $upstream` keeps none), with the caller's Host, and the service's virtual IP gives each connection
 * to the next replica. Nothing can pin a client to one replica.
 */
async function startRoundRobinProxy(origins: string[]): Promise<{ origin: string; stop(): Promise<void> }> {
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? '/', origins[next++ % origins.length]);
    const forwarded = httpRequest(target, { method: incoming.method, headers: incoming.headers, agent: false }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('MCP through two replicas behind a CapRover-like proxy, set as README.md says', () => {
  const advice = readmeMcpReplicaAdvice();
  let upstream: FakeUpstream;
  const running: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.parse(braveBody('https://brave.example/replicas')));
  });
  afterAll(async () => {
    for (const service of running.reverse()) await service.stop();
    await upstream.stop();
  });

  async function replicasBehindProxy(settings: Record<string, string>): Promise<string> {
    const env = { ...providerEnv(upstream.origin), BRAVE_API_KEY: 'test-key-1', LOG_LEVEL: 'warn', ...settings };
    const replicas: RunningService[] = [await startService(env), await startService(env)];
    running.push(...replicas);
    const proxy = await startRoundRobinProxy(replicas.map((replica) => replica.origin));
    running.push(proxy);
    return proxy.origin;
  }

  it('does not offer sticky sessions, which CapRover cannot give', () => {
    expect(advice).not.toMatch(/turn on sticky sessions/i);
    expect(settingsIn(advice)).toMatchObject({ MCP_STATELESS: 'true' });
  });

  it('fails with MCP sessions (the default): a session opened on one replica is unknown to the other', async () => {
    const origin = await replicasBehindProxy({});
    const attempt = connect(origin, 'streamable').then(async (connected) => {
      try {
        await connected.client.listTools();
      } finally {
        await connected.close();
      }
    });
    await expect(attempt).rejects.toThrow(/404|session/i);
  });

  it('answers every call with the settings README.md gives, whichever replica each request reaches', async () => {
    const origin = await replicasBehindProxy(settingsIn(advice));
    const connected = await connect(origin, 'streamable');
    try {
      for (let call = 0; call < 4; call += 1) {
        const result = await callTool(connected.client, 'research', { operation: 'web_search', params: { query: `call ${call}`, providers: ['brave'] } });
        expect((result.structuredContent as { results: Array<{ url: string }> }).results.map((entry) => entry.url)).toEqual(['https://brave.example/replicas']);
      }
    } finally {
      await connected.close();
    }
  });
});
