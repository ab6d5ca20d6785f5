import { lookup } from 'node:dns/promises';
import { isIPv6 } from 'node:net';

/**
 * The image's HEALTHCHECK (Dockerfile): asks /healthz at the address the service listens on, as server.ts
 * listens (HOST, PORT; defaults as config.ts). Slim images have no curl, so Node's own fetch. No imports of the
 * service: the probe runs every 30 s, and loading the configuration would make it fail for reasons of its own.
 */

/** Where to reach a service listening on `host`: every address (0.0.0.0, ::) is reached on loopback. */
async function probeAddress(host: string): Promise<string> {
  const listening = host.trim() || '0.0.0.0';
  if (listening === '0.0.0.0' || listening === '::') return '127.0.0.1';
  // A name is looked up as listen() looks it up, so the probe meets the address it bound; an address stays as it is.
  const { address } = await lookup(listening);
  return isIPv6(address) ? `[${address}]` : address;
}

async function probe(): Promise<boolean> {
  const address = await probeAddress(process.env.HOST ?? '');
  const response = await fetch(`http://${address}:${process.env.PORT || 8080}/healthz`);
  return response.ok;
}

probe().then(
  (healthy) => process.exit(healthy ? 0 : 1),
  () => process.exit(1),
);
