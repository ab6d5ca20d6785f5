import type { FastifyInstance } from 'fastify';
import type { SearchService } from './engine/search-service.js';

/** What is left of the grace for the answers of the calls cut short to be ranked and sent: a quarter, at most 1 s. */
const ANSWER_SHARE = 0.25;
const MAX_ANSWER_MS = 1000;

/** How long after a shutdown begins the provider calls still running are cut short. */
export function callsCutAfter(graceMs: number): number {
  return Math.round(graceMs - Math.min(MAX_ANSWER_MS, graceMs * ANSWER_SHARE));
}

/**
 * On close, provider calls still running shortly before SHUTDOWN_GRACE_MS ends are cut short, each reported as a
 * `timeout`: a search waiting on a slow upstream answers with what the others gave, where it got no answer at all
 * once server.ts ended the process at the end of the grace. A call that ends sooner is not touched.
 */
export function cutCallsBeforeGraceEnds(app: FastifyInstance, search: SearchService, graceMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setTimeout(() => search.cutCallsShort(), callsCutAfter(graceMs));
    // Nothing to cut once everything has closed: the timer must not hold the process open.
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(timer);
  });
}
