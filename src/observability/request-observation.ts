import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Requests no route matched share one label, so scanners cannot mint a series per URL. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * For every request: its id goes back in `x-request-id` (what a caller quotes when reporting an error; the
 * log lines carry the same id), and its answer is counted by route pattern and status code, or as aborted when its
 * client left first. Register before
 * access control and routes, so rejected requests get both too.
 */
export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  // Callback hooks, not async ones: they run on every request and need no promise.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.recordHttpRequest({
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  // A client that left before its answer gets none, so onResponse never runs: a search abandoned for being slow would
  // otherwise leave no count at all. (Fastify already listens for the abort, for the log line of logAbortedRequests.)
  app.addHook('onRequestAbort', (request, done) => {
    metrics.recordAbortedRequest({ method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE });
    done();
  });
}
