import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveAsChild } from './child-process.js';
import { FAKE_PROVIDER_SPECS, fakeEnv, resultsFor, searchPathOf, type FakeProviderSpec } from './fake-provider-specs.js';

/**
 * Loopback servers that play the web providers with a fixed latency (bench/fake-provider-specs.ts says what
 * each answers). Run as a child process of bench/run.ts.
 */

export interface FakeProvider {
  name: string;
  latencyMs: number;
  origin: string;
  env: Record<string, string>;
}

async function readQuery(request: IncomingMessage): Promise<string> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method === 'GET') return url.searchParams.get('q') ?? url.searchParams.get('srsearch') ?? '';
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: unknown };
  return typeof body.query === 'string' ? body.query : '';
}

async function startFake(spec: FakeProviderSpec): Promise<{ provider: FakeProvider; server: Server }> {
  const path = searchPathOf(spec.name);
  const server = createServer((request, response) => {
    readQuery(request).then(
      (query) => {
        if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== path) {
          response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such path"}');
          return;
        }
        const body = JSON.stringify(spec.body(query, resultsFor(spec.name, query)));
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), spec.latencyMs);
      },
      () => response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad request body"}'),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { provider: { name: spec.name, latencyMs: spec.latencyMs, origin, env: fakeEnv(spec.name, origin) }, server };
}

serveAsChild<void, FakeProvider[]>(async () => {
  const started = await Promise.all(FAKE_PROVIDER_SPECS.map(startFake));
  return {
    payload: started.map(({ provider }) => provider),
    teardown: async () => {
      for (const { server } of started) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
});
