import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { listFromEnv } from '../config/env-values.js';

/**
 * A NAT64 network-specific prefix (RFC 6052): on an IPv6-only network with DNS64, every IPv4 host is reached
 * through an IPv6 address made of this prefix and the IPv4 address, and the gateway translates it back. The
 * well-known prefix 64:ff9b::/96 is always unwrapped (address-policy.ts); a network's own prefix looks like any
 * public IPv6 address, so without FETCH_NAT64_PREFIXES `[2a01:db9:64::a00:1]` would reach 10.0.0.1 unchecked.
 */
export interface Nat64Prefix {
  /** As configured, e.g. "2a01:db9:64::/96". */
  text: string;
  /** The prefix's 16 bytes. */
  bytes: readonly number[];
  /** 32, 40, 48, 56, 64 or 96: the lengths RFC 6052 allows. */
  length: number;
}

const PREFIX_LENGTHS = new Set([32, 40, 48, 56, 64, 96]);

/**
 * Where the IPv4 address's four bytes sit for each prefix length (RFC 6052, section 2.2): byte 8 (bits 64–71)
 * is the reserved "u" octet and never carries them, so a prefix shorter than 64 bits splits them around it.
 */
const IPV4_BYTES: Record<number, readonly number[]> = {
  32: [4, 5, 6, 7],
  40: [5, 6, 7, 9],
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
};

function parsePrefix(entry: string): Nat64Prefix | string {
  const allowed = 'an IPv6 prefix of length 32, 40, 48, 56, 64 or 96 (e.g. 2a01:db9:64::/96)';
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = ipaddr.parseCIDR(entry);
  } catch {
    return `${JSON.stringify(entry.slice(0, 80))} is not ${allowed}`;
  }
  const [address, length] = parsed;
  if (address.kind() !== 'ipv6' || !PREFIX_LENGTHS.has(length)) return `${JSON.stringify(entry.slice(0, 80))} is not ${allowed}`;
  const bytes = address.toByteArray();
  // The prefix's own bits only: "2a01:db9:64::1/96" names the same network as "2a01:db9:64::/96".
  for (let bit = length; bit < 128; bit += 1) bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) & ~(0x80 >> (bit & 7));
  return { text: `${ipaddr.fromByteArray(bytes).toString()}/${length}`, bytes, length };
}

/** FETCH_NAT64_PREFIXES: a comma list of the network's NAT64 prefixes; empty (the default) for none. */
export const nat64PrefixesVariable = z.string().transform((raw, context): Nat64Prefix[] => {
  const parsed = listFromEnv(raw).map(parsePrefix);
  const problems = parsed.filter((entry): entry is string => typeof entry === 'string');
  if (problems.length > 0) {
    context.addIssue({ code: 'custom', message: `${problems.join('; ')}; give a comma list of the NAT64 prefixes this network uses` });
    return z.NEVER;
  }
  return parsed as Nat64Prefix[];
});

function withinPrefix(bytes: readonly number[], prefix: Nat64Prefix): boolean {
  const whole = prefix.length >> 3;
  for (let index = 0; index < whole; index += 1) if (bytes[index] !== prefix.bytes[index]) return false;
  return true;
}

/** The IPv4 address a configured NAT64 prefix's gateway would deliver `address` to, or undefined. */
export function nat64Target(address: ipaddr.IPv6, prefixes: readonly Nat64Prefix[]): ipaddr.IPv4 | undefined {
  if (prefixes.length === 0) return undefined;
  const bytes = address.toByteArray();
  for (const prefix of prefixes) {
    if (!withinPrefix(bytes, prefix)) continue;
    const at = IPV4_BYTES[prefix.length] ?? IPV4_BYTES[96]!;
    return new ipaddr.IPv4(at.map((index) => bytes[index] ?? 0));
  }
  return undefined;
}
