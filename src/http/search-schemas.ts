import { z } from 'zod';
import { checkYearsInOrder, filterParamsOf, searchParams } from '../operations/search-params.js';
import { fromQueryString } from './query-string.js';

const commaList = z
  .string()
  .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== ''))
  .pipe(z.array(z.string()).min(1).max(20));

/**
 * The search routes' fields: the operations' parameters (web_search, paper_search) under the REST names
 * `q` and `limit`, plus `explain`; providers may also come as one comma-separated string.
 */
const routeFields = {
  q: searchParams.query,
  providers: z
    .union([z.array(z.string().trim().min(1)).min(1).max(20), commaList], {
      error: 'matches none of the accepted forms; allowed: a list of 1–20 provider names (see /v1/providers), a comma-separated string of them, or "auto"',
    })
    .optional()
    .describe('Provider names (see /v1/providers), as a list or comma-separated, or "auto" to choose by the query; default: all of the kind.'),
  limit: searchParams.max_results,
  timeout_ms: searchParams.timeout_ms,
  page: searchParams.page,
  explain: z.boolean().default(false).describe("true adds each result's per-provider score contributions."),
};

/** `POST /v1/search/{kind}`: the fields as JSON, with the filters of the kind's operation. */
export const searchBodies = {
  web: z.strictObject({ ...routeFields, ...filterParamsOf.web }),
  papers: z.strictObject({ ...routeFields, ...filterParamsOf.papers }).superRefine(checkYearsInOrder),
};

/** `GET /v1/search/{kind}` and its stream: the same fields from the query string. */
export const searchQuerystrings = {
  web: fromQueryString(searchBodies.web),
  papers: fromQueryString(searchBodies.papers),
};

export type SearchRouteKind = keyof typeof searchBodies;
export type SearchRouteInput = z.output<(typeof searchBodies)[SearchRouteKind]>;
