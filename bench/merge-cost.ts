import type { ProviderItem, SearchKind } from '../src/domain/result.js';
import { groupResults, type RankedItem } from '../src/engine/merge.js';
import { rankResults } from '../src/engine/rank.js';
import { format, printTable } from './report.js';

/**
 * The cost of merging and ranking, without the network: groupResults + rankResults (as the service runs
 * them, with explanations) over synthetic results that overlap the way real providers' results do.
 */

/** A small seeded generator (mulberry32): the same inputs on every run, so figures compare across runs. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'learning neural network graph attention transformer model language vision robust efficient sparse deep ' +
  'protein structure prediction genome cell cancer clinical trial patient outcome survival therapy immune ' +
  'quantum circuit error correction optimization convex stochastic gradient descent bayesian inference ' +
  'causal estimation federated privacy secure distributed system scalable retrieval search ranking query ' +
  'document embedding contrastive representation generative diffusion adversarial reinforcement policy ' +
  'agent reward control dynamics climate ocean carbon soil plant species evolution population spatial ' +
  'temporal series forecasting anomaly detection segmentation image video speech audio signal sensor'
).split(' ');
/** Real result lists are full of titles that begin alike; these make the title blocks crowded. */
const COMMON_OPENINGS = ['a survey of', 'towards', 'on the', 'a study of', 'learning to'];
const PAPER_PROVIDERS = ['arxiv', 'semanticscholar', 'pubmed', 'openalex'];
const WEB_PROVIDERS = ['brave', 'tavily', 'searxng', 'exa', 'wikipedia'];

interface Work {
  title: string;
  year: number;
  doi?: string;
  arxivId?: string;
  pmid?: string;
}

function makeTitle(random: () => number): string {
  const length = 5 + Math.floor(random() * 8);
  const words = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  const title = words.join(' ');
  return random() < 0.15 ? `${COMMON_OPENINGS[Math.floor(random() * COMMON_OPENINGS.length)]} ${title}` : title;
}

/** How one provider spells a work: identifiers it knows, a title written its way, a year that may be off by one. */
function paperVariant(work: Work, provider: string, random: () => number): ProviderItem {
  const item: ProviderItem = { title: work.title, url: `https://${provider}.example.org/${encodeURIComponent(work.title)}`, year: work.year };
  const knowsIdentifiers = random() < 0.8;
  if (knowsIdentifiers && work.doi && provider !== 'arxiv') item.doi = work.doi;
  if (knowsIdentifiers && work.arxivId && provider !== 'pubmed') item.arxiv_id = work.arxivId;
  if (knowsIdentifiers && work.pmid && provider === 'pubmed') item.pmid = work.pmid;
  const spelling = random();
  if (spelling < 0.2) item.title = `${work.title.charAt(0).toUpperCase()}${work.title.slice(1)}.`;
  else if (spelling < 0.3) item.title = work.title.replace(/ /, ': ');
  if (random() < 0.1) item.year = work.year + 1;
  if (random() < 0.3) item.abstract = `Abstract of ${work.title}.`;
  if (random() < 0.5) item.citation_count = Math.floor(random() * 500);
  return item;
}

/** `count` paper results from four providers: about 2.5 results per distinct work, matched by id or by title. */
export function syntheticPapers(count: number, seed = 1): RankedItem[] {
  const random = seededRandom(seed);
  const works: Work[] = Array.from({ length: Math.ceil(count / 2.5) }, (_, index) => {
    const work: Work = { title: makeTitle(random), year: 2000 + Math.floor(random() * 25) };
    if (random() < 0.6) work.doi = `10.${1000 + (index % 9000)}/bench.${index}`;
    if (random() < 0.4) work.arxivId = `${2100 + (index % 400)}.${String(index).padStart(5, '0')}`;
    if (random() < 0.2) work.pmid = String(30_000_000 + index);
    return work;
  });
  return withRanks(count, random, PAPER_PROVIDERS, (provider) => paperVariant(works[Math.floor(random() * works.length)]!, provider, random));
}

/** `count` web results from five providers: about two results per page, the same URL spelled in different ways. */
export function syntheticWebResults(count: number, seed = 2): RankedItem[] {
  const random = seededRandom(seed);
  const pages = Math.ceil(count / 2);
  return withRanks(count, random, WEB_PROVIDERS, (provider) => {
    const page = Math.floor(random() * pages);
    const host = `${random() < 0.5 ? 'www.' : ''}site${page % 97}.example.com`;
    const tracking = random() < 0.5 ? `&utm_source=${provider}&utm_medium=search` : '';
    const slash = random() < 0.5 ? '/' : '';
    return {
      title: `Page ${page} about ${WORDS[page % WORDS.length]}`,
      url: `https://${host}/articles/${page}${slash}?b=2&a=1${tracking}`,
      snippet: `Snippet of page ${page} as ${provider} shows it.`,
    };
  });
}

