import { request, type Dispatcher } from 'undici';
import { boundedText } from '../domain/cut-text.js';
import { FedsearchError } from '../domain/errors.js';
import { hideUrlUserinfo } from '../domain/url-userinfo.js';
import { decodedBody, MAX_CODINGS, type DecodeErrors } from '../transport/content-coding.js';
import { createPinnedAgent, type ResolvedAddress } from '../transport/dispatchers.js';
import { networkCause } from '../transport/network-errors.js';
import { discardBody, readBodyCapped } from '../transport/read-body.js';
import { checkFetchTarget, type CheckedTarget, type HostResolver, type TargetPolicy } from './fetch-target.js';
import { slotWaitNote, type SlotWait } from './lookup-slots.js';
import type { Nat64Prefix } from './nat64-prefixes.js';
import { ALLOWED_CONTENT_TYPES, kindOfMediaType, parseContentType, sniffKind, textBodyMismatch, type DocumentKind } from './content-type.js';
import { USER_AGENT } from '../version.js';

export const DEFAULT_FETCH_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 20_000;
export const MAX_REDIRECTS = 5;
export type { HostResolver, ResolvedAddress };

const ACCEPT = 'text/html,application/xhtml+xml,application/json;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SafeFetchOptions {
  /** Largest body read (FETCH_MAX_BYTES); a larger one fails with FETCH_TOO_LARGE. */
  maxBytes?: number;
  /** For the whole fetch, redirects included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Skips the address policy for every host (FETCH_ALLOW_PRIVATE=true): for tests and private deployments. */
  allowPrivate?: boolean;
  /** Skips the address policy for these exact URL hostnames only; every other hop is still checked. */
  allowPrivateHosts?: readonly string[];
  /** FETCH_NAT64_PREFIXES: an address under one of these is judged by the IPv4 address inside it. */
  nat64Prefixes?: readonly Nat64Prefix[];
  /** Replaces the system resolver, e.g. in tests; every address it returns is checked like any other. */
  lookup?: HostResolver;
}

export interface FetchedDocument {
  finalUrl: string;
  status: number;
  /** Lower-case media type without parameters, e.g. "text/html" (sniffed when the server sent none). */
  contentType: string;
  charset: string | undefined;
  kind: DocumentKind;
  body: Buffer;
  /** Every URL that answered with a redirect, in order; empty when the first answer was the document. */
  redirects: string[];
}

interface HopSettings {
  maxBytes: number;
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'document'; document: Omit<FetchedDocument, 'redirects'> };

/**
 * Fetches an arbitrary http(s) URL on behalf of a user without letting it reach this machine or its network:
 * every hop passes checkFetchTarget (its host resolved here, refused if any of its addresses is forbidden),
 * and the connection is made to exactly the addresses that were checked. Redirects are followed by hand (at most 5), each
 * re-checked; the body is capped in size, the whole fetch in time, and only text-like types and PDF pass.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const settings: HopSettings = { maxBytes: options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES };
  const lookupWait: SlotWait = {};
  const policy: TargetPolicy = {
    allowPrivate: options.allowPrivate,
    allowPrivateHosts: options.allowPrivateHosts,
    nat64Prefixes: options.nat64Prefixes,
    lookup: options.lookup,
    signal,
    lookupWait,
  };
  let next: string | URL = input;
  const redirects: string[] = [];
  try {
    for (;;) {
      const checked = await checkedHop(next, policy, redirects);
      const url = checked.url;
      const hop = await fetchHop(url, checked.addresses, settings, signal);
      if (hop.kind === 'document') return { ...hop.document, redirects };
      if (redirects.length >= MAX_REDIRECTS) {
        throw new FedsearchError('FETCH_FAILED', `too many redirects: more than ${MAX_REDIRECTS} starting at ${redirects[0]}`);
      }
      redirects.push(url.href);
      next = redirectTarget(hop.location, url);
    }
  } catch (error) {
    if (timeout.signal.aborted && !options.signal?.aborted) {
      const target = shownTarget(String(next));
      // Out of time in the queue, when it was, not at the site: other fetches' lookups held every slot (lookup-slots.ts).
      throw new FedsearchError('FETCH_TIMEOUT', `fetching ${target} took longer than ${timeoutMs} ms${slotWaitNote(lookupWait)}`, { cause: error });
    }
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The largest part of a redirect's target a refusal shows: the Location header is the upstream's choice. */
const SHOWN_TARGET_CHARS = 300;

/**
 * A redirect's target as an error names it: without its user name and password, hidden before the cut (a cut first
 * could drop the `@` that marks them and show a password's start). The fetcher refuses such a target unsent, and its
 * credentials, someone else's for that site, are no more the caller's to read than a provider's link's are.
 */
function shownTarget(target: string): string {
  return boundedText(hideUrlUserinfo(target), SHOWN_TARGET_CHARS);
}

/**
 * checkFetchTarget for one hop. A hop a redirect led to fails as such: "refused: 10.0.0.1 is a private address"
 * (or "could not resolve intranet.test") alone, for the public URL the caller asked for, read as if the caller
 * had named that address.
 */
