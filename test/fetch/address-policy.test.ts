import { describe, expect, it } from 'vitest';
import { forbiddenAddressReason, isForbiddenAddress, literalAddress } from '../../src/fetch/address-policy.js';

describe('forbiddenAddressReason', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
    ['255.255.255.255', 'a broadcast address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['168.63.129.16', 'a cloud metadata address'],
    ['192.0.2.10', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['::ffff:127.0.0.1', 'a loopback address', '127.0.0.1'],
    ['::ffff:7f00:1', 'a loopback address', '127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata address', '169.254.169.254'],
    ['::ffff:0:a00:1', 'a private address', '10.0.0.1'],
    ['::7f00:1', 'a loopback address', '127.0.0.1'],
    ['64:ff9b::a00:1', 'a private address', '10.0.0.1'],
    ['64:ff9b::7f00:1', 'a loopback address', '127.0.0.1'],
    ['2002:c0a8:101::1', 'a private address', '192.168.1.1'],
  ])('unwraps the IPv4 address inside %s before checking it', (address, reason, inner) => {
    expect(forbiddenAddressReason(address)).toBe(`${reason} (IPv4 ${inner} inside an IPv6 address)`);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      expect(forbiddenAddressReason(address)).toBeUndefined();
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it.each(['4000::1', '::1:0:0:1', '::ffff:ffff:7f00:1', '::2:7f00:1', 'c000::1', 'e000::1'])(
    'refuses %s, IPv6 nobody has assigned, outside the global unicast space',
    (address) => {
      expect(forbiddenAddressReason(address)).toBe('an address outside the global unicast space (2000::/3)');
    },
  );

  it('refuses what is not an IP address at all rather than guessing', () => {
    expect(forbiddenAddressReason('example.com')).toBe('not a valid IP address');
    expect(forbiddenAddressReason('')).toBe('not a valid IP address');
  });
});

describe('hostname spellings, as the WHATWG URL parser hands them to the policy', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.0x0.0x0.0x1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://10.1/', '10.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
  ])('%s becomes the literal %s, which is refused', (url, literal) => {
    const address = literalAddress(new URL(url).hostname);
    expect(address).toBe(literal);
    expect(isForbiddenAddress(address ?? '')).toBe(true);
  });

  it('leaves DNS names to be resolved', () => {
    expect(literalAddress('example.com')).toBeUndefined();
    expect(literalAddress('127.0.0.1.nip.io')).toBeUndefined();
  });
});

/**
 * A public address on one of this machine's interfaces passes every range rule, yet a connection to it never leaves
 * the machine: it reaches what listens on all interfaces here. The policy is given the machine's addresses (the
 * fetcher reads them at each check); here a made-up set, so the rule is seen apart from the machine running the test.
 */
describe('addresses of this machine', () => {
  const own = new Set(['93.184.216.34', '2606:2800:220:1::1']);

  it.each([
    ['93.184.216.34', 'an address of this machine'],
    ['2606:2800:220:1::1', 'an address of this machine'],
    ['2606:2800:220:1:0:0:0:1', 'an address of this machine'],
    ['::ffff:93.184.216.34', 'an address of this machine (IPv4 93.184.216.34 inside an IPv6 address)'],
    ['64:ff9b::5db8:d822', 'an address of this machine (IPv4 93.184.216.34 inside an IPv6 address)'],
    ['2002:5db8:d822::1', 'an address of this machine (IPv4 93.184.216.34 inside an IPv6 address)'],
  ])('refuses %s, public but assigned here, as %s', (address, reason) => {
    expect(forbiddenAddressReason(address, [], own)).toBe(reason);
  });

  it('still allows a public address of another machine, and names a range before ownership', () => {
    expect(forbiddenAddressReason('93.184.216.35', [], own)).toBeUndefined();
    expect(forbiddenAddressReason('127.0.0.1', [], new Set(['127.0.0.1']))).toBe('a loopback address');
  });
});
