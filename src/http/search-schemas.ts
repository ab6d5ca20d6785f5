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

const providerOutcome = {
  type: 'object',
  required: ['provider', 'status', 'count', 'latency_ms'],
  properties: {
    provider: { type: 'string' },
    status: { type: 'string', enum: ['ok', 'error', 'timeout', 'not_configured', 'skipped', 'suspended', 'rate_limited'] },
    count: { type: 'integer' },
    latency_ms: { type: 'integer' },
    message: { type: 'string' },
    code: { type: 'string' },
    missing: { type: 'array', items: { type: 'string' } },
    retry_after_ms: { type: 'integer' },
  },
} as const;

const searchResult = {
  type: 'object',
  required: ['title', 'url', 'score', 'sources'],
  properties: {
    title: { type: 'string' },
    url: { type: 'string' },
    snippet: { type: 'string' },
    score: { type: 'number', description: 'Σ weight(provider) / (k + rank), k = 60 by default.' },
    sources: {
      type: 'array',
      items: { type: 'object', properties: { provider: { type: 'string' }, rank: { type: 'integer' } } },
    },
    domain: { type: 'string' },
    published_at: { type: 'string', description: 'ISO 8601, with the precision the source gave.' },
    authors: { type: 'array', items: { type: 'string' } },
    year: { type: 'integer' },
    venue: { type: 'string' },
    abstract: { type: 'string' },
    doi: { type: 'string', description: 'Lower case, no resolver prefix.' },
    arxiv_id: { type: 'string', description: 'Without version.' },
    pmid: { type: 'string' },
    pdf_url: { type: 'string' },
    citation_count: { type: 'integer' },
    extra: { type: 'object', additionalProperties: true },
    explain: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          provider: { type: 'string' },
          rank: { type: 'integer' },
          weight: { type: 'number' },
          contribution: { type: 'number' },
        },
      },
    },
  },
} as const;

export const searchResponseSchema = {
  type: 'object',
  required: ['query', 'kind', 'results', 'providers', 'took_ms', 'cached', 'cache_age_ms'],
  properties: {
    query: { type: 'string' },
    kind: { type: 'string' },
    results: { type: 'array', items: searchResult },
    providers: { type: 'array', items: providerOutcome },
    took_ms: { type: 'integer' },
    cached: { type: 'boolean' },
    cache_age_ms: {
      type: 'integer',
      description:
        'How long ago a cached answer was gathered (0 when fresh). An answer in which a provider failed is cached for at most CACHE_PARTIAL_TTL_SECONDS (15 s by default).',
    },
    routing: {
      type: 'object',
      description: 'With providers=auto: the providers chosen and why.',
      properties: { providers: { type: 'array', items: { type: 'string' } }, reasons: { type: 'array', items: { type: 'string' } } },
    },
  },
} as const;

export const errorResponseSchema = {
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
    details: {},
  },
} as const;
