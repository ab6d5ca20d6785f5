import type { UpstreamResponse } from '../../src/providers/provider.js';

/** A transport's `read` that keeps the response as it came, for tests that look at the response itself. */
export const asResponse = (response: UpstreamResponse): UpstreamResponse => response;
