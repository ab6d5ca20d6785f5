import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchQuery } from '../domain/query.js';
import type { SearchResult } from '../domain/result.js';
import type { PaperIdentifier, Provider } from '../providers/provider.js';
import { fuseAnswers } from './fuse.js';
import { gatherResults } from './gather.js';
import { notAsked } from './provider-outcome.js';
import type { PipelineDependencies, PipelineLimits } from './provider-pipeline.js';

export interface PaperLookup {
  /** The one merged record, with every provider that knew the paper as a source; undefined when none did. */
  result: SearchResult | undefined;
  /** What every paper provider did, including those that cannot look up this kind of identifier. */
  providers: ProviderOutcome[];
}

/**
 * Looks one paper up by identifier at every paper provider that can, at once, through the provider pipeline
 * (so a suspended provider is not asked), and merges what they found into one record with every source.
 * Providers that cannot look up that kind of identifier are skipped.
 */
export async function lookupPaper(
  providers: readonly Provider[],
  identifier: PaperIdentifier,
  limits: PipelineLimits,
  dependencies: PipelineDependencies,
  rrfK: number,
): Promise<PaperLookup> {
  const paperProviders = providers.filter((provider) => provider.kind === 'papers');
  const able = paperProviders.filter((provider) => provider.buildLookupRequest(identifier) !== undefined);
  const query: SearchQuery = { kind: 'papers', text: identifier.value, limit: 1, filters: {} };
  const answers = await gatherResults(
    able,
    query,
    { ...limits, task: (provider, transport, signal) => provider.lookup(identifier, transport, signal) },
    dependencies,
  );
  const skipped = paperProviders
    .filter((provider) => !able.includes(provider))
    .map((provider) => notAsked(provider, 'skipped', `cannot look up ${identifier.type} identifiers`));
  const [result] = fuseAnswers('papers', answers, { k: rrfK, atMost: 1 });
  return { result, providers: [...answers.map((answer) => answer.outcome), ...skipped] };
}
