import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Requests no route matched share one label, so scanners cannot mint a series per URL. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * For every request: its id goes back in `x-request-id` (what a caller quotes when reporting an error; the
 * log lines carry the same id), and its answer is counted by route pattern and status code. Register before
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
}
