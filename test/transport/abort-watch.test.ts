import { getEventListeners } from 'node:events';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { CallDeadline } from '../../src/engine/call-deadline.js';
import { Cancellation } from '../../src/engine/cancellation.js';
import { ProviderTimeout } from '../../src/engine/provider-outcome.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import { AbortListeners, listenForAbort, offerAbortWatch, stopListeningForAbort, type AbortListener, type AbortWatch } from '../../src/transport/abort-watch.js';
import { exchange } from '../../src/transport/upstream-exchange.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { TestProvider } from '../support/test-provider.js';
import { asResponse } from '../support/upstream-read.js';

const agent = new Agent({ keepAliveTimeout: 500 });
afterAll(() => agent.close());

/** A watch that records what was added and removed, and fires like the real one. */
class RecordingWatch implements AbortWatch {
  readonly added: AbortListener[] = [];
  readonly removed: AbortListener[] = [];
  private readonly listeners = new AbortListeners();
  add(listener: AbortListener): void {
    this.added.push(listener);
    this.listeners.add(listener);
  }
  remove(listener: AbortListener): void {
    this.removed.push(listener);
    this.listeners.remove(listener);
  }
  fire(): void {
    this.listeners.fire();
  }
}

describe('listening for an abort', () => {
  it('goes to the signal itself when its owner offers no watch, and can be undone there', () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const kept = { handleEvent: () => heard.push('kept') };
    const dropped = () => heard.push('dropped');
    listenForAbort(controller.signal, kept);
    listenForAbort(controller.signal, dropped);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(2);
    stopListeningForAbort(controller.signal, dropped);
    controller.abort();
    controller.abort();
    expect(heard).toEqual(['kept']);
  });

  it("goes to the owner's watch when one is offered, adding nothing to the signal", () => {
    const controller = new AbortController();
    const watch = new RecordingWatch();
    offerAbortWatch(controller.signal, watch);
    const heard: string[] = [];
    const listener = () => heard.push('heard');
    listenForAbort(controller.signal, listener);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(watch.added).toEqual([listener]);
    stopListeningForAbort(controller.signal, listener);
    expect(watch.removed).toEqual([listener]);
    watch.fire();
    expect(heard).toEqual([]);
  });
});

describe('an upstream request on a watched signal', () => {
  const upstream = useFakeUpstream();

  it('takes its place in the watch while in flight and leaves it when answered', async () => {
    upstream.json('/answer', { ok: true });
    const controller = new AbortController();
    const watch = new RecordingWatch();
    offerAbortWatch(controller.signal, watch);
    const errors = { tooLarge: () => new Error('too large'), failed: (error: unknown) => error };
    const body = await exchange(agent, { url: `${upstream.origin}/answer`, method: 'GET', headers: {} }, controller.signal, 1024, errors, (result) =>
      result.body.toString('utf8'),
    );
    expect(JSON.parse(body)).toEqual({ ok: true });
    expect(watch.added).toHaveLength(1);
    expect(watch.removed).toEqual(watch.added);
  });

  it("is cut when the calls' deadline passes or their caller goes away, heard through the deadline's watch", async () => {
    upstream.on('/slow-deadline', { kind: 'hang' });
    upstream.on('/slow-caller', { kind: 'hang' });
    const transport = createUpstreamTransport(new TestProvider('someapi', upstream.origin), { dispatcher: agent, maxBytes: 1024 });

    const timed = new CallDeadline(100);
    const timedOut = transport.send({ url: `${upstream.origin}/slow-deadline` }, timed.signal, asResponse);
    await expect.poll(() => upstream.requests.some((request) => request.path === '/slow-deadline')).toBe(true);
    expect(getEventListeners(timed.signal, 'abort')).toHaveLength(0);
    await expect(timedOut).rejects.toBeInstanceOf(ProviderTimeout);
    await expect.poll(() => upstream.abortedPaths).toContain('/slow-deadline');

    const caller = new Cancellation();
    const shared = new CallDeadline(60_000, caller);
    const left = transport.send({ url: `${upstream.origin}/slow-caller` }, shared.signal, asResponse);
    await expect.poll(() => upstream.requests.some((request) => request.path === '/slow-caller')).toBe(true);
    const reason = new Error('the client went away');
    caller.abort(reason);
    await expect(left).rejects.toBe(reason);
    await expect.poll(() => upstream.abortedPaths).toContain('/slow-caller');
    shared.finish();
  });

  it('ends at its abort while it still waits for a connection, not when undici gets round to writing it', async () => {
    // One connection to the origin: while a slow request holds it, the next waits inside undici, unwritten.
    const single = new Agent({ connections: 1, keepAliveTimeout: 500 });
    upstream.on('/holds-the-connection', { kind: 'respond', status: 200, body: 'slow', delayMs: 1500 });
    upstream.json('/queued', { ok: true });
    const errors = { tooLarge: () => new Error('too large'), failed: (error: unknown) => error };
    const send = (path: string, signal: AbortSignal) =>
      exchange(single, { url: `${upstream.origin}${path}`, method: 'GET', headers: {} }, signal, 1024, errors, (result) => result.body.toString('utf8'));
    const slow = send('/holds-the-connection', new AbortController().signal).then(() => 'the slow request answered first');
    await expect.poll(() => upstream.requests.some((request) => request.path === '/holds-the-connection')).toBe(true);
    const controller = new AbortController();
    const reason = new Error('deadline');
    const queued = send('/queued', controller.signal).then(
      () => 'the queued request was answered',
      (error: unknown) => (error === reason ? 'the queued request ended at its abort' : `rejected otherwise: ${String(error)}`),
    );
    controller.abort(reason);
    expect(await Promise.race([queued, slow])).toBe('the queued request ended at its abort');
    await slow;
    // Never sent: undici dropped it when its turn came.
    expect(upstream.requests.some((request) => request.path === '/queued')).toBe(false);
    await single.close();
  });

  it('is cut when the calls it belongs to are over: nothing is left running after a fan-out ends', async () => {
    upstream.on('/left-running', { kind: 'hang' });
    const transport = createUpstreamTransport(new TestProvider('someapi', upstream.origin), { dispatcher: agent, maxBytes: 1024 });
    const deadline = new CallDeadline(60_000);
    const leftover = transport.send({ url: `${upstream.origin}/left-running` }, deadline.signal, asResponse);
    await expect.poll(() => upstream.requests.some((request) => request.path === '/left-running')).toBe(true);
    deadline.finish();
    await expect(leftover).rejects.toMatchObject({ name: 'AbortError', message: 'the provider call is over' });
    await expect.poll(() => upstream.abortedPaths).toContain('/left-running');
  });
});
