import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { shownValue } from '../domain/shown-value.js';
import { sendMcpRefusal } from './replies.js';

export interface HostGuardOptions {
  allowedHosts: string[];
  allowedOrigins: string[];
}

/** "Example.com:8080" → { hostname: "example.com", port: "8080" }; IPv6 keeps its brackets. */
function splitHost(value: string): { hostname: string; port: string | undefined } {
  const host = value.trim().toLowerCase();
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  return match ? { hostname: match[1]!, port: match[2] } : { hostname: host, port: undefined };
}

/** An allowed entry without a port admits the host on any port; with a port, only on that one. */
export function isHostAllowed(host: string | undefined, allowed: string[]): boolean {
  if (!host) return false;
  const given = splitHost(host);
  return allowed.some((entry) => {
    const wanted = splitHost(entry);
    return wanted.hostname === given.hostname && (wanted.port === undefined || wanted.port === given.port);
  });
}

function normaliseOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** In MCP_ALLOWED_ORIGINS: any origin at all (unsafe: any web page the user opens may drive the server). */
export const ANY_ORIGIN = '*';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A page served from this machine (any port): a local tool's web UI, say, or the MCP Inspector. */
function isLoopbackOrigin(origin: string): boolean {
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.has(url.hostname);
}

/**
 * Clients outside a browser send no Origin; a browser page may only come from this machine or from an
 * origin in the allowed list (where `*` admits every origin).
 */
export function isOriginAllowed(origin: string | undefined, allowed: string[]): boolean {
  if (origin === undefined) return true;
  const given = normaliseOrigin(origin);
  if (given === undefined) return false;
  return isLoopbackOrigin(given) || allowed.some((entry) => entry === ANY_ORIGIN || normaliseOrigin(entry) === given);
}

/** Why an MCP_ALLOWED_ORIGINS entry cannot be used, or undefined when it can. */
export function originEntryProblem(entry: string): string | undefined {
  if (entry === ANY_ORIGIN) return undefined;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `"${entry}" is not an origin`;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare) return `"${entry}" is not an origin`;
  return undefined;
}

/**
 * What a browser says of a request another page made it send (`Sec-Fetch-Site`). Such a GET by `<img>`, `<script>`
 * or `no-cors` fetch carries no Origin, which isOriginAllowed takes for a client outside a browser: a page on any
 * site could open an SSE session (`<img src="http://localhost:8080/sse">`) that REST's cross-site check
 * (http/cross-site.ts) leaves to this guard. A page from this machine sends its Origin wherever it needs one.
 */
function isBrowserCrossOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/**
 * DNS-rebinding guard for the MCP routes, on top of ALLOWED_HOSTS' Host check of every route: a page on an
 * attacker's domain that resolves to this server still sends its own Origin (browsers always do on POST,
 * which every tool call needs), so only pages from this machine or from MCP_ALLOWED_ORIGINS get in.
 * MCP_ALLOWED_HOSTS narrows the Host check further, for the MCP routes only.
 */
export function createHostGuard(options: HostGuardOptions): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The Host header as received, as ALLOWED_HOSTS checks it: request.host follows X-Forwarded-Host under
    // TRUST_PROXY, a header any caller may write.
    const host = request.raw.headers.host;
    if (options.allowedHosts.length > 0 && !isHostAllowed(host, options.allowedHosts)) {
      request.log.warn({ host: host === undefined ? undefined : shownValue(host) }, 'MCP request refused: host not allowed');
      const message = `Forbidden: host "${shownValue(host ?? '')}" is not allowed to use the MCP endpoint (see MCP_ALLOWED_HOSTS)`;
      return sendMcpRefusal(request, reply, { status: 403, code: 'HOST_NOT_ALLOWED', message });
    }
    const origin = request.headers.origin;
    if (origin === undefined && isBrowserCrossOrigin(request) && !options.allowedOrigins.includes(ANY_ORIGIN)) {
      request.log.warn({ site: request.headers['sec-fetch-site'] }, 'MCP request refused: another site\'s page without an origin');
      return sendMcpRefusal(request, reply, {
        status: 403,
        code: 'CROSS_SITE_REQUEST',
        message: "Forbidden: a request another site's page made the browser send (an <img> or <script>, which carry no Origin) is not allowed to use the MCP endpoint",
      });
    }
    if (!isOriginAllowed(origin, options.allowedOrigins)) {
      request.log.warn({ origin: origin === undefined ? undefined : shownValue(origin) }, 'MCP request refused: origin not allowed');
      return sendMcpRefusal(request, reply, {
        status: 403,
        code: 'CROSS_SITE_REQUEST',
        message: `Forbidden: origin "${shownValue(origin ?? '')}" is not allowed to use the MCP endpoint; pages from localhost are, and MCP_ALLOWED_ORIGINS (a comma list such as https://app.example.com) adds others`,
      });
    }
  };
}
