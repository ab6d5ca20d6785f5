import type { SearchResponse } from '../engine/search-service.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchResult } from '../domain/result.js';
import { boundedText } from '../domain/cut-text.js';
import { retryAfterWords } from '../domain/retry-advice.js';

/** No tool answer exceeds this many characters: a model's context is precious. */
export const MAX_RENDERED_CHARS = 20_000;
const SNIPPET_CHARS = 300;

function renderAuthors(authors: string[] | undefined): string | undefined {
  if (!authors || authors.length === 0) return undefined;
  return authors.length > 3 ? `${authors.slice(0, 3).join(', ')} et al.` : authors.join(', ');
}

function renderResult(result: SearchResult, position: number): string {
  const lines = [`${position}. ${result.title}`, `   ${result.url}`];
  const facts = [
    result.year !== undefined ? String(result.year) : undefined,
    renderAuthors(result.authors),
    result.venue,
    result.doi ? `doi:${result.doi}` : undefined,
    result.citation_count !== undefined ? `${result.citation_count} citations` : undefined,
  ].filter(Boolean);
  if (facts.length > 0) lines.push(`   ${facts.join(' · ')}`);
  const snippet = result.snippet ?? result.abstract;
  // Cut at a word, never inside a surrogate pair: a lone half reaches the client as `\udXXX`, which some refuse.
  if (snippet) lines.push(`   ${boundedText(snippet, SNIPPET_CHARS)}`);
  lines.push(`   found by: ${result.sources.map((source) => `${source.provider} #${source.rank}`).join(', ')}`);
  return lines.join('\n');
}

/**
 * Outcomes a model must read beside the results, under their heading: a provider suspended or out of request slots
 * failed as surely as one that answered an error, and one not asked (its key is missing, it cannot apply a filter)
 * is why "No results." may mean nothing about the query.
 */
const UNANSWERED: ReadonlyArray<{ heading: string; statuses: ReadonlySet<ProviderOutcome['status']> }> = [
  { heading: 'Providers that failed', statuses: new Set(['error', 'timeout', 'rate_limited', 'suspended']) },
  { heading: 'Providers not asked', statuses: new Set(['not_configured', 'skipped']) },
];

/** "retry after 30 s" for a known wait; undefined when none is known. */
export function knownWaitWords(retryAfterMs: number | undefined): string | undefined {
  return retryAfterMs === undefined ? undefined : retryAfterWords(retryAfterMs);
}

/**
 * One of our errors as a model reads it, in a failed MCP tool call and in a failed section of auto_research alike: its
 * message and, when it asks for a wait, a machine-readable line, "(PROVIDER_SUSPENDED; retry_after_ms: 30000)", so that
 * an agent can schedule its retry instead of guessing.
 */
export function errorText(message: string, code: string | undefined, retryAfterMs: number | undefined): string {
  if (code === undefined || retryAfterMs === undefined) return message;
  return `${message}\n(${code}; retry_after_ms: ${Math.max(0, Math.round(retryAfterMs))})`;
}

/** "- brave: suspended (suspended after 3 consecutive failures; retry after 30 s)" */
function renderOutcome(outcome: ProviderOutcome): string {
  const why = [outcome.message, knownWaitWords(outcome.retry_after_ms)].filter(Boolean).join('; ');
  return `- ${outcome.provider}: ${outcome.status}${why ? ` (${why})` : ''}`;
}

/** One block for each kind of provider that did not answer: failed, then not asked. */
function renderUnanswered(providers: ProviderOutcome[]): string {
  return UNANSWERED.map(({ heading, statuses }) => {
    const lines = providers.filter((provider) => statuses.has(provider.status)).map(renderOutcome);
    return lines.length > 0 ? `\n${heading}:\n${lines.join('\n')}` : '';
  }).join('');
}

/** A numbered list a model can read, then one line for each provider that did not answer, and why. */
export function renderSearch(response: SearchResponse): string {
  const header = `${response.results.length} ${response.kind} result(s) for "${response.query}"${response.cached ? ` (cached ${Math.round(response.cache_age_ms / 1000)} s ago)` : ''}:`;
  const footer = renderUnanswered(response.providers);
  let body = '';
  for (const [index, result] of response.results.entries()) {
    const next = `${renderResult(result, index + 1)}\n\n`;
    if (header.length + body.length + next.length + footer.length > MAX_RENDERED_CHARS - 40) {
      body += `(${response.results.length - index} more result(s) cut to keep this answer short)\n`;
      break;
    }
    body += next;
  }
  if (response.results.length === 0) body = 'No results.\n';
  return `${header}\n\n${body.trimEnd()}${footer}`;
}
