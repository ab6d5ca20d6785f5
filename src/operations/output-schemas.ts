import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { PROVIDER_STATUSES } from '../domain/outcome.js';
import { MAX_PAGE } from '../domain/query.js';
import { SEARCH_KINDS } from '../domain/result.js';

/**
 * What operations answer, as zod schemas: the 200 response of `POST /v1/ops/<name>` in the OpenAPI document
 * is derived from these. Objects are strict, so a test comparing real answers with them notices a field that
 * was added to an answer but not documented here.
 */

const whole = z.int().min(0);
const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const providerOutcomeOutput = z.strictObject({
  provider: z.string(),
  status: z.enum(PROVIDER_STATUSES),
  count: whole,
  latency_ms: whole,
  message: z.string().optional().describe('Short cause for error, timeout, not_configured, skipped and suspended. On a later page ranked afresh (no earlier page of the search kept), a provider that failed or was cut short adds that the page was ranked without what it did not give.'),
  code: z.enum(errorCodes).optional(),
  missing: z.array(z.string()).optional().describe('Environment variables that would configure a not_configured provider.'),
  retry_after_ms: whole.optional().describe('When the upstream asked us to wait, or when a suspended provider is tried again.'),
});

/** One upstream item, before merging (youtube_video_details returns these as they are). */
export const providerItemOutput = z.strictObject({
  title: z.string(),
  url: z.string(),
  snippet: z.string().optional(),
  published_at: z.string().optional().describe('ISO 8601, with the precision the source gave.'),
  authors: z.array(z.string()).optional(),
  year: z.int().optional(),
  venue: z.string().optional(),
  abstract: z.string().optional(),
  doi: z.string().optional().describe('Lower case, no resolver prefix.'),
  arxiv_id: z.string().optional().describe('Without version.'),
  pmid: z.string().optional(),
  pdf_url: z.string().optional(),
  citation_count: whole.optional(),
  extra: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .optional()
    .describe('Provider-specific extras (stars, views, channel, …).'),
});

export const searchResultOutput = providerItemOutput.extend({
  score: z.number().describe('Σ weight(provider) / (k + rank), k = 60 by default.'),
  sources: z.array(z.strictObject({ provider: z.string(), rank: z.int().min(1) })).describe('Every provider that found it, with its rank there.'),
  pdf_urls: z
    .array(z.string())
    .optional()
    .describe('Every distinct PDF link its sources gave, pdf_url first (paper_read tries them in turn); only when they gave more than one.'),
  domain: z.string().optional(),
  explain: z
    .array(z.strictObject({ provider: z.string(), rank: z.int().min(1), weight: z.number(), contribution: z.number() }))
    .optional()
    .describe("Each provider's part of the score (with explain=true)."),
});

export const routingOutput = z
  .strictObject({ providers: z.array(z.string()), reasons: z.array(z.string()) })
  .describe('With providers "auto": the providers chosen and why.');

export const searchResponseOutput = z.strictObject({
  query: z.string(),
  kind: z.enum(SEARCH_KINDS),
  results: z.array(searchResultOutput),
  providers: z.array(providerOutcomeOutput).describe("Every provider's outcome, whatever happened."),
  page: z.int().min(1).max(MAX_PAGE).describe('Which page of results this is (1 unless asked for another).'),
  has_more: z.boolean().describe('Whether the next page holds results: ask again with page + 1. Also true when a provider gave all it was asked for and only asking it deeper can tell; that next page may then come back empty.'),
  took_ms: whole.describe(
    "This request's time in milliseconds, from its arrival as timeout_ms counts (a cached answer's is this request's, not the search it was kept from; one that joined an identical search in flight counts from that search's start, as its providers' latency_ms do).",
  ),
  cached: z.boolean(),
  cache_age_ms: whole.describe(
    'How long ago a cached answer was gathered (0 when fresh). An answer in which a provider failed is cached for at most CACHE_PARTIAL_TTL_SECONDS (15 s by default).',
  ),
  routing: routingOutput.optional(),
});

export const searchSectionsOutput = z.strictObject({
  sections: z.array(z.strictObject({ title: z.string(), reason: z.string().optional(), response: searchResponseOutput })),
});

const textPage = {
  text: z.string(),
  offset: whole,
  next_offset: whole.nullable().describe('Where the next page starts, or null when this page reaches the end.'),
  total_chars: whole,
};

