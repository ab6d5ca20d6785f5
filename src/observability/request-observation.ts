import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

/** Requests no route matched share one label, so scanners cannot mint a series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The method and route of what Node could not read as a request at all (http/client-error.ts): none was made. */
export const UNPARSED_LABELS = { method: 'UNPARSED', route: 'unparsed' } as const;

/** What a request is counted under: its method (one Node's parser knows: a bounded set) and its route's pattern. */
export interface RequestLabels {
  method: string;
  route: string;
}

/**
 * For every request: its id goes back in `x-request-id` (what a caller quotes when reporting an error; the
 * log lines carry the same id), and its answer is counted by route pattern and status code, or as aborted when its
 * client left first. Register before
 * access control and routes, so rejected requests get both too. `answeredElsewhere` tells a request whose connection
 * closed because it was answered, and counted, past the app (http/client-error.ts) from one whose client left.
 */
export function observeRequests(app: FastifyInstance, metrics: Metrics, answeredElsewhere: (request: FastifyRequest) => boolean = () => false): void {
  // Callback hooks, not async ones: they run on every request and need no promise.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    recordAnswer(metrics, request, reply);
    done();
  });
  // A client that left before its answer gets none, so onResponse never runs: a search abandoned for being slow would
  // otherwise leave no count at all. (Fastify already listens for the abort, for the log line of logAbortedRequests.)
  app.addHook('onRequestAbort', (request, done) => {
    if (answeredElsewhere(request)) {
      done();
      return;
    }
    metrics.recordAbortedRequest({ method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE });
    done();
  });
}

/** Counts one answered request; also called for the requests Fastify answers past every hook (http/framework-errors.ts). */
export function recordAnswer(metrics: Metrics, request: FastifyRequest, reply: FastifyReply): void {
  metrics.recordHttpRequest({
    method: request.method,
    route: request.routeOptions.url ?? UNMATCHED_ROUTE,
    statusCode: reply.statusCode,
    seconds: reply.elapsedTime / 1000,
  });
}
