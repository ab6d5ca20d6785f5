import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../domain/client-key.js';
import { sendMcpRefusal } from './replies.js';

/** Who opened a session: its API key id, and the client it counts against (domain/client-key.ts, as the rate limiter counts). */
export interface SessionOwner {
  apiKeyId: string | undefined;
  client: string;
}

export function ownerOf(request: FastifyRequest): SessionOwner {
  return { apiKeyId: request.apiKeyId, client: clientKey(request.apiKeyId, request.ip) };
}

/**
 * Another owner's session is answered as an unknown one: a session id is no credential. With API keys the owner
 * is the key; without keys it is the client's address (as the session cap counts it: an IPv6 /64), so that an id
 * seen elsewhere (a proxy's access log of /messages?sessionId=…, a shared screen) does not hand the session to
 * whoever holds it. Without keys both key ids were undefined, and any caller could drive any session.
 */
export function belongsTo(session: { owner: SessionOwner | undefined }, request: FastifyRequest): boolean {
  return session.owner !== undefined && session.owner.client === clientKey(request.apiKeyId, request.ip);
}

export interface SessionLimitSettings {
  maxSessions: number;
  maxSessionsPerClient: number;
}

interface Refusal {
  status: 429 | 503;
  message: string;
}

/**
 * Each session holds a server and its transport (~31 KB) until it ends or idles out, so their number is bounded
 * in total and per client. Counted when admitted, before anything awaits, so a burst of initialize requests
 * cannot all slip past the check; released by the session's close, whatever ends it.
 */
export class SessionLimits {
  private total = 0;
  private readonly perClient = new Map<string, number>();

  constructor(private readonly settings: SessionLimitSettings) {}

  /** Why a new session of this client would pass a limit; undefined when it fits. */
  refusal(owner: SessionOwner): Refusal | undefined {
    const { maxSessions, maxSessionsPerClient } = this.settings;
    if (this.total >= maxSessions) {
      return {
        status: 503,
        message: `Too many MCP sessions: the server holds at most ${maxSessions} open sessions (MCP_MAX_SESSIONS); retry later, or raise MCP_MAX_SESSIONS`,
      };
    }
    if ((this.perClient.get(owner.client) ?? 0) >= maxSessionsPerClient) {
      const client = owner.apiKeyId ? 'API key' : 'client address';
      return {
        status: 429,
        message: `Too many MCP sessions: at most ${maxSessionsPerClient} open sessions per ${client} (MCP_MAX_SESSIONS_PER_CLIENT); end unused ones with DELETE, or raise MCP_MAX_SESSIONS_PER_CLIENT`,
      };
    }
    return undefined;
  }

  /** Takes a slot; the returned function gives it back (once, however often it is called). */
  hold(owner: SessionOwner): () => void {
    this.total += 1;
    this.perClient.set(owner.client, (this.perClient.get(owner.client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perClient.get(owner.client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(owner.client);
      else this.perClient.set(owner.client, left);
    };
  }
}

// Slots free when clients leave or idle out; a minute spaces retries without making a client wait long.
const RETRY_AFTER_MS = 60_000;

export function sendSessionRefusal(request: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  return sendMcpRefusal(request, reply, { ...refusal, code: 'TOO_MANY_SESSIONS', retryAfterMs: RETRY_AFTER_MS });
}
