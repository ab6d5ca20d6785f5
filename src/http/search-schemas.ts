import { z } from 'zod';
import { searchText } from '../domain/query-text.js';

const query = searchText('What to search for (1–500 characters).');
const limit = z.int().min(1).max(50).describe('How many merged results to return (1–50, default 10).');
const timeout = z.int().min(100).max(30_000).describe('Deadline in ms (100–30000); late providers are reported as timeout.');

const commaList = z
  .string()
  .transform((value) => value.split(',').map((name) => name.trim()).filter((name) => name !== ''))
  .pipe(z.array(z.string()).min(1).max(20));

const booleanText = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** `GET /v1/search/{kind}`: everything arrives as text and is coerced here. */
export const searchQuerystring = z.strictObject({
  q: query,
  providers: commaList.optional().describe('Comma-separated provider names (see /v1/providers), or "auto" to choose by the query; default: all of the kind.'),
  limit: z.coerce.number().pipe(limit).default(10),
  timeout_ms: z.coerce.number().pipe(timeout).optional(),
  explain: booleanText.default(false).describe('true adds each result\'s per-provider score contributions.'),
});

/** `POST /v1/search/{kind}`: the same fields as JSON. */
export const searchBody = z.strictObject({
  q: query,
  providers: z
    .union([z.array(z.string().trim().min(1)).min(1).max(20), commaList], {
      error: 'matches none of the accepted forms; allowed: a list of 1–20 provider names (see /v1/providers), a comma-separated string of them, or "auto"',
    })
    .optional()
    .describe('Provider names, as an array or a comma-separated string, or "auto" to choose by the query.'),
  limit: limit.default(10),
  timeout_ms: timeout.optional(),
  explain: z.boolean().default(false),
});

export type SearchQuerystring = z.output<typeof searchQuerystring>;

/** The error envelope as JSON Schema, for routes that document their errors without errorResponses(). */
export { errorEnvelopeJsonSchema as errorResponseSchema } from './response-schemas.js';
