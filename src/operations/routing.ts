import type { SearchKind } from '../domain/result.js';
import type { SearchService } from '../engine/search-service.js';
import { analyseQuery, type QuerySignals, type Topic } from './query-analysis.js';

/**
 * Which provider definitions suit which topic best: every configured instance of a listed definition is
 * chosen (two SearXNG instances, or Wikipedia and another MediaWiki site, both), in the listed order.
 */
const TOPIC_PROVIDERS: Partial<Record<SearchKind, Partial<Record<Topic, string[]>>>> = {
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
 * `providers: "auto"`: the configured providers of the kind that suit the query's strongest topic, or every
 * configured one when no topic stands out (or none of the suited ones is configured).
 */
export function routeProviders(kind: SearchKind, query: string, search: SearchService, signals: QuerySignals = analyseQuery(query)): ProviderRouting {
  const instances = search.describeProviders().filter((provider) => provider.kind === kind && provider.configured);
  const configured = instances.map((provider) => provider.name);
  const topics = Object.entries(TOPIC_PROVIDERS[kind] ?? {})
    .map(([topic, providers]) => ({ topic: topic as Topic, providers: providers!, score: signals.scores[topic as Topic] }))
    .filter((candidate) => candidate.score >= TOPIC_THRESHOLD)
    .sort((a, b) => b.score - a.score);
  for (const candidate of topics) {
    const chosen = candidate.providers.flatMap((definition) =>
      instances.filter((provider) => provider.definition === definition).map((provider) => provider.name),
    );
    if (chosen.length > 0) {
      return {
        providers: chosen,
        reasons: [`${candidate.topic} query (score ${candidate.score.toFixed(2)}: ${signals.reasons[candidate.topic].join(', ')}): ${chosen.join(', ')}`],
      };
    }
  }
  return { providers: configured, reasons: [`no topic stands out: every configured ${kind} provider`] };
}