export const fetchedPageOutput = z.strictObject({
  url: z.string(),
  final_url: z.string().describe('Where the page was read, after redirects.'),
  engine: z.enum(['direct', 'firecrawl']),
  title: z.string().optional(),
  byline: z.string().optional(),
  published_at: z.string().optional(),
  content_type: z.string(),
  links: z.array(z.strictObject({ text: z.string(), url: z.string() })),
  ...textPage,
});

export const paperDetailsOutput = z.strictObject({
  id: z.string().describe('The identifier as given.'),
  identifier: z.strictObject({ type: z.enum(['doi', 'arxiv', 'pmid', 'pmcid', 's2']), value: z.string() }),
  paper: searchResultOutput,
  providers: z.array(providerOutcomeOutput),
});

export const paperTextOutput = z.strictObject({
  url: z.string(),
  title: z.string().optional(),
  content_type: z.string(),
  paper: searchResultOutput.optional(),
  ...textPage,
});

export const videoDetailsOutput = z.strictObject({
  videos: z.array(providerItemOutput),
  not_found: z.array(z.string()).describe('Video ids YouTube did not know.'),
});

export const transcriptOutput = z.strictObject({
  video_id: z.string(),
  language: z.string(),
  automatic: z.boolean().describe('Whether the captions were generated by speech recognition.'),
  available_languages: z.array(z.string()),
  ...textPage,
  timestamps: z
    .array(z.strictObject({ start: z.number().min(0), text: z.string() }))
    .describe('The first line of every minute that starts within this page of the text, to cite a moment.'),
});

/** One circuit breaker's state and recent health. */
export const providerHealthOutput = z.strictObject({
  state: z.enum(['closed', 'open', 'half-open']),
  consecutive_failures: whole,
  retry_after_ms: whole.optional(),
  success_rate: z.number().nullable(),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  recent_calls: whole,
  last_error: z
    .strictObject({ message: z.string(), at: z.string() })
    .optional()
    .describe("The last failure, in fedsearch's words and the upstream's status; what the upstream wrote goes only to the caller whose request it was"),
});

export const providerDescriptionOutput = z.strictObject({
  name: z.string().describe('The instance name, as providers= takes it.'),
  definition: z.string().describe('The definition (adapter) this is an instance of, e.g. searxng or mediawiki.'),
  kind: z.enum(SEARCH_KINDS),
  description: z.string(),
  configured: z.boolean(),
  missing: z.array(z.string()),
  weight: z.number(),
  timeout_ms: whole,
  // Its own host's calls (a reference to the shared shape: a description beside it would make an allOf).
  health: providerHealthOutput,
  host_health: z
    .record(z.string(), providerHealthOutput)
    .optional()
    .describe(
      'By host, the breakers of other hosts its searches have reached, each suspended apart (Wikipedia: the editions of other languages, such as de.wikipedia.org); absent when there are none.',
    ),
});

export const providerListOutput = z.strictObject({ providers: z.array(providerDescriptionOutput) });

export const operationListOutput = z.strictObject({
  operations: z.array(
    z.strictObject({
      name: z.string(),
      description: z.string().describe('What it does; over MCP also when its tool call fails (isError), as the tool descriptions say.'),
      parameters: z.record(z.string(), z.unknown()).describe('JSON Schema of the parameters.'),
      example: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const researchOutput = z.strictObject({
  query: z.string(),
  depth: z.int(),
  plan: z.array(z.strictObject({ operation: z.string(), params: z.record(z.string(), z.unknown()), score: z.number(), reason: z.string() })),
  suspended: z
    .array(z.string())
    .optional()
    .describe('Providers the question called for (wikipedia, github, youtube, youtube_web, hackernews) left out of the plan because they are suspended; their slots went to the next steps.'),
  sections: z.array(
    z.strictObject({
      operation: z.string(),
      reason: z.string(),
      output: z.unknown().optional().describe("The operation's own answer, as its route returns it."),
      text: z.string().optional().describe('The same answer as text, as a model reads it.'),
      error: z.string().optional().describe('Why the step failed: the message its operation alone answers with.'),
      code: z.enum(errorCodes).optional().describe("A failed step's error code, as its operation alone answers it."),
      retry_after_ms: whole.optional().describe('When a failed step asks for a wait (a suspended or rate-limited provider): when to try it again.'),
    }),
  ),
});
