import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, type HostResolver } from '../../src/fetch/safe-fetch.js';
import { createUpstreamAgent } from '../../src/transport/dispatchers.js';
import { LoopbackSite } from '../fetch/loopback-site.js';

/**
 * HTTP_PROXY and its kin are not read by either way out. For page fetches this is what keeps the address policy
 * whole: a proxy resolves and connects on its own, so the pinned lookup (the checked addresses, no second DNS
 * question) would no longer decide where a request goes. Provider calls go to configured base URLs only; an
 * operator who needs a proxy for them sets it in front of the service, not through this variable.
 */

/** A real HTTP server that counts every request and CONNECT a client sends it as a proxy. */
class RecordingProxy {
  requests = 0;
  private readonly server: Server = createServer((_request, response) => {
    this.requests += 1;
    response.writeHead(502).end('proxied');
  });

  async start(): Promise<this> {
    // A tunnel is refused at once, so a client that did ask the proxy fails fast rather than waiting on it.
    this.server.on('connect', (_request, socket) => {
      this.requests += 1;
      socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;

const site = new LoopbackSite();
const proxy = new RecordingProxy();
const saved = new Map<string, string | undefined>();

beforeAll(async () => {
  await site.start();
  site.serve('/ok', 'text/plain; charset=utf-8', 'reached directly');
  await proxy.start();
  for (const name of PROXY_VARIABLES) saved.set(name, process.env[name]);
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) process.env[name] = proxy.origin;
  process.env.NO_PROXY = '';
  process.env.no_proxy = '';
});

afterAll(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await proxy.stop();
  await site.stop();
});

describe('with HTTP_PROXY and HTTPS_PROXY set', () => {
  it('a provider call goes straight to its upstream, never through the proxy', async () => {
    const proxied = proxy.requests;
    const agent = createUpstreamAgent();
    try {
      const response = await request(`${site.origin}/ok`, { dispatcher: agent });
      expect(await response.body.text()).toBe('reached directly');
    } finally {
      await agent.close();
    }
    expect(proxy.requests).toBe(proxied);
  });

  it('a page fetch connects to the address it checked, never through the proxy, which would resolve the name again', async () => {
    // public.test stands for a public site (exempt by name, resolved here to the loopback server).
    const lookup: HostResolver = async (hostname) => {
      if (hostname !== 'public.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const before = site.requestedPaths.length;
    const proxied = proxy.requests;
    const document = await safeFetch(`http://public.test:${site.port}/ok`, { lookup, allowPrivateHosts: ['public.test'] });
    expect(document.body.toString()).toBe('reached directly');
    expect(site.requestedPaths.length).toBe(before + 1);
    expect(proxy.requests).toBe(proxied);
  });

  it('the address policy still refuses a loopback URL, and neither the proxy nor the address hears of it', async () => {
    const before = site.requestedPaths.length;
    const proxied = proxy.requests;
    await expect(safeFetch(`${site.origin}/ok`)).rejects.toMatchObject({ code: 'FETCH_FORBIDDEN' });
    expect(site.requestedPaths.length).toBe(before);
    expect(proxy.requests).toBe(proxied);
  });
});
