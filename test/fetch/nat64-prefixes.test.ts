import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { forbiddenAddressReason } from '../../src/fetch/address-policy.js';
import { nat64PrefixesVariable, nat64Target } from '../../src/fetch/nat64-prefixes.js';

function prefixes(raw: string) {
  return nat64PrefixesVariable.parse(raw);
}

describe('NAT64 network-specific prefixes (RFC 6052)', () => {
  // RFC 6052, section 2.4: 192.0.2.33 under a prefix of each allowed length, as the RFC writes them.
  it.each([
    ['2001:db8::/32', '2001:db8:c000:221::'],
    ['2001:db8:100::/40', '2001:db8:1c0:2:21::'],
    ['2001:db8:122::/48', '2001:db8:122:c000:2:2100::'],
    ['2001:db8:122:300::/56', '2001:db8:122:3c0:0:221::'],
    ['2001:db8:122:344::/64', '2001:db8:122:344:c0:2:2100:0'],
    ['2001:db8:122:344::/96', '2001:db8:122:344::192.0.2.33'],
  ])('finds the IPv4 address inside an address under %s', (prefix, address) => {
    expect(nat64Target(ipaddr.IPv6.parse(address), prefixes(prefix))?.toString()).toBe('192.0.2.33');
  });

  it('judges an address under a configured prefix by the IPv4 address its gateway reaches', () => {
    const network = prefixes('2a01:db9:64::/96');
    // Without the prefix it is an ordinary public IPv6 address; through the gateway it is 10.0.0.1.
    expect(forbiddenAddressReason('2a01:db9:64::a00:1')).toBeUndefined();
    expect(forbiddenAddressReason('2a01:db9:64::a00:1', network)).toBe('a private address (IPv4 10.0.0.1 inside an IPv6 address)');
    expect(forbiddenAddressReason('2a01:db9:64::a9fe:a9fe', network)).toBe('a cloud metadata address (IPv4 169.254.169.254 inside an IPv6 address)');
    expect(forbiddenAddressReason('2a01:db9:64::7f00:1', network)).toBe('a loopback address (IPv4 127.0.0.1 inside an IPv6 address)');
    // The gateway's way to the public IPv4 internet stays open, and addresses outside the prefix are judged as before.
    expect(forbiddenAddressReason('2a01:db9:64::808:808', network)).toBeUndefined();
    expect(forbiddenAddressReason('2a01:db9:65::a00:1', network)).toBeUndefined();
    expect(forbiddenAddressReason('::ffff:10.0.0.1', network)).toBe('a private address (IPv4 10.0.0.1 inside an IPv6 address)');
  });

  it('reads a prefix by its own bits, and lists several', () => {
    const network = prefixes(' 2a01:db9:64::1/96 , 2a01:db9:100::/40 ');
    expect(network.map((prefix) => prefix.text)).toEqual(['2a01:db9:64::/96', '2a01:db9:100::/40']);
    expect(forbiddenAddressReason('2a01:db9:10a:0:1::', network)).toBe('a private address (IPv4 10.0.0.1 inside an IPv6 address)');
  });

  it('refuses at start-up what is not a NAT64 prefix, saying what is allowed', () => {
    expect(loadConfig({}).fetch.nat64Prefixes).toEqual([]);
    expect(() => loadConfig({ FETCH_NAT64_PREFIXES: '2a01:db9:64::/80' })).toThrow(
      /FETCH_NAT64_PREFIXES: "2a01:db9:64::\/80" is not an IPv6 prefix of length 32, 40, 48, 56, 64 or 96/,
    );
    expect(() => loadConfig({ FETCH_NAT64_PREFIXES: '10.0.0.0/8' })).toThrow(/"10\.0\.0\.0\/8" is not an IPv6 prefix/);
    expect(() => loadConfig({ FETCH_NAT64_PREFIXES: 'nat64.example' })).toThrow(/"nat64\.example" is not an IPv6 prefix/);
  });
});
