import { z } from 'zod';
import { asciiDomainName, TYPED_DOMAIN_NAME } from '../domain/domain-entry.js';
import type { SearchKind } from '../domain/result.js';
import type { SearchResponse } from '../engine/search-service.js';
import { defineOperation, type Operation } from './operation.js';
import { searchResponseOutput, searchSectionsOutput } from './output-schemas.js';
import { renderSections, type SearchSection } from './render-sections.js';
import { SEARCH_FAILURE_RULE, SECTIONS_FAILURE_RULE, searchFailure, sectionsFailure } from './search-failure.js';
import { renderSearchPage, runSearch } from './search-operations.js';
import { searchParams, timeRange } from './search-params.js';

/** The search parameters of a scoped search: its providers are chosen by the scope, so not a parameter. */
const scopedParams = {
  query: searchParams.query,
  max_results: searchParams.max_results,
  timeout_ms: searchParams.timeout_ms,
  page: searchParams.page,
  time_range: timeRange,
};

interface Scope {
  name: string;
  description: string;
  kind: SearchKind;
  providers?: string[];
  domains?: string[];
  example: string;
}

/** A search narrowed to one provider or one site: a thin operation over the same engine, no search code of its own. */
function scopedSearch(scope: Scope): Operation {
  return defineOperation({
    name: scope.name,
    description: scope.description,
    input: z.strictObject(scopedParams),
    example: { query: scope.example, max_results: 5 },
    output: searchResponseOutput,
    run: (input, context) =>
      runSearch(scope.kind, { ...input, providers: scope.providers }, context, {
        time_range: input.time_range,
        include_domains: scope.domains,
      }),
    render: (output: SearchResponse) => renderSearchPage(output, scope.name),
    failure: searchFailure,
    failureRule: SEARCH_FAILURE_RULE,
  });
}

export const wikipediaSearch = scopedSearch({
  name: 'wikipedia_search',
  description: 'Search Wikipedia articles.',
  kind: 'web',
  providers: ['wikipedia'],
  example: 'federated search',
});

export const hackernewsSearch = scopedSearch({
  name: 'hackernews_search',
  // HN Search documents no OR (nor Algolia's optionalWords): a caller writing `a OR b` is told it gets both words.
  description: 'Search Hacker News stories (title, link, points, comments). Every word must match: OR is read as AND (HN Search has none).',
  kind: 'web',
  providers: ['hackernews'],
  example: 'sqlite',
});

export const redditSearch = scopedSearch({
  name: 'reddit_search',
  description: 'Search Reddit threads through the web providers, limited to reddit.com.',
  kind: 'web',
  domains: ['reddit.com'],
  example: 'best mechanical keyboard',
});

export const linkedinSearch = scopedSearch({
  name: 'linkedin_search',
  description: 'Search LinkedIn pages (people, companies, posts) through the web providers, limited to linkedin.com.',
  kind: 'web',
  domains: ['linkedin.com'],
  example: 'head of data engineering Berlin',
});

export const tiktokSearch = scopedSearch({
  name: 'tiktok_search',
  description: 'Search TikTok videos through the web providers, limited to tiktok.com.',
  kind: 'web',
  domains: ['tiktok.com'],
  example: 'sourdough starter',
});

export const youtubeSearch = scopedSearch({
  name: 'youtube_search',
  description: 'Search YouTube videos (needs YOUTUBE_API_KEY).',
  kind: 'video',
  providers: ['youtube'],
  example: 'rust async tutorial',
});

export const githubSearch = defineOperation({
  name: 'github_search',
  description: 'Search GitHub repositories, or code with type=code (code search needs GITHUB_TOKEN).',
  input: z.strictObject({
    query: searchParams.query,
    type: z.enum(['repositories', 'code']).default('repositories').describe('What to search: repositories (default) or code.'),
    max_results: searchParams.max_results,
    timeout_ms: searchParams.timeout_ms,
    page: searchParams.page,
  }),
  example: { query: 'federated search language:typescript', type: 'repositories', max_results: 5 },
  output: searchResponseOutput,
  run: (input, context) => runSearch('code', { ...input, providers: ['github'] }, context, { scope: input.type }),
  render: (output) => renderSearchPage(output, 'github_search'),
  failure: searchFailure,
  failureRule: SEARCH_FAILURE_RULE,
});

const companyInput = z.strictObject({
  company: z.string().trim().min(1).max(200).describe('The company name.'),
  domain: z
    .string()
    .trim()
    // At most 253 characters and 63 a label, as DNS allows: the domain goes to paid APIs and into the cache key. In its
    // ASCII form (bücher.de as xn--bcher-kva.de), as include_domains keeps a host; '' (refused) for no domain name.
    .overwrite(asciiDomainName)
    // Capitals and Unicode pass (read by now) because the pattern is also the one tools/list advertises for the input.
    .regex(TYPED_DOMAIN_NAME, 'not a domain name; allowed: a domain such as example.com (at most 253 characters)')
    .optional()
    .describe("The company's own domain, to include what it says about itself."),
  max_results: searchParams.max_results,
  timeout_ms: searchParams.timeout_ms,
});

/** Runs labelled searches in parallel: one section each. */
async function sections(
  plans: Array<{ title: string; reason: string; run: () => Promise<SearchResponse> }>,
): Promise<{ sections: SearchSection[] }> {
  const responses = await Promise.all(plans.map((plan) => plan.run()));
  return { sections: plans.map((plan, index) => ({ title: plan.title, reason: plan.reason, response: responses[index]! })) };
}

export const companyResearch = defineOperation({
  name: 'company_research',
  description: 'Research a company: overview, recent news and, given its domain, what its own site says, in parallel; one section each.',
  input: companyInput,
  example: { company: 'Anthropic', domain: 'anthropic.com', max_results: 5 },
  output: searchSectionsOutput,
  run: (input, context) =>
    sections([
      {
        title: 'Overview',
        reason: 'what the company does, founders, funding',
        run: () => runSearch('web', { ...input, query: `${input.company} company overview products founders funding` }, context, {}),
      },
      {
        title: 'Recent news',
        reason: 'published in the last month',
        run: () => runSearch('web', { ...input, query: `${input.company} news` }, context, { time_range: 'month' }),
      },
      ...(input.domain
        ? [
            {
              title: `From ${input.domain}`,
              reason: 'the company in its own words',
              run: () => runSearch('web', { ...input, query: input.company }, context, { include_domains: [input.domain!] }),
            },
          ]
        : []),
    ]),
  render: (output) => renderSections(output.sections),
  failure: (output) => sectionsFailure(output.sections),
  failureRule: SECTIONS_FAILURE_RULE,
});

export const findCompetitors = defineOperation({
  name: 'find_competitors',
  description: "Find a company's competitors and alternatives: two sections of web results.",
  input: companyInput,
  example: { company: 'Notion', max_results: 5 },
  output: searchSectionsOutput,
  run: (input, context) =>
    sections([
      {
        title: 'Competitors and alternatives',
        reason: 'pages comparing or listing alternatives',
        run: () => runSearch('web', { ...input, query: `${input.company} competitors alternatives` }, context, {}),
      },
      {
        title: 'Similar companies',
        reason: 'companies described as like it',
        run: () =>
          runSearch('web', { ...input, query: `companies similar to ${input.company}` }, context, {
            exclude_domains: input.domain ? [input.domain] : undefined,
          }),
      },
    ]),
  render: (output) => renderSections(output.sections),
  failure: (output) => sectionsFailure(output.sections),
  failureRule: SECTIONS_FAILURE_RULE,
});