function withRanks(count: number, random: () => number, providers: string[], itemFor: (provider: string) => ProviderItem): RankedItem[] {
  const nextRank = new Map(providers.map((provider) => [provider, 1]));
  return Array.from({ length: count }, () => {
    const provider = providers[Math.floor(random() * providers.length)]!;
    const rank = nextRank.get(provider)!;
    nextRank.set(provider, rank + 1);
    return { provider, rank, weight: 1, item: itemFor(provider) };
  });
}

export interface MergeTiming {
  kind: SearchKind;
  results: number;
  groups: number;
  runs: number;
  /** Total time over runs: the cost of a merge with its share of garbage collection. */
  meanMs: number;
  medianMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One merge of `entries` (groupResults + rankResults, with explanations, as a kept answer is ranked): its time and groups. */
function mergeOnce(kind: SearchKind, entries: RankedItem[]): { elapsed: number; groups: number } {
  const started = performance.now();
  const grouped = groupResults(kind, entries);
  rankResults(grouped, { k: 60, explain: true });
  return { elapsed: performance.now() - started, groups: grouped.length };
}

/** Result counts timed, with the time each gets per round (at least one run). */
const MERGE_SIZES: Array<[results: number, budgetMs: number]> = [
  [1_000, 150],
  [10_000, 300],
  [100_000, 0],
];
const ROUNDS = 5;
const WARM_UP_MS = 500;

/**
 * Times every size of one kind in rounds taken in turn (1,000, 10,000, 100,000, then again), after a warm-up on
 * the two smaller sets, so that JIT warm-up and machine noise fall on every size alike. The mean counts: a
 * young-generation collection comes every few runs at 1,000 results and within every run at 10,000, so the
 * median of the small runs leaves collection out while the large runs pay it; the mean gives each its share.
 */
export function timeMergeSizes(kind: SearchKind, sets: Array<{ entries: RankedItem[]; budgetMs: number }>): MergeTiming[] {
  const warmUpEnd = performance.now() + WARM_UP_MS;
  while (performance.now() < warmUpEnd) for (const set of sets.slice(0, 2)) mergeOnce(kind, set.entries);
  const timings = sets.map(() => ({ runs: [] as number[], groups: 0 }));
  for (let round = 0; round < ROUNDS; round += 1) {
    sets.forEach((set, index) => {
      const end = performance.now() + set.budgetMs;
      do {
        const { elapsed, groups } = mergeOnce(kind, set.entries);
        timings[index]!.runs.push(elapsed);
        timings[index]!.groups = groups;
      } while (performance.now() < end);
    });
  }
  return sets.map((set, index) => {
    const { runs, groups } = timings[index]!;
    return { kind, results: set.entries.length, groups, runs: runs.length, meanMs: runs.reduce((sum, run) => sum + run, 0) / runs.length, medianMs: median(runs) };
  });
}

export function runMergeCost(): void {
  const timings: MergeTiming[] = (['papers', 'web'] as const).flatMap((kind) =>
    timeMergeSizes(
      kind,
      MERGE_SIZES.map(([results, budgetMs]) => ({ entries: kind === 'papers' ? syntheticPapers(results) : syntheticWebResults(results), budgetMs })),
    ),
  );
  const rows = timings.map((timing) => [
    timing.kind,
    timing.results.toLocaleString('en-US'),
    timing.groups.toLocaleString('en-US'),
    timing.runs,
    format(timing.meanMs, 2),
    format(timing.medianMs, 2),
    format((timing.meanMs * 1000) / timing.results, 2),
  ]);
  printTable(
    `Merge + rank cost (groupResults + rankResults; ${ROUNDS} rounds taken in turn after ${WARM_UP_MS} ms of warm-up)`,
    ['kind', 'results', 'groups', 'runs', 'mean ms', 'median ms', 'µs per result (mean)'],
    rows,
  );
  const ratio = (kind: string, larger: number, smaller: number, statistic: 'meanMs' | 'medianMs'): string => {
    const timeOf = (results: number): number => timings.find((timing) => timing.kind === kind && timing.results === results)![statistic];
    return format(timeOf(larger) / timeOf(smaller), 1);
  };
  const line = (larger: number, smaller: number): string =>
    `papers ${ratio('papers', larger, smaller, 'meanMs')}, web ${ratio('web', larger, smaller, 'meanMs')} (medians: ${ratio('papers', larger, smaller, 'medianMs')}, ${ratio('web', larger, smaller, 'medianMs')})`;
  console.log(`\n10,000 / 1,000 time ratio, means:   ${line(10_000, 1_000)} (goal ≤ 10: exactly linear)`);
  console.log(`100,000 / 10,000 time ratio, means: ${line(100_000, 10_000)} (10 would be exactly linear)`);
}
