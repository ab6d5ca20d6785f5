import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendRefusal, type RefusalShapes } from './refusal.js';
import { pathOf } from './url-path.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A short, non-reversible id of the caller's API key: for rate limits and logs, never the key. */
    apiKeyId?: string;
    /** Who the request counts as, once asked for (domain/client-key.ts's clientKeyOf). */
    clientKey?: string;
  }
}

/**
 * Paths no API key is asked for: probes, the metrics route (its own token guards it, or the API keys when it has
 * none: registerAccessControl), the API's documentation and the search page's files (the page asks for a key
 * itself and sends it with every API call).
 */
export function isOpenPath(url: string): boolean {
  const path = pathOf(url);
  return (
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/metrics' ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/') ||
    path === '/' ||
    path.startsWith('/web/') ||
    isOAuthDiscoveryPath(path)
  );
}

function isMetricsPath(url: string): boolean {
  return url === '/metrics' || url.startsWith('/metrics?');
}

/** Where MCP clients look for OAuth after a 401: answered 404 "send an API key" (mcp/oauth-discovery.ts), so without a key. */
function isOAuthDiscoveryPath(path: string): boolean {
  return path.startsWith('/.well-known/') || path === '/register';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Equal-length digests compared in constant time, against every key, so timing says nothing about which. */
export function matchesAnyKey(candidate: string, keyDigests: Buffer[]): boolean {
  const candidateDigest = digest(candidate);
  let matched = false;
  for (const keyDigest of keyDigests) matched = timingSafeEqual(candidateDigest, keyDigest) || matched;
  return matched;
}

function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

/** Requests refused for their key: counted by the per-address rate limit even on an open path (/metrics). */
const refusedRequests = new WeakSet<FastifyRequest>();

/** Whether this request was refused for its key or token (or the lack of one). */
export function wasRefused(request: FastifyRequest): boolean {
  return refusedRequests.has(request);
}

/** Marks a request refused for its key or token, so the rate limit counts it on an open path too (see wasRefused). */
export function markRefused(request: FastifyRequest): void {
  refusedRequests.add(request);
}

export interface AccessControlOptions {
  metricsToken?: boolean;
  /**
   * Counts a refused request against its address's rate limit before it is answered 401, and throws the 429
   * once the address is past it: the limiter's own hook runs after this one (and not at all for an unknown
   * path), so refusals went uncounted and keys could be guessed as fast as the network allowed.
   */
  countRefusal?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Routes that answer the 401 in their own shape (MCP: a JSON-RPC error, with the same status and challenge). */
  refusalShapes?: RefusalShapes;
}

/**
 * When keys are configured, every REST and MCP request needs `Authorization: Bearer <key>` or `X-API-Key`;
 * otherwise a 401 with WWW-Authenticate. Probes and docs stay open.
 */
export function registerAccessControl(app: FastifyInstance, keys: readonly string[], options: AccessControlOptions = {}): void {
  const keyDigests = keys.map(digest);
  // Without keys every request passes and none has a key id: no hook to run for each one.
  if (keyDigests.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const key = presentedKey(request);
    if (key && keyDigests.length > 0 && matchesAnyKey(key, keyDigests)) {
      request.apiKeyId = digest(key).toString('hex').slice(0, 12);
      return;
    }
    // Without a token of its own, /metrics is an API route like the others: it tells who calls what, how often.
    if (request.method === 'OPTIONS' || (isOpenPath(request.url) && (options.metricsToken === true || !isMetricsPath(request.url)))) return;
    await options.countRefusal?.(request, reply);
    const message = key ? 'the API key is not valid' : 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>';
    // No resource_metadata: nothing points MCP clients at an OAuth server, since there is none.
    const headers = { 'www-authenticate': bearerChallenge(key, message) };
    return sendRefusal(request, reply, { status: 401, code: 'UNAUTHORIZED', message, headers }, options.refusalShapes);
  });
}

/**
 * The 401's challenge. A request that sent no key gets no error code (RFC 6750 section 3.1: a client unaware that
 * authentication is needed is told only the scheme and realm); a wrong key is an invalid_token, with why.
 * The MCP SDK's clients read only resource_metadata and scope from a 401's challenge, so neither form changes them.
 */
function bearerChallenge(key: string | undefined, message: string): string {
  return !key ? 'Bearer realm="fedsearch"' : `Bearer realm="fedsearch", error="invalid_token", error_description="${message}"`;
}
