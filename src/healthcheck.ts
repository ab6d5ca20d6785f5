import { lookup } from 'node:dns/promises';
import { isIPv6 } from 'node:net';

/**
 * The image's HEALTHCHECK (Dockerfile): asks /healthz at the address the service listens on, as server.ts
 * listens (HOST, PORT; defaults as config.ts). Slim images have no curl, so Node's own fetch. No imports of the
 * service: the probe runs every 10 s, and loading the configuration would make it fail for reasons of its own.
 */

/** Where to reach a service listening on `host`: every address (0.0.0.0, ::) is reached on loopback. */
async function probeAddress(host: string): Promise<string> {
  const listening = host.trim() || '0.0.0.0';
  if (listening === '0.0.0.0' || listening === '::') return '127.0.0.1';
  // A name is looked up as listen() looks it up, so the probe meets the address it bound; an address stays as it is.
  const { address } = await lookup(listening);
  return isIPv6(address) ? `[${address}]` : address;
}

/**
 * The port the service listens on, read as config.ts reads PORT: a number, white space around it no part of it
 * (`docker run --env-file` keeps a trailing space). Put into the URL as written, "8080 " made the probe fail
 * while the service answered, and the orchestrator replaced a healthy container.
 */
function listeningPort(raw: string | undefined): number {
  const text = raw?.trim() ?? '';
  return text === '' ? 8080 : Number(text);
}

async function probe(): Promise<boolean> {
  const address = await probeAddress(process.env.HOST ?? '');
  const response = await fetch(`http://${address}:${listeningPort(process.env.PORT)}/healthz`);
  return response.ok;
}

probe().then(
  (healthy) => process.exit(healthy ? 0 : 1),
  () => process.exit(1),
);
