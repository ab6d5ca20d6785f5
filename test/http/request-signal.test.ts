import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { lazyClientGoneSignal } from '../../src/http/request-signal.js';

/** A real server whose one request is held: the test decides when to answer and when to ask for the signal. */
async function heldRequest(): Promise<{ response: ServerResponse; closed: Promise<void>; client: AbortController; stop(): void }> {
  let held!: (response: ServerResponse) => void;
  const arrived = new Promise<ServerResponse>((resolve) => (held = resolve));
  const server = createServer((_request, response) => held(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new AbortController();
  fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: client.signal }).catch(() => undefined);
  const response = await arrived;
  const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
  return { response, closed, client, stop: () => server.close() };
}

describe('lazyClientGoneSignal', () => {
  it('makes a signal aborted as cancelled when asked for after the client left', async () => {
    const held = await heldRequest();
    const signal = lazyClientGoneSignal({ raw: held.response });
    held.client.abort();
    await held.closed;
    const made = signal();
    expect(made.aborted).toBe(true);
    expect(made.reason).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(signal()).toBe(made);
    held.stop();
  });

  it('aborts a signal asked for earlier when the client leaves, and not one whose answer was written', async () => {
    const left = await heldRequest();
    const early = lazyClientGoneSignal({ raw: left.response })();
    expect(early.aborted).toBe(false);
    left.client.abort();
    await left.closed;
    expect(early.aborted).toBe(true);
    left.stop();

    const answered = await heldRequest();
    const signal = lazyClientGoneSignal({ raw: answered.response });
    answered.response.end('done');
    await answered.closed;
    expect(signal().aborted).toBe(false);
    answered.stop();
  });

  it('adds no close listener to the response until the signal is asked for', async () => {
    const held = await heldRequest();
    const listeners = held.response.listenerCount('close');
    const signal = lazyClientGoneSignal({ raw: held.response });
    expect(held.response.listenerCount('close')).toBe(listeners);
    const made = signal();
    expect(held.response.listenerCount('close')).toBe(listeners + 1);
    held.client.abort();
    await held.closed;
    expect(made.aborted).toBe(true);
    held.stop();
  });
});
