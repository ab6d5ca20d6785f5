import type { ServerResponse } from 'node:http';
import { FedsearchError } from '../domain/errors.js';

/**
 * Aborts when the client goes away before the answer is written, so its fan-out stops too. The signal, and the
 * listener that aborts it, are made when first asked for: a search answered from the cache never asks, and an
 * AbortSignal and a close listener are among the dearest things such a request would make. Asked for after the
 * client left, it comes already aborted (Node marks the response destroyed when its connection closes).
 */
export function lazyClientGoneSignal(reply: { raw: ServerResponse }): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (controller) return controller.signal;
    const made = new AbortController();
    controller = made;
    const response = reply.raw;
    if (response.writableFinished) return made.signal;
    if (response.destroyed) made.abort(cancelled());
    else {
      response.once('close', () => {
        if (!response.writableFinished) made.abort(cancelled());
      });
    }
    return made.signal;
  };
}

/** A cancelled request (499), not a server failure: it must not page anyone. */
function cancelled(): FedsearchError {
  return new FedsearchError('REQUEST_CANCELLED', 'the client closed the connection');
}

/** Aborts when the client goes away before the answer is written, so its fan-out stops too. */
export function clientGoneSignal(reply: { raw: ServerResponse }): AbortSignal {
  return lazyClientGoneSignal(reply)();
}
