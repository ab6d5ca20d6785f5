import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { nat64Target, type Nat64Prefix } from './nat64-prefixes.js';
import { machineAddresses } from './own-addresses.js';

/**
 * Which IP addresses an arbitrary-URL fetch may connect to. Deny by default: anything ipaddr.js does not
 * call plain `unicast` (loopback, private, link-local, unique-local, multicast, unspecified, CGNAT, broadcast,
 * reserved, benchmarking, …) is refused, as is IPv6 outside the global unicast space 2000::/3, and the cloud
 * metadata endpoints, some of which sit in public space. IPv6 forms that carry an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4) are judged by the
 * IPv4 address inside, so ::ffff:127.0.0.1 is as loopback as 127.0.0.1; so are addresses under the network's
 * own NAT64 prefixes (FETCH_NAT64_PREFIXES, nat64-prefixes.ts), which otherwise look public. A public address is
 * refused too when it is one of this machine's own (own-addresses.ts): a connection to it never leaves the machine.
 */

const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack instance metadata
  '169.254.170.2', // AWS ECS task metadata
  '168.63.129.16', // Azure wire server (public space)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS instance metadata over IPv6
]);

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address',
  teredo: 'a Teredo tunnel address',
  rfc6052: 'a NAT64 local-use address',
};

const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');
/**
 * Global unicast (RFC 4291, IANA's IPv6 address space): every public IPv6 address assigned today lies in 2000::/3.
 * ipaddr.js calls the unassigned rest `unicast` too (4000::1, ::1:0:0:1), and space nobody has assigned has no public
 * host to fetch: deny by default.
 */
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');
const IPV4_COMPATIBLE = ipaddr.IPv6.parse('::');

/**
 * Why an address is forbidden, as a phrase that completes "10.0.0.1 is ___" and "a name resolves to ___"
 * (e.g. "a private address"), or undefined when it may be fetched. `ownAddresses` are this machine's (read from its
 * interfaces unless given: a caller checking several addresses at once reads them once).
 */
export function forbiddenAddressReason(
  address: string,
  nat64Prefixes: readonly Nat64Prefix[] = [],
  ownAddresses: ReadonlySet<string> = machineAddresses(),
): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return 'not a valid IP address';
  const parsed = ipaddr.parse(bare);
  const embedded = parsed.kind() === 'ipv6' ? (nat64Target(parsed as ipaddr.IPv6, nat64Prefixes) ?? embeddedIPv4(parsed as ipaddr.IPv6)) : undefined;
  if (embedded) {
    const reason = ipv4Reason(embedded) ?? ownReason(embedded.toString(), ownAddresses);
    return reason === undefined ? undefined : `${reason} (IPv4 ${embedded.toString()} inside an IPv6 address)`;
  }
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4) ?? ownReason(parsed.toString(), ownAddresses);
  return ipv6Reason(parsed as ipaddr.IPv6) ?? ownReason((parsed as ipaddr.IPv6).toRFC5952String(), ownAddresses);
}

export function isForbiddenAddress(address: string, nat64Prefixes: readonly Nat64Prefix[] = []): boolean {
  return forbiddenAddressReason(address, nat64Prefixes) !== undefined;
}

/** `address` in the form own-addresses.ts lists them (IPv4 dotted, IPv6 compressed). */
function ownReason(address: string, ownAddresses: ReadonlySet<string>): string | undefined {
  return ownAddresses.has(address) ? 'an address of this machine' : undefined;
}

/** The IP address a URL hostname names literally ("[::1]" → "::1"), or undefined for a DNS name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

function ipv4Reason(address: ipaddr.IPv4): string | undefined {
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata address';
  return rangeReason(address.range());
}

function ipv6Reason(address: ipaddr.IPv6): string | undefined {
  if (METADATA_ADDRESSES.has(address.toRFC5952String())) return 'a cloud metadata address';
  const reason = rangeReason(address.range());
  if (reason === undefined && !address.match(GLOBAL_UNICAST, 3)) return 'an address outside the global unicast space (2000::/3)';
  return reason;
}

function rangeReason(range: string): string | undefined {
  if (range === 'unicast') return undefined;
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
}

/**
 * The IPv4 address an IPv6 address stands for, when the network would deliver it to that IPv4 host:
 * mapped ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, deprecated compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d
 * and 6to4 2002:aabb:ccdd::/48.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const low = (index: number): number[] => {
    const high = parts[index] ?? 0;
    const next = parts[index + 1] ?? 0;
    return [high >> 8, high & 0xff, next >> 8, next & 0xff];
  };
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return new ipaddr.IPv4(low(6));
  if (address.match(NAT64_WELL_KNOWN, 96)) return new ipaddr.IPv4(low(6));
  if (range === '6to4') return new ipaddr.IPv4(low(1));
  // ::a.b.c.d, but not :: (unspecified) or ::1 (loopback), which have their own ranges.
  if (address.match(IPV4_COMPATIBLE, 96) && range !== 'unspecified' && range !== 'loopback') {
    return new ipaddr.IPv4(low(6));
  }
  return undefined;
}
