import { z } from 'zod';
import {
  providerDescriptionOutput,
  providerHealthOutput,
  providerItemOutput,
  providerOutcomeOutput,
  searchResponseOutput,
  searchResultOutput,
  searchSectionsOutput,
} from '../operations/output-schemas.js';

/**
 * Answer shapes more than one route returns, each named once under components.schemas and referred to wherever it
 * appears. Written out in place instead, a client generator makes one anonymous type per place (a search result
 * eighteen times over), and a client cannot hand a result of one route's answer to code written for another's.
 */
export const SHARED_ANSWER_SHAPES: ReadonlyArray<readonly [name: string, schema: z.ZodType]> = [
  ['SearchResponse', searchResponseOutput],
  ['SearchSections', searchSectionsOutput],
  ['SearchResult', searchResultOutput],
  ['ProviderItem', providerItemOutput],
  ['ProviderOutcome', providerOutcomeOutput],
  ['ProviderDescription', providerDescriptionOutput],
  ['ProviderHealth', providerHealthOutput],
];

/** The same shapes as zod's registry, which toJSONSchema reads to write a reference where one of them appears. */
export const sharedAnswerRegistry = z.registry<{ id: string }>();
for (const [name, schema] of SHARED_ANSWER_SHAPES) sharedAnswerRegistry.add(schema, { id: name });
