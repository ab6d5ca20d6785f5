import { autoResearch } from './auto-research.js';
import { listOperations, listProviders } from './catalog-operations.js';
import { fetchUrl } from './fetch-operations.js';
import type { Operation } from './operation.js';
import { paperDetails, paperRead } from './paper-operations.js';
import {
  companyResearch,
  findCompetitors,
  githubSearch,
  hackernewsSearch,
  linkedinSearch,
  redditSearch,
  tiktokSearch,
  wikipediaSearch,
  youtubeSearch,
} from './scoped-operations.js';
import { paperSearch, webSearch } from './search-operations.js';
import { youtubeTranscript, youtubeVideoDetails } from './video-operations.js';

/** Every operation, in the order tools and docs list them. */
export const OPERATIONS: readonly Operation[] = [
  webSearch,
  paperSearch,
  autoResearch,
  fetchUrl,
  paperDetails,
  paperRead,
  githubSearch,
  youtubeSearch,
  youtubeVideoDetails,
  youtubeTranscript,
  wikipediaSearch,
  hackernewsSearch,
  redditSearch,
  linkedinSearch,
  tiktokSearch,
  companyResearch,
  findCompetitors,
  listProviders,
  listOperations,
];

export function findOperation(name: string): Operation | undefined {
  return OPERATIONS.find((operation) => operation.name === name);
}
