import ipaddr from 'ipaddr.js';

/**
 * How the service tells callers apart for what it counts per caller (the per-client rate limit, the MCP session
 * cap): by API key id when keys are configured (never the key itself), else by address.
 */
export function clientKey(apiKeyId: string | undefined, address: string): string {
  return apiKeyId ? `key:${apiKeyId}` : `ip:${addressGroup(address)}`;
}

/** A request as clientKeyOf reads it (Fastify's satisfies it): its API key id, its address, and its key once worked out. */
export interface CallerRequest {
  readonly apiKeyId?: string;
  readonly ip: string;
  clientKey?: string;
}

/**
 * The request's clientKey, worked out once and kept on it: the per-client rate limiter's keyGenerator asks, and so
 * does the route that passes the caller on to its search (an IPv6 address is parsed each time). Asked only after
 * access control, whose hook comes before the limiter's and sets the key id the answer depends on.
 */
export function clientKeyOf(request: CallerRequest): string {
  return (request.clientKey ??= clientKey(request.apiKeyId, request.ip));
}

/** The leading 16-bit groups of an IPv6 address that name one subscriber's network (a /64). */
const SUBSCRIBER_GROUPS = 4;

/**
 * The caller an address stands for. One IPv6 host holds a whole /64 (2^64 addresses, every VPS and most
 * home lines), so counted per address it could take a fresh one for each request and pass any per-address
 * limit: an IPv6 address counts by its /64. An IPv4-mapped IPv6 address (::ffff:203.0.113.7, how a dual-stack
 * listener sees IPv4 callers) counts as its IPv4 address, never in one shared ::/64.
 */
export function addressGroup(address: string): string {
  // Every request comes here: an IPv4 address (no colon) is returned without being parsed.
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts.slice(0, SUBSCRIBER_GROUPS).map((group) => group.toString(16)).join(':')}::/64`;
}
