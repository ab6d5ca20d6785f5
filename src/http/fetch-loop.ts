import { FedsearchError } from '../domain/errors.js';
import { USER_AGENT } from '../version.js';

/**
 * Refuses a paper download that a fedsearch page fetch asked for (this service's own, or another's: the fetcher's
 * user agent). GET /v1/papers/download is the one route that fetches a URL named in a GET, and a page fetch follows
 * redirects: a page that redirects to the route, naming as `url` a page that redirects to it again, had each download
 * ask the service for the next, every level a request of its own with a deadline of its own. One fetch_url call of a
 * caller's became hundreds of the service's requests to itself within a second, from its own address (past the
 * caller's rate limit), and they went on after the caller was answered. Refused here, the chain ends at its first
 * turn, and the caller's fetch fails on this 400.
 */
export function refuseFetchLoop(userAgent: string | undefined): void {
  if (userAgent !== USER_AGENT) return;
  throw new FedsearchError(
    'FETCH_FORBIDDEN',
    'refused: this download was asked by a fedsearch page fetch (a redirect to /v1/papers/download), which would let a page make fedsearch fetch from itself without end; allowed: the file itself, asked for directly, not a download of it',
  );
}
