import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { boundedItems } from '../domain/result-bounds.js';
import { laterPageFailed, stoppedBeforeEnd, type Provider, type UpstreamTransport } from '../providers/provider.js';
import { CallDeadlines } from './call-deadline.js';
import type { CallerSignal } from './cancellation.js';
import { searchFiltered, type FilteredItems } from './filtered-search.js';
import { applyPostFilters, postFilters, upstreamFilters } from './filters.js';
import { runPipeline, type PipelineDependencies, type PipelineResult, type ProviderTask } from './provider-pipeline.js';
import type { FlightOffer } from './single-flight.js';
import { siteSearches, siteSearchFor } from './site-terms.js';

export { createLimiters } from './provider-pipeline.js';
export { notAsked, turnedOff } from './provider-outcome.js';
export type GatherDependencies = PipelineDependencies;

/** One provider's part of a fan-out: what it found (possibly nothing) and what happened. */
export interface ProviderAnswer {
  provider: Provider;
  items: ProviderItem[];
  outcome: ProviderOutcome;
  /**
   * Set when the upstream may hold more results than `items` and the outcome's count show: the engine filtered
   * the items itself and the upstream's answer was full (filtered-search.ts), or the adapter stopped reading
   * before the upstream's end (Provider MORE_NOT_READ).
   */
  upstreamFull?: true;
  /**
   * Set when a request for more of its results failed (a later page, a deeper round of the engine's own filter), or
   * that deeper round was not asked for want of time before the deadline, and the provider answered with what it had
   * read: its outcome says `ok`, but the answer lacks what that request would have brought once the upstream is back
   * (or to a caller that waits longer), so it is partial (cached-answer.ts). Only with upstreamFull.
   */
  cutShort?: true;
}

/** A task's value: the provider's items as they came, or as the engine's own filters left them. */
type TaskValue = ProviderItem[] | FilteredItems;

/**
 * A fan-out in flight that nobody hears as it goes (no onAnswer): each provider's answer to come, settled or not, as
 * the fan-out itself waits for them. A caller that comes to hear it later does so from these (hearFanOut).
 */
export type ProvidersInFlight = readonly Promise<PipelineResult<TaskValue>>[];

export interface GatherOptions {
  /** The caller's deadline; each provider gets the smaller of this and its own timeout. */
  timeoutMs?: number;
  /**
   * performance.now() time the caller's request arrived: deadlines (timeoutMs and the providers' own) count from
   * it, so what the request waited for before the fan-out (rate limits, the answer cache, a slow Redis) is not added.
   */
  startedAt?: number;
  /** Aborts every provider at once (the client went away). */
  signal?: CallerSignal;
  /** Who asked, for the outbound rate limits' share per caller (PipelineLimits.caller). */
  caller?: string | undefined;
  /** What to ask each provider instead of a search: a paper lookup by identifier (reported as task `lookup`). */
  task?: (provider: Provider, transport: UpstreamTransport, signal: AbortSignal) => Promise<ProviderItem[]>;
  /**
   * Told of each provider's answer the moment it is known, in finish order, including those never asked
   * (not configured, skipped, suspended): a streamed search shows each one as it comes.
   */
  onAnswer?(answer: ProviderAnswer): void;
  /**
   * Where a fan-out without onAnswer leaves its providers' answers to come, for a caller that comes to hear them while
   * it runs (hearFanOut): the one field it writes for that, and nothing per provider.
   */
  offerTo?: FlightOffer<ProvidersInFlight>;
}

/**
 * Asks every provider at once, each through the one provider pipeline (provider-pipeline.ts) under its
 * deadline and abort signal (shared by the providers with the same timeout); a late provider is aborted and
 * reported as `timeout`, a failing one as `error`, and neither holds up the others. Never rejects (unless
 * `onAnswer` throws). Not an async function: a fan-out in flight holds no frame here.
 */
export function gatherResults(
  providers: Provider[],
  query: SearchQuery,
  options: GatherOptions,
  dependencies: GatherDependencies,
): Promise<ProviderAnswer[]> {
  const task = searchTask(query, options.task);
  // Providers with the same timeout share one timer and abort signal; what they leave running stops when all are done.
  const deadlines = new CallDeadlines(options.signal, dependencies.stopping, options.startedAt);
  const limits = { timeoutMs: options.timeoutMs, signal: options.signal, deadlines, caller: options.caller };
  let pending: Promise<PipelineResult<TaskValue>>[];
  try {
    pending = providers.map((provider) => runPipeline(provider, task, limits, dependencies));
  } catch (error) {
    deadlines.finish();
    return Promise.reject(error);
  }
  // Each provider has sent its first request by now, unless it waits for a rate-limit slot.
  deadlines.arm();
  const done = <V>(value: V): V => {
    deadlines.finish();
    return value;
  };
  const failed = (error: unknown): never => {
    deadlines.finish();
    throw error;
  };
  const { onAnswer } = options;
  const depth = depthOf(query, options.task);
  // Most callers take every answer at once: made when all are in, with no step per provider.
  if (!onAnswer) {
    if (options.offerTo) options.offerTo.offered = pending;
    return Promise.all(pending).then((results) => done(results.map((result) => answerOf(result, depth))), failed);
  }
  // A caller that hears each answer as it comes (a stream, MCP progress) gets one step per provider.
  const heard = pending.map((result) =>
    result.then((finished) => {
      const answer = answerOf(finished, depth);
      onAnswer(answer);
      return answer;
    }),
  );
  return Promise.all(heard).then(done, failed);
}

/**
 * Tells `onAnswer` each provider's answer of a fan-out in flight that nobody heard as it went (GatherOptions.offerTo),
 * as one that did hear it would have been told: at once those already in, in the order they finished (the shortest
 * latency first: the providers were asked together), each but the last with `moreAtOnce`; then each other one the
 * moment it finishes, before the fan-out's own value. `depth`: the query's limit, as the fan-out was asked (answerOf).
 * `onAnswer` must not throw: nothing would hear it.
 */
