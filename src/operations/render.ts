import type { SearchResponse } from '../engine/search-service.js';
import type { SearchResult } from '../domain/result.js';

/** No tool answer exceeds this many characters: a model's context is precious. */
export const MAX_RENDERED_CHARS = 20_000;
const SNIPPET_CHARS = 300;

function shorten(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

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
  if (snippet) lines.push(`   ${shorten(snippet, SNIPPET_CHARS)}`);
  lines.push(`   found by: ${result.sources.map((source) => `${source.provider} #${source.rank}`).join(', ')}`);
  return lines.join('\n');
}

/** A numbered list a model can read, then one line for each provider that did not answer. */
export function renderSearch(response: SearchResponse): string {
  const header = `${response.results.length} ${response.kind} result(s) for "${response.query}"${response.cached ? ` (cached ${Math.round(response.cache_age_ms / 1000)} s ago)` : ''}:`;
  const problems = response.providers
    .filter((provider) => provider.status === 'error' || provider.status === 'timeout')
    .map((provider) => `- ${provider.provider}: ${provider.status}${provider.message ? ` (${provider.message})` : ''}`);
  const footer = problems.length > 0 ? `\nProviders that failed:\n${problems.join('\n')}` : '';
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
