import type { ServerResponse } from 'node:http';
import { FedsearchError } from '../domain/errors.js';
import { Cancellation, type CallerSignal } from '../engine/cancellation.js';

/**
 * Makes a signal with `make` when first asked for, and aborts it with `abort` when the client goes away before
 * the answer is written, so its work stops too. The close listener is added only then: a search answered from
 * the cache never asks, and a listener is among the dearest things such a request would make. Asked for after
 * the client left, it comes already aborted (Node marks the response destroyed when its connection closes).
 */
function lazyOnClientGone<Made>(reply: { raw: ServerResponse }, make: () => Made, abort: (made: Made, reason: FedsearchError) => void): () => Made {
  let made: Made | undefined;
  return () => {
    if (made !== undefined) return made;
    const signal = make();
    made = signal;
    const response = reply.raw;
    if (response.writableFinished) return signal;
    if (response.destroyed) abort(signal, cancelled());
    else {
      response.once('close', () => {
        if (!response.writableFinished) abort(signal, cancelled());
      });
    }
    return signal;
  };
}

/** A cancelled request (499), not a server failure: it must not page anyone. */
function cancelled(): FedsearchError {
  return new FedsearchError('REQUEST_CANCELLED', 'the client closed the connection');
}

/**
 * The client-gone signal of a search: made when first asked for (a search answered from the cache never
 * asks), and an engine Cancellation rather than an AbortSignal, which is among the dearest objects a request
 * would make and which the engine only passes along.
 */
export function lazyClientGoneSignal(reply: { raw: ServerResponse }): () => CallerSignal {
  return lazyOnClientGone(
    reply,
    () => new Cancellation(),
    (cancellation, reason) => cancellation.abort(reason),
  );
}

/** Aborts when the client goes away before the answer is written, so its work (a fetch, an operation) stops too. */
export function clientGoneSignal(reply: { raw: ServerResponse }): AbortSignal {
  return lazyOnClientGone(
    reply,
    () => new AbortController(),
    (controller, reason) => controller.abort(reason),
  )().signal;
}