export function hearFanOut(providers: ProvidersInFlight, depth: number, onAnswer: (answer: ProviderAnswer, moreAtOnce: boolean) => void): void {
  const missed: ProviderAnswer[] = [];
  let caughtUp = false;
  for (const pending of providers) {
    // A callback added to each: those already in queue theirs at once, in turn, and the one added after them runs last.
    // Added after the fan-out's own, each one runs before the fan-out's value is made.
    // runPipeline never rejects; should making an answer throw, the fan-out's own value fails with it and tells every
    // caller, so the failure is not left unhandled here (an unhandled rejection ends the process).
    pending.then((result) => {
      const answer = answerOf(result, depth);
      if (caughtUp) onAnswer(answer, false);
      else missed.push(answer);
    }).catch(ignoreFailure);
  }
  queueMicrotask(() => {
    caughtUp = true;
    missed.sort((first, second) => first.outcome.latency_ms - second.outcome.latency_ms);
    for (let index = 0; index < missed.length; index += 1) onAnswer(missed[index]!, index < missed.length - 1);
  });
}

function ignoreFailure(): void {}

/**
 * How many of a provider's items a search reads: as many as it asked for (undefined: all, for a lookup). An API
 * with no page size (SearXNG) answers its whole first page however few were asked for; ranking those past the
 * depth would fuse a list that a later page, gathered again once the answer is no longer kept, cannot rebuild
 * (paged-ranking.ts cuts each list to the depth each page asked): pages would repeat one result and skip another.
 * What lies past the depth is read again when a deeper page asks for it.
 */
function depthOf(query: SearchQuery, ask: GatherOptions['task']): number | undefined {
  return ask ? undefined : query.limit;
}

function answerOf(result: PipelineResult<TaskValue>, depth: number | undefined): ProviderAnswer {
  const { provider, outcome } = result;
  // A provider whose deadline passed during a later page or a deeper round still gives what it read before it.
  const value = result.ok ? result.value : result.readBeforeDeadline;
  if (value === undefined) return { provider, items: [], outcome };
  const found = Array.isArray(value) ? value : value.items;
  const upstreamFull = Array.isArray(value) ? stoppedBeforeEnd(value) : value.upstreamFull;
  const read = depth !== undefined && found.length > depth ? found.slice(0, depth) : found;
  // Every provider's items pass here before merging: bounded once, for all of them, they bound what each surface
  // shows and what merging spends on comparing titles. The outcome's count stays what the provider answered.
  const items = boundedItems(read);
  if (!upstreamFull) return { provider, items, outcome };
  // A failed request for more always leaves the items marked short of the upstream's end: only those are looked at.
  const cutShort = Array.isArray(value) ? laterPageFailed(value) : value.cutShort;
  return cutShort ? { provider, items, outcome, upstreamFull: true, cutShort: true } : { provider, items, outcome, upstreamFull: true };
}

/**
 * A search (or the given task) whose items pass the filters the provider could not apply itself. A web search's
 * site: terms are such filters too (site-terms.ts): each provider is sent the search it can read.
 */
function searchTask(query: SearchQuery, ask: GatherOptions['task']): ProviderTask<TaskValue> {
  // Undefined for nearly every search (one test of its text): it is then sent to every provider as it is.
  const sites = ask ? undefined : siteSearches(query);
  return {
    name: ask ? 'lookup' : 'search',
    filters: sites === undefined ? query.filters : sites.asTyped.filters,
    queryText: ask ? undefined : query.text,
    // Tavily is sent the text without its site: terms: a term it never gets must not make the text too long for it.
    queryTextFor: sites === undefined ? undefined : (provider) => siteSearchFor(provider, sites).text,
    run: (provider, transport, signal, deadline) => {
      const search = sites === undefined ? query : siteSearchFor(provider, sites);
      const keep = keepOf(provider, search);
      // Most searches set no filter that is left to the engine: their answer is the provider's, with no step after
      // it. The others work out their filters again when the items arrive (a few names; no second entry point).
      if (!keep) return ask ? ask(provider, transport, signal) : provider.search(search, transport, signal);
      // A lookup is by identifier, never asked deeper; a search its filters leave short is (filtered-search.ts).
      return ask ? ask(provider, transport, signal).then(keep) : searchFiltered(provider, search, keep, { transport, signal, deadline });
    },
    // The results kept, as deep as a search reads them (answerOf): what the outcome's count has always said. Paging
    // reads `upstreamFull` besides it.
    count: (value) => {
      const found = (Array.isArray(value) ? value : value.items).length;
      return ask ? found : Math.min(found, query.limit);
    },
    // A lookup reads one page. A search's items read before a later page are short of the upstream's end already
    // (Provider.readMorePages marks them); those a filtered search read before a deeper page or round are too.
    answerFromItemsRead: ask
      ? undefined
      : (provider, items) => {
          const keep = keepOf(provider, sites === undefined ? query : siteSearchFor(provider, sites));
          // The deadline cut it short: the outcome says `timeout`, which makes the answer partial already.
          return keep ? { items: keep(items).slice(0, query.limit), upstreamFull: true, cutShort: false } : items;
        },
  };
}

/** The engine's own filters of a search on this provider (those its API lacks), or undefined when it has none. */
function keepOf(provider: Provider, query: SearchQuery): ((items: ProviderItem[]) => ProviderItem[]) | undefined {
  const native = upstreamFilters(query.filters, provider.settings);
  if (postFilters(query.filters, native).length === 0) return undefined;
  return (items) => applyPostFilters(items, query.filters, native);
}
