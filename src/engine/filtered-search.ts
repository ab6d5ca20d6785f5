import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { laterPageFailed, stoppedBeforeEnd, type Provider, type UpstreamTransport } from '../providers/provider.js';

/**
 * A search whose results the engine filters itself (a filter the provider's API lacks, such as Brave's
 * `include_domains`). The provider is asked for its first `query.limit` results like any other, but the filter
 * may keep only a few of them; the rest of what it matches lies deeper. So while fewer than `query.limit` are
 * kept and the upstream gave all it was asked for, it is asked again, deeper, a bounded number of times and only
 * while the deadline leaves room. Each round asks from the first result again (adapters read from the first),
 * so the kept items stay in the provider's own order.
 */

/** Deeper rounds after the first, at most: each re-reads the pages before it, under the rate limit. */
const DEEPER_ROUNDS = 2;
/** Each deeper round asks at least twice and at most eight times as deep as the one before. */
const LEAST_GROWTH = 2;
const MOST_GROWTH = 8;
/** The deepest a filtered search asks: about what the deepest page of an unfiltered search asks (50 × 10 + 1). */
const DEEPEST = 500;

/** A provider's items after the engine's filters, and whether its upstream may hold more that they would keep. */
export interface FilteredItems {
  items: ProviderItem[];
  /**
   * The upstream's last answer was as long as asked: results past it may match too, however few were kept.
   * Paging relies on it (paging.ts): the kept count alone would say such a provider has nothing more.
   */
  upstreamFull: boolean;
  /**
   * A request for more failed (a deeper round, or a later page of the last round read), or a deeper round was not
   * asked for want of time before the deadline: the upstream held more than the items came from, for a reason that may
   * pass (Provider's laterPageFailed; a caller that waits longer, or a faster upstream). Always with upstreamFull.
   */
  cutShort: boolean;
}

export interface FilteredCall {
  transport: UpstreamTransport;
  signal: AbortSignal;
  /** performance.now() time by which the call must be done: a round that would not fit is not started. */
  deadline: number;
}

/** One round's answer: how deep it asked, what the upstream gave and what the filters kept of it. */
interface Round {
  asked: number;
  /** The upstream's items, before the filters. */
  read: ProviderItem[];
  /** The upstream may hold more than it gave: as many as asked came, or the adapter stopped reading early. */
  full: boolean;
  /** A later page of this round failed (laterPageFailed). */
  cutShort: boolean;
  kept: ProviderItem[];
  took: number;
}

/** Up to `query.limit` of the provider's results that pass `keep`, asking deeper while too few pass. */
export async function searchFiltered(
  provider: Provider,
  query: SearchQuery,
  keep: (items: ProviderItem[]) => ProviderItem[],
  call: FilteredCall,
): Promise<FilteredItems> {
  const ask = async (limit: number): Promise<Round> => {
    const started = performance.now();
    const found = await provider.search(limit === query.limit ? query : { ...query, limit }, call.transport, call.signal);
    const full = found.length >= limit || stoppedBeforeEnd(found);
    return { asked: limit, read: found, full, cutShort: full && laterPageFailed(found), kept: keep(found), took: performance.now() - started };
  };
  let round = await ask(query.limit);
  let deeperNotRead = false;
  for (let deeper = 0; deeper < DEEPER_ROUNDS && mayFindMore(round, query.limit); deeper += 1) {
    const limit = deeperLimit(round, query.limit);
    // A round that would not end before the deadline is not started: the abort would cut its requests off unanswered.
    // The answer is then short of what more time finds, as after a failed round: kept as complete, a caller's short
    // timeout_ms gave every later caller, however long it waits, the few results the first round kept.
    if (!fitsBefore(call.deadline, round, limit)) {
      deeperNotRead = true;
      break;
    }
    // Should the deadline pass during the deeper round, the call answers with what this one read (as far as the
    // deeper round's own pages do not go further), filtered again (gather.ts).
    call.transport.readSoFar?.(round.read);
    try {
      round = await ask(limit);
    } catch (error) {
      // A deeper round that fails (a 429, no rate-limit slot in time) leaves the round before it good.
      if (call.signal.aborted) throw error;
      deeperNotRead = true;
      break;
    }
  }
  return { items: round.kept.slice(0, query.limit), upstreamFull: round.full, cutShort: deeperNotRead || round.cutShort };
}

/** Too few were kept, the upstream may hold more (it gave all it was asked for), and a deeper ask is allowed. */
function mayFindMore(round: Round, wanted: number): boolean {
  return round.kept.length < wanted && round.full && round.asked < DEEPEST;
}

/** Whether the time left would hold a round `limit` deep, guessing its time grows with its depth (pages read). */
function fitsBefore(deadline: number, round: Round, limit: number): boolean {
  return deadline - performance.now() > (round.took * limit) / round.asked;
}

/** As deep as the share the filters kept suggests would fill `wanted`, within the growth bounds and DEEPEST. */
function deeperLimit(round: Round, wanted: number): number {
  const estimate = round.kept.length === 0 ? round.asked * MOST_GROWTH : Math.ceil((round.read.length * wanted) / round.kept.length);
  const bounded = Math.min(Math.max(estimate, round.asked * LEAST_GROWTH), round.asked * MOST_GROWTH);
  return Math.min(bounded, DEEPEST);
}
