import type { AddressInfo } from 'node:net';
import type { AppConfig } from './config.js';
import { turnedOff } from './engine/provider-outcome.js';
import type { Provider } from './providers/provider.js';
import { describeRedisUrl } from './transport/redis-connection.js';

/**
 * The one line server.ts logs once it listens: what this process runs with, so an operator deploying it sees at a
 * glance which providers are on and why the others are off (a key not set, a weight of 0), whether MCP is served,
 * whether answers and limits are shared through Redis, and where it listens. Before it, only Fastify's "Server
 * listening" line was written, and a missing key showed up only as `not_configured` in the first answers.
 * No secret is written: the Redis address without its password, API keys only counted.
 */
export interface StartupSummary {
  message: string;
  configuration: {
    address: string;
    providers: { on: string[]; off: Record<string, string> };
    mcp: string;
    redis: string;
    cacheTtlSeconds: number;
    apiKeys: number;
  };
}

/** Why an instance is off, or undefined when searches (or its capability) may ask it. */
function whyOff(provider: Provider): string | undefined {
  const missing = provider.missingSettings();
  if (missing.length > 0) return `${missing.join(', ')} not set`;
  return turnedOff(provider);
}

function describeMcp(config: AppConfig): string {
  if (!config.MCP_ENABLED) return 'off (MCP_ENABLED=false)';
  const mode = config.mcp.stateless ? 'stateless' : 'sessions';
  return `on at /mcp and /sse (${mode}, ${config.mcp.tools} tools)`;
}

/**
 * Where the server listens, as bound: `http://0.0.0.0:8080` for every interface. Not Fastify's listen() result, which
 * names the first interface it found (`http://127.0.0.1:8080`), so a service open to every network read as one that
 * only its own machine could reach.
 */
export function listeningAddress({ address, family, port }: AddressInfo): string {
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

export function startupSummary(config: AppConfig, providers: readonly Provider[], address: string): StartupSummary {
  const on: string[] = [];
  const off: Record<string, string> = {};
  for (const provider of providers) {
    const reason = whyOff(provider);
    if (reason === undefined) on.push(provider.name);
    else off[provider.name] = reason;
  }
  const redis = config.REDIS_URL ? describeRedisUrl(config.REDIS_URL) : 'none (cache and rate limits per process)';
  const keys = config.apiKeys.length;
  const access = keys === 0 ? 'no API keys (open to anyone who reaches it)' : `${keys} API key${keys === 1 ? '' : 's'} required`;
  const offList = Object.entries(off).map(([name, reason]) => `${name} (${reason})`);
  const message = [
    `fedsearch listening on ${address}`,
    `providers on: ${on.join(', ') || 'none'}`,
    `off: ${offList.join(', ') || 'none'}`,
    `MCP ${describeMcp(config)}`,
    `Redis: ${redis}`,
    `answer cache ${config.CACHE_TTL_SECONDS === 0 ? 'off' : `${config.CACHE_TTL_SECONDS} s`}`,
    access,
  ].join('; ');
  return {
    message,
    configuration: { address, providers: { on, off }, mcp: describeMcp(config), redis, cacheTtlSeconds: config.CACHE_TTL_SECONDS, apiKeys: keys },
  };
}
