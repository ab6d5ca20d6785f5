import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeText, readCompose, type Compose, type ComposePort } from './compose-file.js';

/**
 * A published port with no address is published on every interface of the host, and Docker's own firewall rules
 * let it through a host firewall such as ufw: on a laptop or a VM, an open search service (and whatever else is
 * published) for the whole network. Published ports are bound to loopback unless the operator asks otherwise.
 */

/** The host address a port entry binds: "ADDRESS:PUBLISHED:TARGET" names it; "PUBLISHED:TARGET" or "TARGET" means every interface. */
function hostAddress(entry: ComposePort): string {
  if (typeof entry !== 'string') return entry.host_ip ?? '0.0.0.0';
  const parts = entry.replace(/\/(tcp|udp)$/, '').split(':');
  return parts.length === 3 ? parts[0]! : '0.0.0.0';
}

function publishedAddresses(file: Compose): Array<{ service: string; address: string }> {
  return Object.entries(file.services).flatMap(([service, settings]) => (settings.ports ?? []).map((entry) => ({ service, address: hostAddress(entry) })));
}

describe('docker-compose.yml publishes nothing beyond this machine unless told to', () => {
  it('binds every published port to loopback by default', () => {
    const published = publishedAddresses(readCompose());
    expect(published.map(({ service }) => service)).toContain('fedsearch');
    for (const port of published) expect(port).toEqual({ service: port.service, address: '127.0.0.1' });
  });

  it('publishes fedsearch on the address and port the operator asks for, the way the file tells them', () => {
    expect(readCompose({ PUBLISH_ADDRESS: '0.0.0.0', PUBLISH_PORT: '9090' }).services.fedsearch!.ports).toEqual(['0.0.0.0:9090:8080']);
    expect(composeText).toContain('PUBLISH_ADDRESS=0.0.0.0');
  });

  it('never publishes Redis or SearXNG, and no service shares the host network, even when fedsearch is exposed', () => {
    const file = readCompose({ PUBLISH_ADDRESS: '0.0.0.0' });
    for (const name of ['redis', 'searxng']) expect({ name, ports: file.services[name]!.ports }).toEqual({ name, ports: undefined });
    for (const settings of Object.values(file.services)) expect(settings.network_mode).toBeUndefined();
  });
});

describe("README.md's docker run", () => {
  it('publishes the port on loopback', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const publishes = [...readme.matchAll(/docker run\b[^\n]*?\s(?:-p|--publish)[ =](\S+)/g)].map((match) => match[1]!);
    expect(publishes.length).toBeGreaterThan(0);
    for (const port of publishes) expect(hostAddress(port)).toBe('127.0.0.1');
  });
});
