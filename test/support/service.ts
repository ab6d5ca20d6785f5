import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { builtInName } from '../../src/providers/provider-config.js';
import { PROVIDER_CLASSES } from '../../src/providers/registry.js';

export interface RunningService {
  app: FastifyInstance;
  origin: string;
  logs: string[];
  stop(): Promise<void>;
}

const sharedAgent = new Agent({ keepAliveTimeout: 1000 });

/**
 * Points every HTTP provider at `<origin>/<name>` of a fake upstream, so nothing leaves the machine:
 * an unrouted provider gets the fake server's 404 and reports an error. Outbound rate limits are off.
 */
/** Where Brave's and Tavily's fakes answer a web search on a fake upstream: providerEnv's base URL and each API's path. */
export const BRAVE_SEARCH_PATH = '/brave/res/v1/web/search';
export const TAVILY_SEARCH_PATH = '/tavily/search';
/** Keys for Brave and Tavily, which are asked only with one: the tests whose fakes answer for both. */
export const BRAVE_AND_TAVILY_KEYS: Readonly<{ BRAVE_API_KEY: string; TAVILY_API_KEY: string }> = { BRAVE_API_KEY: 'brave-key-0123456789', TAVILY_API_KEY: 'tvly-key-0123456789' };

export function providerEnv(origin: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ProviderType of PROVIDER_CLASSES) {
    const { baseUrlEnv } = ProviderType.settings;
    const name = builtInName(ProviderType.settings);
    if (name === 'local') continue;
    env[`${name.toUpperCase()}_BASE_URL`] = `${origin}/${name}`;
    // The fake upstream publishes no limit; outbound rate limits are tested on their own, with their own values.
    env[`${name.toUpperCase()}_RATE_LIMIT`] = 'off';
    if (baseUrlEnv) env[baseUrlEnv] = `${origin}/${name}`;
  }
  return env;
}

/**
 * Starts the real service on a loopback port with the given environment; logs are captured. `beforeListen`
 * may add a route of the test's own (a handler that fails in a way no real route can be made to, say);
 * `resolveHost` answers the address checks of fetch_url and paper_read for names a test made up;
 * `redisCommandTimeoutMs` lengthens the Redis waits a stall test measures; `dispatcher` carries the providers'
 * requests (to a loopback fake for hosts a base URL cannot name, such as the Wikipedia editions).
 */
export async function startService(
  env: Record<string, string>,
  beforeListen?: (app: FastifyInstance) => void,
  options: Pick<BuildOptions, 'resolveHost' | 'redisCommandTimeoutMs' | 'dispatcher'> = {},
): Promise<RunningService> {
  const logs: string[] = [];
  // Tests send bursts from one address: the rate limit is tested on its own, with its own limit.
  // The event-loop delay limit is off for the same reason: in a test it measures how busy the machine running the
  // suite is (a process held up for a second or two on a shared 2-core CI machine), not the service, and turned
  // whichever test asked next away with 503 OVERLOADED. Overload is tested on its own (PRESSURE_MAX_HEAP_BYTES).
  const config = loadConfig({ LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', ...env, PORT: '0', HOST: '127.0.0.1' });
  const app = await buildApp(config, { ...options, dispatcher: options.dispatcher ?? sharedAgent, logStream: { write: (line) => void logs.push(line) } });
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, origin: `http://127.0.0.1:${port}`, logs, stop: () => app.close() };
}

/** fetch's Response, with json() typed loosely: tests assert on the shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export function request(origin: string, path: string, init: RequestInit = {}): Promise<JsonResponse> {
  return fetch(`${origin}${path}`, init) as Promise<JsonResponse>;
}

/** POST /v1/ops/<operation> with a JSON body, as REST clients call an operation. */
export function callOperation(service: Pick<RunningService, 'origin'>, operation: string, body: unknown): Promise<JsonResponse> {
  return request(service.origin, `/v1/ops/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
