import { scryptSync } from 'node:crypto';
import { bucketShape } from './token-bucket.js';
import type { RateLimit } from './rate-limit-setting.js';

/**
 * Which instances draw from one outbound bucket. A published limit is a term of an upstream account, not of an
 * instance: `brave` and `brave-news` sending with one Brave key spend one quota of 1/s, and with a bucket each
 * they sent twice that and earned 429s. So instances of one definition that send to one host with the same
 * credentials (or none) share a bucket; another key, another host or another API is another quota.
 */

/** One instance as the plan sees it: plain data, read once at start-up. */
export interface BucketMember {
  /** The instance name, for the start-up line. */
  name: string;
  /** The definition (adapter): two APIs behind one host (a gateway, a test double) are still two quotas. */
  definition: string;
  baseUrl: string;
  /** The secret credentials the instance sends (its API key, token), by setting; unset ones left out. */
  credentials: Readonly<Record<string, string>>;
  limit: RateLimit | undefined;
}

/** The bucket an instance draws from: its identity (safe for a Redis key: no credential in it) and its limit. */
export interface RateLimitBucket {
  key: string;
  limit: RateLimit;
}

export interface BucketPlan {
  /** By instance name; an instance with no limit (nor one in its bucket) has none. */
  buckets: Map<string, RateLimitBucket>;
  /** One line per bucket whose instances were configured with different limits: what they share, and which applies. */
  notices: string[];
}

/** Hex digits of the credentials' digest kept in a key: enough to tell a handful of keys apart, too few to search. */
const DIGEST_LENGTH = 16;

/**
 * scrypt's work factors (RFC 7914; Node's defaults): about 40 ms and 16 MiB a guess on this kind of machine.
 * Whoever can list the Redis keys sees the digest; with a plain SHA-256 a weak or short key could be found by
 * trying a few billion guesses a second, with scrypt it costs that much per guess. The salt is fixed because
 * every replica must work out the same name for one key.
 */
const SCRYPT = { salt: 'fedsearch outbound bucket', N: 2 ** 14, r: 8, p: 1 } as const;

/** Digests already worked out, by their credentials: a test suite or a reload plans the same keys many times. */
const digests = new Map<string, string>();

/**
 * The credentials as one digest, made once at start-up: the key a bucket is stored under (and anything that
 * logs it) never holds a credential, while instances with one key still find one bucket, on every replica.
 */
export function credentialDigest(credentials: Readonly<Record<string, string>>): string | undefined {
  const entries = Object.entries(credentials).sort(([first], [second]) => (first < second ? -1 : first > second ? 1 : 0));
  if (entries.length === 0) return undefined;
  const text = JSON.stringify(entries);
  let digest = digests.get(text);
  if (digest === undefined) {
    const { salt, N, r, p } = SCRYPT;
    digest = scryptSync(text, salt, DIGEST_LENGTH / 2, { N, r, p }).toString('hex');
    digests.set(text, digest);
  }
  return digest;
}

/**
 * The host a base URL sends to (and its port when not the scheme's default); undefined when it names none (the
 * embedded index). The scheme is left out: arXiv over http and over https is one server spending one quota.
 */
function hostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).host || undefined;
  } catch {
    return undefined;
  }
}

/** `brave@api.search.brave.com`: the API and the server a quota belongs to; undefined when the base URL names no host. */
function endpointKey(member: BucketMember): string | undefined {
  const host = hostOf(member.baseUrl);
  return host === undefined ? undefined : `${member.definition}@${host}`;
}

/** `brave@api.search.brave.com#<digest>`: the endpoint, then whose account spends there. */
function accountKey(endpoint: string, member: BucketMember): string {
  const digest = credentialDigest(member.credentials);
  return digest === undefined ? endpoint : `${endpoint}#${digest}`;
}

/**
 * Instances by the quota they spend. An instance whose base URL names no host keeps a group of its own name. The
 * credential's digest (scrypt: tens of milliseconds) is worked out only where a limit applies at the endpoint:
 * instances with no limit there share no bucket whoever's key they send.
 */
function groupByQuota(members: readonly BucketMember[]): Map<string, BucketMember[]> {
  const groups = new Map<string, BucketMember[]>();
  const byEndpoint = new Map<string, BucketMember[]>();
  for (const member of members) {
    const endpoint = endpointKey(member);
    if (endpoint === undefined) addTo(groups, member.name, member);
    else addTo(byEndpoint, endpoint, member);
  }
  for (const [endpoint, atEndpoint] of byEndpoint) {
    const limited = atEndpoint.some((member) => member.limit);
    for (const member of atEndpoint) addTo(groups, limited ? accountKey(endpoint, member) : endpoint, member);
  }
  return groups;
}

function addTo(groups: Map<string, BucketMember[]>, key: string, member: BucketMember): void {
  const group = groups.get(key);
  if (group) group.push(member);
  else groups.set(key, [member]);
}

/** The stricter of two limits: the longer share per request, then the smaller burst; no limit is the least strict. */
function stricter(first: RateLimit | undefined, second: RateLimit | undefined): RateLimit | undefined {
  if (!first) return second;
  if (!second) return first;
  const a = bucketShape(first);
  const b = bucketShape(second);
  if (a.msPerRequest !== b.msPerRequest) return a.msPerRequest > b.msPerRequest ? first : second;
  return second.burst < first.burst ? second : first;
}

function sameLimit(first: RateLimit | undefined, second: RateLimit | undefined): boolean {
  return first?.text === second?.text && first?.burst === second?.burst;
}

/**
 * Groups instances by the quota they spend. Each bucket runs at the strictest limit of its instances (an
 * instance left without one still takes its slots there: it spends the same quota), and a bucket whose
 * instances were given different limits is named in a notice. Instances that are never called (a required
 * credential missing) are best left out by the caller: they spend nothing.
 */
export function planRateLimitBuckets(members: readonly BucketMember[]): BucketPlan {
  const groups = groupByQuota(members);
  const buckets = new Map<string, RateLimitBucket>();
  const notices: string[] = [];
  for (const [key, group] of groups) {
    const limit = group.reduce<RateLimit | undefined>((strictest, member) => stricter(strictest, member.limit), undefined);
    if (!limit) continue;
    for (const member of group) buckets.set(member.name, { key, limit });
    if (group.some((member) => !sameLimit(member.limit, limit))) notices.push(sharingNotice(group, limit));
  }
  return { buckets, notices };
}

/** Names the instances and their limits, never the credential nor its digest. */
function sharingNotice(group: readonly BucketMember[], limit: RateLimit): string {
  const first = group[0]!;
  const credential = Object.keys(first.credentials).length === 0 ? 'no credential' : 'one credential';
  const limits = group.map((member) => `${member.name} ${member.limit?.text ?? 'off'}`).join(', ');
  return (
    `outbound rate limit: ${group.map((member) => member.name).join(', ')} spend one quota (${first.definition} at ${hostOf(first.baseUrl)}, ${credential}) ` +
    `and share one bucket at the stricter limit, ${limit.text} (${limit.variable}); configured: ${limits}`
  );
}
