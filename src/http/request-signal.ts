import type { ServerResponse } from 'node:http';
import { FedsearchError } from '../domain/errors.js';

/**
 * Aborts when the client goes away before the answer is written, so its fan-out stops too. The signal is made
 * when first asked for: a search answered from the cache never asks, and an AbortSignal is among the dearest
 * objects such a request would make. Asked for after the client left, it comes already aborted.
 */
export function lazyClientGoneSignal(reply: { raw: ServerResponse }): () => AbortSignal {
  let controller: AbortController | undefined;
  let gone: FedsearchError | undefined;
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    // A cancelled request (499), not a server failure: it must not page anyone.
    gone = new FedsearchError('REQUEST_CANCELLED', 'the client closed the connection');
    controller?.abort(gone);
  });
  return () => {
    if (!controller) {
      controller = new AbortController();
      if (gone) controller.abort(gone);
    }
    return controller.signal;
  };
}

/** Aborts when the client goes away before the answer is written, so its fan-out stops too. */
export function clientGoneSignal(reply: { raw: ServerResponse }): AbortSignal {
  return lazyClientGoneSignal(reply)();
}
