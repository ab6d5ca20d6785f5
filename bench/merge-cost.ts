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
  medianMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Times groupResults + rankResults over the same entries `runs` times (after two warm-up runs); the median counts. */
export function timeMerge(kind: SearchKind, entries: RankedItem[], runs: number): MergeTiming {
  let groups = 0;
  const once = (): number => {
    const started = performance.now();
    const grouped = groupResults(kind, entries);
    rankResults(grouped, { k: 60, explain: true });
    const elapsed = performance.now() - started;
    groups = grouped.length;
    return elapsed;
  };
  once();
  once();
  const timings = Array.from({ length: runs }, once);
  return { kind, results: entries.length, groups, runs, medianMs: median(timings) };
}

/** Result counts timed, with the runs each gets (fewer for the large ones: the median is stable sooner). */
const MERGE_SIZES: Array<[results: number, runs: number]> = [
  [1_000, 51],
  [10_000, 11],
  [100_000, 3],
];

export function runMergeCost(): void {
  const timings: MergeTiming[] = (['papers', 'web'] as const).flatMap((kind) =>
    MERGE_SIZES.map(([results, runs]) => timeMerge(kind, kind === 'papers' ? syntheticPapers(results) : syntheticWebResults(results), runs)),
  );
  const rows = timings.map((timing) => [
    timing.kind,
    timing.results.toLocaleString('en-US'),
    timing.groups.toLocaleString('en-US'),
    timing.runs,
    format(timing.medianMs, 2),
    format((timing.medianMs * 1000) / timing.results, 2),
  ]);
  printTable('Merge + rank cost (groupResults + rankResults, median of the runs, after 2 warm-up runs)', ['kind', 'results', 'groups', 'runs', 'median ms', 'µs per result'], rows);
  const ratio = (kind: string, larger: number, smaller: number): string => {
    const timeOf = (results: number): number => timings.find((timing) => timing.kind === kind && timing.results === results)!.medianMs;
    return format(timeOf(larger) / timeOf(smaller), 1);
  };
  console.log(`\n10,000 / 1,000 time ratio:   papers ${ratio('papers', 10_000, 1_000)}, web ${ratio('web', 10_000, 1_000)} (goal ≤ 10: exactly linear)`);
  console.log(`100,000 / 10,000 time ratio: papers ${ratio('papers', 100_000, 10_000)}, web ${ratio('web', 100_000, 10_000)} (10 would be exactly linear)`);
}
