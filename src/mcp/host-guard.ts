import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { sendMcpError } from './replies.js';

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

/** Clients outside a browser send no Origin; a browser page may only come from an allowed origin. */
export function isOriginAllowed(origin: string | undefined, allowed: string[]): boolean {
  if (origin === undefined) return true;
  const given = normaliseOrigin(origin);
  return given !== undefined && allowed.some((entry) => normaliseOrigin(entry) === given);
}

/**
 * DNS-rebinding guard for the MCP routes: a page on an attacker's domain that resolves to this server
 * still sends its own Host and Origin, so checking both against the configured lists turns it away.
 */
export function createHostGuard(options: HostGuardOptions): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (options.allowedHosts.length > 0 && !isHostAllowed(request.host, options.allowedHosts)) {
      request.log.warn({ host: request.host }, 'MCP request refused: host not allowed');
      return sendMcpError(reply, 403, `Forbidden: host "${request.host}" is not allowed to use the MCP endpoint (see MCP_ALLOWED_HOSTS)`);
    }
    const origin = request.headers.origin;
    if (options.allowedOrigins.length > 0 && !isOriginAllowed(origin, options.allowedOrigins)) {
      request.log.warn({ origin }, 'MCP request refused: origin not allowed');
      return sendMcpError(reply, 403, `Forbidden: origin "${origin}" is not allowed to use the MCP endpoint (see MCP_ALLOWED_ORIGINS)`);
    }
  };
}
