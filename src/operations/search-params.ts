import { z } from 'zod';
import { asciiEntry, TYPED_DOMAIN_ENTRY } from '../domain/domain-entry.js';
import { searchText } from '../domain/query-text.js';
import { AUTO_SELECTION, MAX_LIMIT, MAX_PAGE } from '../domain/query.js';
import { TIME_RANGES } from '../domain/time-range.js';

/**
 * "auto" as REST reads it (search-plan.ts asksForAuto): `AUTO` and ` auto ` too. The pattern spells out both letter
 * cases rather than carrying an `i` flag, which JSON Schema has no place for: tools/list and OpenAPI advertise it.
 */
const autoSelection = z
  .string()
  .regex(/^\s*[Aa][Uu][Tt][Oo]\s*$/)
  .transform((): typeof AUTO_SELECTION => AUTO_SELECTION);

/** Parameter names models already know; shared by every search-shaped operation. */
export const searchParams = {
  query: searchText('What to search for (1–500 characters).'),
  providers: z
    .union([z.array(z.string().trim().min(1)).min(1).max(20), autoSelection], {
      error: 'matches none of the accepted forms; allowed: a list of 1–20 provider names (see list_providers) or "auto"',
    })
    .optional()
    .describe('Provider names to ask (see list_providers), or "auto" to choose by the query; default: every configured provider of the kind.'),
  max_results: z.number().int().min(1).max(MAX_LIMIT).default(10).describe(`How many merged results to return (1–${MAX_LIMIT}, default 10).`),
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(30_000)
    .optional()
    .describe('Deadline in milliseconds (100–30000); late providers are reported as timeout.'),
  page: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .default(1)
    .describe(`Which page of results (1–${MAX_PAGE}, default 1); the answer's has_more says whether the next page holds any.`),
};

/**
 * A host, or a host and a path under it (`docs.example.com/guide`): the engine's post-filter reads both forms. A host
 * typed in Unicode (`bücher.de`) is kept in its ASCII form (asciiEntry), as every provider and the cache key get it.
 */
const domain = z
  .string()
  .trim()
  // '' for a value that names no domain, which the pattern then refuses.
  .overwrite(asciiEntry)
  // A query or fragment is not part of what the filter compares (a host and a path), so it is refused, not ignored.
  // Capitals and Unicode are admitted although the host is in small ASCII letters by now: the pattern is also what
  // tools/list and OpenAPI advertise for the input as sent, where a client would otherwise refuse Docs.Example.com or
  // bücher.de before sending it.
  .regex(TYPED_DOMAIN_ENTRY, 'not a domain name; allowed: a domain such as example.com, with or without a path (docs.example.com/guide)');

/**
 * `pt-br`, `PT-BR`, `EN` and `ZH-HANS` as `pt-BR`, `en` and `zh-Hans`, as language tags write a language, a region
 * and a script (BCP 47, whose tags are the same in any letter case): one language, so one search, one cached answer
 * and one captions track, and providers that take the code as given (SearXNG, YouTube) are sent one form of it.
 * Every language field takes it (search filters, youtube_transcript).
 */
export function languageTagCase(code: string): string {
  if (code.length === 5 && code[2] === '-') return code.slice(0, 3).toLowerCase() + code.slice(3).toUpperCase();
  if (!code.includes('-')) return code.toLowerCase();
  return code
    .split('-')
    .map((subtag, index) => {
      if (index > 0 && subtag.length === 2) return subtag.toUpperCase();
      if (index > 0 && subtag.length === 4) return subtag.charAt(0).toUpperCase() + subtag.slice(1).toLowerCase();
      return subtag.toLowerCase();
    })
    .join('-');
}

export const timeRange = z.enum(TIME_RANGES).optional().describe('Only results published within this period.');

/** Web filters: each provider applies what its API supports; the engine applies or refuses the rest. */
export const webFilterParams = {
  time_range: timeRange,
  language: z
    .string()
    .overwrite(languageTagCase)
    // Capitals are admitted though the code is in its usual case by now: the pattern is also what tools/list and
    // OpenAPI advertise for the input as sent, where a client would otherwise refuse EN before sending it.
    .regex(/^[A-Za-z]{2}(-[A-Za-z]{2})?$/, 'not a language code; allowed: a code such as en or pt-BR')
    .optional()
    .describe('Language code (en, de, pt-BR); providers that cannot filter by language are skipped.'),
  include_domains: z.array(domain).min(1).max(20).optional().describe('Only results from these domains (and their subdomains).'),
  exclude_domains: z.array(domain).min(1).max(20).optional().describe('No results from these domains.'),
  safesearch: z
    .enum(['off', 'moderate', 'strict'])
    .optional()
    .describe('Adult-content filtering; off asks for none, moderate and strict skip providers that cannot filter adult content.'),
};

/** Paper filters. */
export const paperFilterParams = {
  year_from: z.number().int().min(1000).max(2100).optional().describe('Published in or after this year.'),
  year_to: z.number().int().min(1000).max(2100).optional().describe('Published in or before this year.'),
  open_access: z.boolean().optional().describe('true: only open-access papers; providers that cannot tell are skipped. false is the same search as leaving it out.'),
};

/** The filters a search of each kind takes, over every surface (operations, REST routes, the stream). */
export const filterParamsOf = { web: webFilterParams, papers: paperFilterParams } as const;

/**
 * year_from after year_to can match nothing: say so rather than answer with nothing. A check for
 * `.superRefine` on a schema holding both years.
 */
export function checkYearsInOrder(input: { year_from?: number | undefined; year_to?: number | undefined }, context: z.RefinementCtx): void {
  if (input.year_from === undefined || input.year_to === undefined || input.year_from <= input.year_to) return;
  context.addIssue({
    code: 'custom',
    path: ['year_from'],
    message: `${input.year_from} is after year_to (${input.year_to}); allowed: a year no later than year_to`,
    input: input.year_from,
  });
}
