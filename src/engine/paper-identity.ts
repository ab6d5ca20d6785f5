import stringSimilarity from 'string-similarity';
import type { ProviderItem } from '../domain/result.js';
import { arxivIdFromDoi } from '../domain/paper-identifiers.js';

/** Titles this similar (Dice coefficient on bigrams of normalised titles) name the same paper. */
export const TITLE_SIMILARITY_THRESHOLD = 0.9;
/** Years may differ by this much between a preprint and its journal version, or between indexes. */
export const YEAR_TOLERANCE = 1;
/** Comparisons one title may make inside one block; keeps the worst case linear on pathological input. */
const MAX_COMPARISONS_PER_TITLE = 32;

/** Identifier keys of a paper: DOI, arXiv id (an arXiv DOI counts as its arXiv id) and PMID. */
export function identifierKeys(item: ProviderItem): string[] {
  const keys: string[] = [];
  const arxivFromDoi = arxivIdFromDoi(item.doi);
  if (item.doi && !arxivFromDoi) keys.push(`doi:${item.doi}`);
  const arxiv = item.arxiv_id ?? arxivFromDoi;
  if (arxiv) keys.push(`arxiv:${arxiv}`);
  if (item.pmid) keys.push(`pmid:${item.pmid}`);
  return keys;
}

/** Lower case, accents and punctuation removed, white space folded: what title comparison sees. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Blocking keys: two near-identical titles almost always share their first or their last three words, so
 * only titles in the same block are compared, instead of every pair.
 */
export function titleBlocks(normalized: string): string[] {
  const words = normalized.split(' ');
  if (words.length <= 3) return [`all:${normalized}`];
  return [`head:${words.slice(0, 3).join(' ')}`, `tail:${words.slice(-3).join(' ')}`];
}

export function yearsCompatible(a: number | undefined, b: number | undefined): boolean {
  return a === undefined || b === undefined || Math.abs(a - b) <= YEAR_TOLERANCE;
}

export function titlesSimilar(a: string, b: string): boolean {
  if (a === b) return true;
  // Dice needs at least 2 characters on both sides; very short titles only match exactly.
  if (a.length < 8 || b.length < 8) return false;
  return stringSimilarity.compareTwoStrings(a, b) >= TITLE_SIMILARITY_THRESHOLD;
}

export { MAX_COMPARISONS_PER_TITLE };
