import { errors as undiciErrors, type Dispatcher } from 'undici';
import { FedsearchError } from '../domain/errors.js';
import type { ProviderItem } from '../domain/result.js';
import type { Provider, UpstreamRequest, UpstreamResponse, UpstreamTransport } from '../providers/provider.js';
import { MAX_CODINGS, decodedBody, type DecodeErrors } from '../transport/content-coding.js';
import { networkCause } from '../transport/network-errors.js';
import { exchange, type ExchangeErrors, type ExchangeResult } from '../transport/upstream-exchange.js';
import { ProviderSuspended } from './provider-outcome.js';
import type { Suspension } from './provider-health.js';
import { secretValues } from './redact.js';
import { statusError } from './status-error.js';
import { MAX_FOLLOWED_REDIRECTS, UpstreamRedirect, redirectError } from './upstream-redirect.js';
import { USER_AGENT } from '../version.js';

/** One decoder for every body: without `stream` a decode keeps no state between calls (and drops a BOM, as before). */
const UTF8 = new TextDecoder('utf-8');
/** The headers of a request whose adapter sets none; undici only reads them. */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'user-agent': USER_AGENT });

export interface TransportOptions {
  dispatcher: Dispatcher;
  maxBytes: number;
}

/** The transport a provider's requests go through: HTTP errors become typed, per-provider errors. */
export function createUpstreamTransport(provider: Provider, options: TransportOptions): UpstreamTransport {
  return new ProviderTransport(provider, options);
}

/**
 * One provider's way out, made once per provider: a request is one continuation of the exchange, with the
 * headers and the error mapping it needs, and nothing else held while the upstream thinks.
 */
class ProviderTransport implements UpstreamTransport {
  private readonly errors: ExchangeErrors & DecodeErrors;
  /**
   * This provider's own keys: an upstream can echo only what it was sent, and its error text is cut here, so
   * it is redacted here, before the cut can split a key into pieces that whole-key redaction would miss.
   */
  private readonly secrets: readonly string[];
  /** An adapter's frozen headers (the same object on every request) with the user agent, merged once. */
  private merged: { given: Readonly<Record<string, string>>; headers: Readonly<Record<string, string>> } | undefined;

  constructor(
    private readonly provider: Provider,
    private readonly options: TransportOptions,
  ) {
    this.secrets = secretValues([provider]);
    this.errors = {
      tooLarge: () => new FedsearchError('PROVIDER_PARSE', `the body is larger than ${options.maxBytes} bytes`),
      undecodable: (coding) => new FedsearchError('PROVIDER_PARSE', `the ${coding} body could not be decompressed`),
      tooManyCodings: (count) =>
        new FedsearchError('PROVIDER_PARSE', `the body names ${count} content codings (Content-Encoding); at most ${MAX_CODINGS} are undone`),
      failed: (error, signal, url) => networkError(error, signal, provider, url),
    };
  }

  send<T>(upstream: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T): Promise<T> {
    // The answer is read as the exchange ends, not in a step chained after it: nothing but the exchange's
    // promise and this reader is held while the upstream thinks, and the promise holds only what `read` made.
    return exchange(
      this.options.dispatcher,
      { url: upstream.url, method: upstream.method ?? 'GET', headers: this.headersFor(upstream.headers), body: upstream.body },
      signal,
      this.options.maxBytes,
      this.errors,
      (result) => read(this.answer(upstream, result)),
    );
  }

  /** The exchange as the adapter reads it: a decoded string body, one value per header; a status error unless accepted. */
  private answer(upstream: UpstreamRequest, exchanged: ExchangeResult): UpstreamResponse {
    const headers = singleValued(exchanged.headers);
    const status = exchanged.status;
    const read = (status >= 200 && status < 300) || upstream.acceptStatuses?.includes(status) === true;
    let body: Buffer;
    try {
      body = decodedBody(exchanged.body, headers['content-encoding'], this.options.maxBytes, this.errors);
    } catch (error) {
      // An error answer is judged by its status (a 502 is retried, a 401 counts as credentials): a body that does
      // not decode only loses its description.
      if (read) throw error;
      body = Buffer.alloc(0);
    }
    const response: UpstreamResponse = { url: upstream.url, status, headers, body: UTF8.decode(body) };
    if (read) return response;
    // Not followed here (the request carries the provider's key): the error says where it leads and what to set,
    // and holds the address the call's transport may follow when it stays within the same API.
    if (status >= 300 && status < 400) throw redirectError(upstream, response, this.provider, this.secrets);
    throw statusError(response, this.provider, this.secrets);
  }