async function checkedHop(next: string | URL, policy: TargetPolicy, redirects: readonly string[]): Promise<CheckedTarget> {
  try {
    return await checkFetchTarget(next, policy);
  } catch (error) {
    const from = redirects.at(-1);
    if (from === undefined || !(error instanceof FedsearchError)) throw error;
    const redirected = `${from} redirected to ${shownTarget(String(next))}`;
    // A name that does not resolve here is named as where the redirect led, too.
    const why = error.code === 'FETCH_FORBIDDEN' ? `refused, ${error.message.replace(/^refused: /, '')}` : error.message;
    throw new FedsearchError(error.code, `${redirected}: ${why}`, { cause: error, details: error.details });
  }
}

function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new FedsearchError('FETCH_FAILED', `${from.href} redirected to an invalid URL: ${shownTarget(location)}`);
  }
}

async function fetchHop(url: URL, addresses: ResolvedAddress[], settings: HopSettings, signal: AbortSignal): Promise<Hop> {
  const agent = createPinnedAgent(url.hostname, addresses);
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        // No caller's headers: every hop, to whatever host a redirect names, carries only these two.
        headers: { 'user-agent': USER_AGENT, accept: ACCEPT },
        signal,
        dispatcher: agent,
      });
    } catch (error) {
      throw networkFailure(error, url, signal);
    }
    return await readHop(url, response, settings, signal);
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

async function readHop(url: URL, response: Dispatcher.ResponseData, settings: HopSettings, signal: AbortSignal): Promise<Hop> {
  const status = response.statusCode;
  const location = headerValue(response.headers.location);
  if (REDIRECT_STATUSES.has(status) && location) {
    discardBody(response);
    return { kind: 'redirect', location };
  }
  if (status < 200 || status >= 300) {
    discardBody(response);
    throw new FedsearchError('FETCH_FAILED', `${url.href} answered HTTP ${status}`, { details: { status } });
  }
  const declared = parseContentType(headerValue(response.headers['content-type']));
  const declaredKind = declared ? kindOfMediaType(declared.essence) : 'sniff';
  if (declared && declaredKind === undefined) {
    discardBody(response);
    throw unsupportedType(url, declared.essence);
  }
  const length = Number(headerValue(response.headers['content-length']));
  if (Number.isFinite(length) && length > settings.maxBytes) {
    discardBody(response);
    throw tooLarge(url, settings.maxBytes, `it declares ${length} bytes`);
  }
  const sent = await readBodyCapped(response, settings.maxBytes, {
    tooLarge: () => tooLarge(url, settings.maxBytes, 'reading stopped there'),
    failed: (error) => networkFailure(error, url, signal),
  });
  // Undone before the body is sniffed or read: a server or CDN that compresses whatever is asked (no Accept-Encoding
  // is sent) had its gzip or br bytes handed on as the page's text.
  const body = decodedBody(sent, headerValue(response.headers['content-encoding']), settings.maxBytes, codingErrors(url, settings.maxBytes));
  let kind = declaredKind;
  let contentType = declared?.essence;
  if (kind === 'sniff') {
    const sniffed = sniffKind(body);
    // A declared octet-stream is only believed to be a PDF; an undeclared type may be any text kind.
    if (!sniffed || (declared && sniffed.kind !== 'pdf')) throw unsupportedType(url, declared?.essence ?? 'an undeclared binary type');
    kind = sniffed.kind;
    contentType = sniffed.essence;
  } else if (kind !== 'pdf') {
    const mismatch = textBodyMismatch(body, declared?.charset);
    if (mismatch === 'binary') throw binaryText(url, contentType ?? 'text');
    if (mismatch === 'pdf') {
      kind = 'pdf';
      contentType = 'application/pdf';
    }
  }
  return {
    kind: 'document',
    document: { finalUrl: url.href, status, contentType: contentType ?? 'text/plain', charset: declared?.charset, kind: kind ?? 'text', body },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function unsupportedType(url: URL, type: string): FedsearchError {
  return new FedsearchError(
    'FETCH_UNSUPPORTED_TYPE',
    `${url.href} is ${type}, which cannot be read as text; supported: ${ALLOWED_CONTENT_TYPES}`,
  );
}

function codingErrors(url: URL, maxBytes: number): DecodeErrors {
  return {
    tooLarge: () => tooLarge(url, maxBytes, 'it is that large once decompressed'),
    undecodable: (coding) =>
      new FedsearchError('FETCH_FAILED', `${url.href} sent its body encoded as ${coding}, which could not be decoded; decoded here: gzip, deflate, br`),
    tooManyCodings: (count) =>
      new FedsearchError('FETCH_FAILED', `${url.href} sent its body encoded ${count} times over; at most ${MAX_CODINGS} codings are undone`),
  };
}

function binaryText(url: URL, type: string): FedsearchError {
  return new FedsearchError(
    'FETCH_UNSUPPORTED_TYPE',
    `${url.href} says it is ${type}, but its content is binary, not text; supported: ${ALLOWED_CONTENT_TYPES}`,
  );
}

function tooLarge(url: URL, maxBytes: number, detail: string): FedsearchError {
  return new FedsearchError('FETCH_TOO_LARGE', `${url.href} is larger than the ${maxBytes}-byte limit (FETCH_MAX_BYTES); ${detail}`);
}

/** Maps a transport failure to FETCH_FAILED naming the cause; an abort passes through for the caller to classify. */
function networkFailure(error: unknown, url: URL, signal: AbortSignal): unknown {
  if (signal.aborted) return error;
  const known = networkCause(error);
  return new FedsearchError('FETCH_FAILED', `could not fetch ${url.href}: ${known?.cause ?? 'request failed'}`, { cause: error });
}
