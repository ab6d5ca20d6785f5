import type { SearchFilters } from '../domain/query.js';
import type { SearchKind } from '../domain/result.js';
import type { SearchService } from '../engine/search-service.js';
import { analyseQuery, type QuerySignals, type Topic } from './query-analysis.js';

/**
 * Which provider definitions suit which topic best: every admissible (configured, unsuspended) instance of a
 * listed definition is chosen (two SearXNG instances, or Wikipedia and another MediaWiki site, both), in the
 * listed order. Every definition of a kind listed here belongs to at least one of its topics
 * (test/operations/routing-topics.test.ts).
 */
export const TOPIC_PROVIDERS: Partial<Record<SearchKind, Partial<Record<Topic, string[]>>>> = {
  web: {
    news: ['brave', 'tavily', 'exa', 'searxng', 'hackernews'],
    code: ['brave', 'exa', 'searxng', 'hackernews'],
    definition: ['mediawiki', 'brave', 'tavily', 'searxng', 'local'],
    discussion: ['brave', 'searxng', 'tavily', 'hackernews'],
  },
  papers: {
    biomedical: ['pubmed', 'semanticscholar', 'openalex', 'crossref'],
    papers: ['arxiv', 'semanticscholar', 'openalex', 'crossref', 'pubmed'],
  },
};

/** A topic must score at least this to steer provider choice. */
const TOPIC_THRESHOLD = 0.35;

export interface ProviderRouting {
  providers: string[];
  reasons: string[];
}

/**
 * `providers: "auto"`: the admissible providers (configured, not suspended for a search with these filters: a
 * Wikipedia edition's breaker for a search in its language) of the kind that suit the
 * query's strongest topic; the next topic when none of those is admissible; every admissible one when no
 * topic stands out. Health matters: routing "what is rust" to suspended providers answered nothing while
 * healthy ones stood by. When nothing of the kind is admissible, the kind's defaults are asked, so each
 * provider's outcome says why it could not answer.
 */
export function routeProviders(
  kind: SearchKind,
  query: string,
  search: SearchService,
  filters: SearchFilters = {},
  signals: QuerySignals = analyseQuery(query),
): ProviderRouting {
  // Only the providers a search of this kind may ask (not the captions source, which does not search). Read from the
  // catalogue's list: describeProviders() built and sorted every provider's health snapshot, on every auto search.
  const instances = search.searchersOf(kind);
  const all = instances.map((provider) => provider.name);
  // The breaker the search would meet: a Wikipedia edition's, for a search in its language (Provider.upstreamHost).
  const admissible = all.filter((name) => search.isAdmissible(name, filters));
  const definitionOf = new Map(instances.map((provider) => [provider.name, provider.definition]));
  const suspended = all.filter((name) => search.isConfigured(name) && !admissible.includes(name));
  const reasons = suspended.length > 0 ? [`suspended, not chosen: ${suspended.map((name) => suspendedWhere(name, search, filters)).join(', ')}`] : [];
  const topics = Object.entries(TOPIC_PROVIDERS[kind] ?? {})
    .map(([topic, providers]) => ({ topic: topic as Topic, providers: providers!, score: signals.scores[topic as Topic] }))
    .filter((candidate) => candidate.score >= TOPIC_THRESHOLD)
    .sort((a, b) => b.score - a.score);
  for (const candidate of topics) {
    const why = `${candidate.topic} query (score ${candidate.score.toFixed(2)}: ${signals.reasons[candidate.topic].join(', ')})`;
    const chosen = candidate.providers.flatMap((definition) => admissible.filter((name) => definitionOf.get(name) === definition));
    if (chosen.length > 0) return { providers: chosen, reasons: [`${why}: ${chosen.join(', ')}`, ...reasons] };
    reasons.push(`${why}: none of ${candidate.providers.join(', ')} is configured and available`);
  }
  if (admissible.length > 0) {
    const lead = topics.length === 0 ? 'no topic stands out' : 'no suited provider available';
    return { providers: admissible, reasons: [`${lead}: every available ${kind} provider`, ...reasons] };
  }
  return { providers: all, reasons: [`no ${kind} provider is configured and available: the defaults, each reporting why`, ...reasons] };
}

/** A suspended provider as the routing reasons name it: with the host whose breaker holds it back, when it has its own. */
function suspendedWhere(name: string, search: SearchService, filters: SearchFilters): string {
  const host = search.upstreamHostOf(name, filters);
  return host === undefined ? name : `${name} (at ${host})`;
}
