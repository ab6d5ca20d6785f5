import type { SearchKind } from '../domain/result.js';
import type { SearchService } from '../engine/search-service.js';
import { analyseQuery, type QuerySignals, type Topic } from './query-analysis.js';

/** Which providers suit which topic best; only configured providers are ever chosen. */
const TOPIC_PROVIDERS: Partial<Record<SearchKind, Partial<Record<Topic, string[]>>>> = {
  web: {
    news: ['brave', 'tavily', 'exa', 'searxng', 'hackernews'],
    code: ['brave', 'exa', 'searxng', 'hackernews'],
    definition: ['wikipedia', 'brave', 'tavily', 'searxng', 'local'],
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
 * `providers: "auto"`: the configured providers of the kind that suit the query's strongest topic, or every
 * configured one when no topic stands out (or none of the suited ones is configured).
 */
export function routeProviders(kind: SearchKind, query: string, search: SearchService, signals: QuerySignals = analyseQuery(query)): ProviderRouting {
  const configured = search.providerNames(kind).filter((name) => search.isConfigured(name));
  const topics = Object.entries(TOPIC_PROVIDERS[kind] ?? {})
    .map(([topic, providers]) => ({ topic: topic as Topic, providers: providers!, score: signals.scores[topic as Topic] }))
    .filter((candidate) => candidate.score >= TOPIC_THRESHOLD)
    .sort((a, b) => b.score - a.score);
  for (const candidate of topics) {
    const chosen = candidate.providers.filter((name) => configured.includes(name));
    if (chosen.length > 0) {
      return {
        providers: chosen,
        reasons: [`${candidate.topic} query (score ${candidate.score.toFixed(2)}: ${signals.reasons[candidate.topic].join(', ')}): ${chosen.join(', ')}`],
      };
    }
  }
  return { providers: configured, reasons: [`no topic stands out: every configured ${kind} provider`] };
}
