import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { machineAddresses } from '../../src/fetch/own-addresses.js';

describe('machineAddresses', () => {
  it('lists every address of every interface of this machine, IPv6 in its compressed form', () => {
    const listed = Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry!.address);
    const addresses = machineAddresses();
    // Every machine has its loopback interface, whatever else it has.
    expect(addresses.has('127.0.0.1')).toBe(true);
    for (const address of listed) expect(addresses.has(address.includes(':') ? address.replace(/%.*$/, '') : address)).toBe(true);
  });
});