  /** The user agent, then the adapter's headers (which may replace it). */
  private headersFor(given: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
    if (!given) return DEFAULT_HEADERS;
    if (this.merged?.given === given) return this.merged.headers;
    const headers = { 'user-agent': USER_AGENT, ...given };
    // A frozen object cannot change, so its merge holds for every later request that brings it.
    if (Object.isFrozen(given)) this.merged = { given, headers: Object.freeze(headers) };
    return headers;
  }
}

/**
 * The response headers with one string per name, repeated headers joined with ", ". Undici's own object is
 * that already unless a header came more than once (or is named `__proto__`, which a plain copy drops), so it
 * is copied only then.
 */
function singleValued(received: ExchangeResult['headers']): Record<string, string> {
  let plain = !Object.hasOwn(received, '__proto__');
  for (const name in received) {
    if (typeof received[name] !== 'string') {
      plain = false;
      break;
    }
  }
  if (plain) return received as Record<string, string>;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(received)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Maps a transport failure to a typed error naming the provider and the host it tried ("youtube_web
 * (www.youtube.com): host not found"), so an operation's 502 says which upstream failed. Only the host:
 * paths and query strings can carry keys. An abort is passed through for the engine to classify.
 */
function networkError(error: unknown, signal: AbortSignal, provider: Provider, url: string): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof undiciErrors.RequestAbortedError) return error;
  const known = networkCause(error);
  return new FedsearchError('PROVIDER_NETWORK', `${provider.name} (${hostOf(url)}): ${known?.cause ?? 'request failed'}`, {
    cause: error,
    details: { networkCode: known?.code },
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || 'no host';
  } catch {
    return 'an invalid URL';
  }
}

const RETRYABLE_STATUSES = new Set([502, 503]);
const RETRYABLE_NETWORK = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/**
 * A failure worth one more try of a request with `method`: the upstream's gateway said 502 or 503 without
 * saying when to come back, or, for a GET, the connection was reset. A POST (Tavily's, Exa's, Firecrawl's
 * searches, billed per request) may have been delivered before a reset, so it is not sent twice for one.
 */
export function isRetryable(error: unknown, method: UpstreamRequest['method'] = 'GET'): boolean {
  if (!(error instanceof FedsearchError)) return false;
  if (error.code === 'PROVIDER_HTTP') {
    return error.upstreamStatus !== undefined && RETRYABLE_STATUSES.has(error.upstreamStatus) && error.retryAfterMs === undefined;
  }
  if (error.code !== 'PROVIDER_NETWORK' || method === 'POST') return false;
  const networkCode = (error.details as { networkCode?: string } | undefined)?.networkCode;
  return networkCode !== undefined && RETRYABLE_NETWORK.has(networkCode);
}

/** The provider's circuit breaker as a call's requests meet it (ProviderHealth). */
export interface RequestBreaker {
  /** Why no request may leave now (the circuit opened since the call was admitted), or undefined. */
  suspension(): Suspension | undefined;
  /** The upstream answered with Retry-After: hold every request to it that long. */
  hold(retryAfterMs: number): void;
}

/**
 * The transport of one provider call: each request takes its own outbound slot, except the first, whose slot
 * the pipeline took with its concurrency place; a request that failed with a reset, 502 or 503 is tried
 * once more, but only when the time left before the deadline is at least what the failed attempt took: a
 * retry never runs past the deadline (the abort would cut it anyway); and a GET redirected within the same API
 * (UpstreamRedirect.followable: an OpenAlex ID merged into another) is sent again, as it was, to the new address,
 * with a slot of its own, at most MAX_FOLLOWED_REDIRECTS times. Every request, once its slot is in hand, asks the
 * breaker again: one whose call waited here while the circuit opened (another call heard 429 with Retry-After) is
 * not sent; and an upstream's Retry-After reaches the breaker as it arrives, before the call's outcome. One object
 * and one continuation per request, however many of these rules apply.
 */
export class CallTransport implements UpstreamTransport {
  private firstSlotUnused = true;
  /** Waits for later requests' slots, measured as one span however many overlap: how many now, since when, the total. */
  private slotWaits = 0;
  private slotWaitsSince = 0;
  private slotWaitedMs = 0;
  /** The longest list the call's search had read when it asked for more (readSoFar); undefined for one page. */
  private itemsRead: ProviderItem[] | undefined;

  constructor(
    private readonly transport: UpstreamTransport,
    private readonly deadlineAt: number,
    private readonly takeSlot?: (signal: AbortSignal) => Promise<void>,
    private readonly breaker?: RequestBreaker,
  ) {}

  /**
   * How long the call spent waiting here for its later requests' slots by now (a wait under way counts up to now):
   * time the upstream did not have, which a timeout must not count against it (AdmittedCall.waitedHere).
   */
  slotWaitMs(): number {
    return this.slotWaitedMs + (this.slotWaits > 0 ? performance.now() - this.slotWaitsSince : 0);
  }

  /**
   * Kept unless a longer list was read already: a filtered search's deeper round reads from the first result again,
   * and its first pages may hold fewer than the round before it read.
   */
  readSoFar(items: ProviderItem[]): void {
    if (this.itemsRead === undefined || items.length >= this.itemsRead.length) this.itemsRead = items;
  }

  /** What the call's search had read when it last asked for more: what a deadline passing now leaves it (AdmittedCall). */
  itemsReadSoFar(): ProviderItem[] | undefined {
    return this.itemsRead;
  }

  send<T>(upstream: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T): Promise<T> {
    if (this.takeSlot && !this.firstSlotUnused) return this.nextSlot(this.takeSlot, signal).then(() => this.attempt(upstream, signal, read, 0));
    this.firstSlotUnused = false;
    return this.attempt(upstream, signal, read, 0);
  }

  /**
   * One try, and the retry its failure may earn; continuations rather than async frames, as in ProviderTransport.
   * What `read` throws (a body that does not parse) is never retryable: the same answer would come again.
   */
  private attempt<T>(upstream: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T, followed: number): Promise<T> {
    const started = performance.now();
    return this.sendNow(upstream, signal, read).catch((error: unknown) => {
      this.heard(error);
      if (error instanceof UpstreamRedirect && error.followable !== undefined && !signal.aborted) {
        return this.follow({ ...upstream, url: error.followable }, error, signal, read, followed);
      }
      const took = performance.now() - started;
      if (signal.aborted || !isRetryable(error, upstream.method) || this.deadlineAt - performance.now() < took) throw error;
      if (!this.takeSlot) return this.retried(upstream, signal, read);
      // No slot for the retry in time: the answer is the upstream's failure, not our rate limit (which the breaker
      // would not count, leaving an upstream that fails every request in service).
      return this.nextSlot(this.takeSlot, signal).then(
        () => this.retried(upstream, signal, read),
        () => {
          throw error;
        },
      );
    });
  }

  /**
   * One request leaving, unless the breaker opened meanwhile (its call waited here while another heard Retry-After).
   * What it fails with reaches the breaker in attempt()'s own handler (heard), so a request that succeeds makes no
   * step more than before: one per provider call is what a busy replica holds thousands of.
   */
  private sendNow<T>(upstream: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T): Promise<T> {
    const suspension = this.breaker?.suspension();
    if (suspension) return Promise.reject(new ProviderSuspended(suspension.reason, suspension.retryAfterMs));
    return this.transport.send(upstream, signal, read);
  }

  /** The one retry of a failed request, its failure heard by the breaker too. */
  private retried<T>(upstream: UpstreamRequest, signal: AbortSignal, read: (response: UpstreamResponse) => T): Promise<T> {
    return this.sendNow(upstream, signal, read).catch((error: unknown) => {
      this.heard(error);
      throw error;
    });
  }

  /**
   * An upstream's Retry-After (a 429's, a 503's) told to the breaker as the answer arrives: before the call's
   * concurrency place passes on, and even when the adapter keeps the pages before it and answers.
   */
  private heard(error: unknown): void {
    if (error instanceof FedsearchError && error.upstreamStatus !== undefined && error.retryAfterMs !== undefined) this.breaker?.hold(error.retryAfterMs);
  }

  /**
   * `next`: the request redirected, the same one (method, headers, accepted statuses) to where the redirect leads,
   * sent under the same signal and so the same deadline, through the same provider transport and so the same key
   * handling and redaction.
   */
  private follow<T>(next: UpstreamRequest, redirect: UpstreamRedirect, signal: AbortSignal, read: (response: UpstreamResponse) => T, followed: number): Promise<T> {
    if (followed >= MAX_FOLLOWED_REDIRECTS) throw redirect.pastLimit();
    if (!this.takeSlot) return this.attempt(next, signal, read, followed + 1);
    return this.nextSlot(this.takeSlot, signal).then(() => this.attempt(next, signal, read, followed + 1));
  }

  /** A later request's slot, its wait measured (slotWaitMs). */
  private nextSlot(takeSlot: (signal: AbortSignal) => Promise<void>, signal: AbortSignal): Promise<void> {
    if (this.slotWaits++ === 0) this.slotWaitsSince = performance.now();
    const over = (): void => {
      if (--this.slotWaits === 0) this.slotWaitedMs += performance.now() - this.slotWaitsSince;
    };
    return takeSlot(signal).then(over, (error: unknown) => {
      over();
      throw error;
    });
  }
}
