import type { Operation } from '../operations/operation.js';
import { errorResponse, errorResponses, type ErrorStatus } from './response-schemas.js';

/**
 * What any operation's route can answer: bad parameters (400), no key or an unknown one when API keys are configured
 * (401), a Host not admitted (403), a body too slow, too large or not JSON (408, 413, 415), the rate limit (429), a
 * fault of the service's own (500), and a service shedding load or closing (503).
 */
const EVERY_OPERATION_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 408, 413, 415, 429, 500, 503];

/**
 * Whether what the operation asks outside the service can fail it as a whole: an upstream's failure a 502, its
 * silence past the deadline a 504. Not a catalogue, which asks nothing outside (closedWorld), nor an operation that
 * tells each provider's failure in its 200 answer (a search or a research: it declares `failure`).
 */
function upstreamCanFailIt(operation: Operation): boolean {
  return operation.closedWorld !== true && operation.failure === undefined;
}

/**
 * The error answers an operation's route documents, derived from what the operation declares, so that an operation
 * added is documented truly without a list of names: a 404 only for one that looks up a thing that may not exist
 * (its `notFound` says when), a 502 and a 504 only for one an upstream can fail.
 */
export function operationErrorResponses(operation: Operation): Record<number, Record<string, unknown>> {
  const responses = errorResponses(...EVERY_OPERATION_ERRORS, ...(upstreamCanFailIt(operation) ? ([502, 504] as const) : []));
  if (operation.notFound !== undefined) responses[404] = errorResponse(404, `Nothing found: ${operation.notFound} (NOT_FOUND).`);
  return responses;
}
