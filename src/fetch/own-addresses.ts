import { networkInterfaces } from 'node:os';

/**
 * The addresses of this machine's own network interfaces, as the address policy compares them (address-policy.ts):
 * IPv4 dotted, IPv6 in the compressed form ipaddr.js and os.networkInterfaces() both write, without a zone.
 *
 * Why: a public address on an interface here (a VPS's, a bare-metal host's) passes every range rule, yet a connection
 * to it never leaves the machine. It reaches whatever listens on all interfaces (a database, an admin port, this
 * service's own unauthenticated routes), over the loopback interface, which host firewalls commonly accept whole
 * (`-i lo -j ACCEPT`). Read at each check, not once at start-up: addresses come and go (DHCP, a VPN coming up).
 * A container sees only its own interfaces: the host's public address, seen from inside one, is not among them.
 */
export function machineAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) addresses.add(entry.address.replace(/%.*$/, ''));
  }
  return addresses;
}
