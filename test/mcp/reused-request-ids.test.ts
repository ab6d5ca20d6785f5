import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { PendingRequests } from '../../src/mcp/pending-requests.js';

const CALL: JSONRPCMessage = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'research', arguments: {} } };
const ANSWER: JSONRPCMessage = { jsonrpc: '2.0', id: 7, result: { content: [] } };

/** Whether `promise` has settled once every message already queued has been handled. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return settled;
}

describe('a client that reuses the JSON-RPC id of a call still running in its session', () => {
  it('has each call waited for on its own: the first answer does not end the wait for the second', async () => {
    // The SDK's own linked transports: what the client sends arrives at the server side's onmessage.
    const [client, server] = InMemoryTransport.createLinkedPair();
    const pending = new PendingRequests(server);
    await server.start();
    await client.start();
    try {
      await client.send(CALL);
      await client.send(CALL);
      await expect.poll(() => pending.size).toBe(2);

      const answered = pending.answered();
      await server.send(ANSWER);
      expect(pending.size).toBe(1);
      // The shutdown waits on: the second call with that id is still running.
      expect(await settledYet(answered)).toBe(false);

      await server.send(ANSWER);
      expect(pending.size).toBe(0);
      await answered;
    } finally {
      await client.close();
    }
  });
});
