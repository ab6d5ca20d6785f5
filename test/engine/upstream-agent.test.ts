import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamAgent } from '../../src/engine/upstream-transport.js';

/** More than any per-origin socket cap the pool once had (64), and under the highest `<NAME>_CONCURRENCY` (256). */
const IN_FLIGHT = 100;

describe('the shared upstream connection pool', () => {
  // Answers nobody until IN_FLIGHT requests are open at once: a pool that caps sockets per origin below that never gets an answer.
  const waiting: ServerResponse[] = [];
  const server = createServer((_request, response) => {
    waiting.push(response);
    if (waiting.length === IN_FLIGHT) for (const held of waiting.splice(0)) held.end('ok');
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('leaves the bound on requests in flight to each provider\'s concurrency limit, not to a socket cap per origin', async () => {
    const agent = createUpstreamAgent();
    try {
      // The timeout only bounds a failing run; success is every request answered.
      const signal = AbortSignal.timeout(10_000);
      const answers = await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          const response = await request(origin, { dispatcher: agent, signal });
          return response.body.text();
        }),
      );
      expect(answers).toEqual(Array.from({ length: IN_FLIGHT }, () => 'ok'));
    } finally {
      await agent.close();
    }
  });
});
