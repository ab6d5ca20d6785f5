import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { FedsearchError } from '../domain/errors.js';
import type { ResolvedAddress } from '../transport/dispatchers.js';
import { forbiddenAddressReason, literalAddress } from './address-policy.js';
import { callerLookups, type SlotWait } from './lookup-slots.js';
import { machineAddresses } from './own-addresses.js';
import type { Nat64Prefix } from './nat64-prefixes.js';

/** Resolves a DNS name to every address it has; the default is the system resolver (dns.lookup, all). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetPolicy {
  /** Skips the address policy for every host (FETCH_ALLOW_PRIVATE=true): for tests and private deployments. */
  allowPrivate?: boolean;
  /** Skips the address policy for these exact URL hostnames only. */
  allowPrivateHosts?: readonly string[];
  /** The network's NAT64 prefixes (FETCH_NAT64_PREFIXES): an address under one is judged by the IPv4 address inside. */
  nat64Prefixes?: readonly Nat64Prefix[];
  /**
   * Replaces the system resolver, e.g. in tests; every address it returns is checked like any other, and it waits
   * for a slot of callerLookups like the system resolver would.
   */
  lookup?: HostResolver;
  signal?: AbortSignal;
  /** Set while this fetch waits for a lookup slot (see lookup-slots.ts), so its timeout can say so. */
  lookupWait?: SlotWait;
}

/**
 * What a refusal for an address says is allowed, after its reason ("refused: 10.0.0.1 is a private address; allowed: …"):
 * a caller learns what would pass, and an operator which setting lifts the rule.
 */
export const ALLOWED_ADDRESSES = 'allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)';

/** A URL that passed the policy, with the addresses its host had when it was checked. */
export interface CheckedTarget {
  url: URL;
  addresses: ResolvedAddress[];
}

/**
 * The one gate in front of every fetch engine: the direct fetcher calls it for each hop, and a URL is only
 * handed to Firecrawl (which fetches from wherever it runs, possibly this network) after it passed here.
 * Only http(s) without credentials; a literal address or every address a name resolves to must be public, and not
 * one of this machine's own (own-addresses.ts).
 * A name that does not resolve here is refused too: what it would reach cannot be checked, so no engine
 * gets it. FETCH_ALLOW_PRIVATE (`allowPrivate`) is the only way around the address rules.
 */
export async function checkFetchTarget(input: string | URL, policy: TargetPolicy = {}): Promise<CheckedTarget> {
  const url = typeof input === 'string' ? parseTarget(input) : input;
  checkScheme(url);
  const addresses = await resolveAllowedAddresses(url, policy);
  return { url, addresses };
}

function parseTarget(input: string): URL {
  try {
    return new URL(input);
  } catch {
    throw new FedsearchError('QUERY_INVALID', `not a valid absolute URL: ${input.slice(0, 200)}`);
  }
}

function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FedsearchError('FETCH_FORBIDDEN', `refused: ${url.protocol} URLs are not fetched; allowed: http and https URLs`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never the URL itself: its user info is the password this refuses to send.
    throw new FedsearchError('FETCH_FORBIDDEN', 'refused: URLs with a user name or password are not fetched; allowed: http and https URLs without them');
  }
}

/**
 * The WHATWG URL parser has already turned decimal, octal, hex and short IPv4 spellings (2130706433,
 * 0x7f.1, 127.1) into dotted form and IPv6 into its compressed form, so a literal is checked as it will be
 * dialled. A name is resolved once here and refused if ANY of its addresses is forbidden: connecting to
 * "the first allowed one" would let a name that mixes public and private answers through.
 */
async function resolveAllowedAddresses(url: URL, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const host = url.hostname;
  const exempt = policy.allowPrivate === true || (policy.allowPrivateHosts?.includes(host) ?? false);
  const literal = literalAddress(host);
  if (literal !== undefined) {
    const reason = exempt ? undefined : forbiddenAddressReason(literal, policy.nat64Prefixes);
    if (reason) throw new FedsearchError('FETCH_FORBIDDEN', `refused: ${literal} is ${reason}; ${ALLOWED_ADDRESSES}`);
    return [{ address: literal, family: isIP(literal) }];
  }
  const signal = policy.signal;
  const resolve = policy.lookup ?? resolveWithSystem;
  let addresses: ResolvedAddress[];
  try {
    // A name waits for a lookup slot (see lookup-slots.ts): a DNS zone that never answers must not hold up the
    // providers' own lookups. A fetch aborted or out of time while waiting starts no lookup.
    addresses = await callerLookups.run(() => resolve(host), signal, policy.lookupWait);
  } catch (error) {
    if (signal?.aborted) throw error;
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOTFOUND' ? 'no such host' : typeof code === 'string' ? code : 'lookup failed';
    throw new FedsearchError('FETCH_FAILED', `could not resolve ${host}: ${why}`, { cause: error });
  }
  if (addresses.length === 0) throw new FedsearchError('FETCH_FAILED', `could not resolve ${host}: no addresses`);
  const ownAddresses = exempt ? new Set<string>() : machineAddresses();
  for (const { address } of addresses) {
    const reason = exempt ? undefined : forbiddenAddressReason(address, policy.nat64Prefixes, ownAddresses);
    // The kind of address, not the address: a caller must not learn what this network's internal names resolve to.
    if (reason) throw new FedsearchError('FETCH_FORBIDDEN', `refused: ${host} resolves to ${reason}; ${ALLOWED_ADDRESSES}`);
  }
  return addresses;
}

async function resolveWithSystem(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}
