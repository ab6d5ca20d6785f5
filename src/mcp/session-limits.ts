import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKeyOf } from '../domain/client-key.js';
import { retryAfterWords } from '../domain/retry-advice.js';
import { IdleSessions, type EvictableSession } from './idle-sessions.js';
import { sendMcpRefusal } from './replies.js';

/** Who opened a session: its API key id, and the client it counts against (domain/client-key.ts, as the rate limiter counts). */
export interface SessionOwner {
  apiKeyId: string | undefined;
  client: string;
}

export function ownerOf(request: FastifyRequest): SessionOwner {
  return { apiKeyId: request.apiKeyId, client: clientKeyOf(request) };
}

/**
 * Another owner's session is answered as an unknown one: a session id is no credential. With API keys the owner
 * is the key; without keys it is the client's address (as the session cap counts it: an IPv6 /64), so that an id
 * seen elsewhere (a proxy's access log of /messages?sessionId=…, a shared screen) does not hand the session to
 * whoever holds it. Without keys both key ids were undefined, and any caller could drive any session.
 */
export function belongsTo(session: { owner: SessionOwner | undefined }, request: FastifyRequest): boolean {
  return session.owner !== undefined && session.owner.client === clientKeyOf(request);
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
 *
 * A client that vanished without DELETE held its slot until MCP_SESSION_IDLE_MS (15 minutes) was over, so clients
 * enough (or addresses enough: the per-client limit counts each one apart) filled the total, and every new client
 * got 503 until those idled out. At the total, the session idle longest (no exchange open, no answer owed) is
 * closed instead, and its client, if it comes back, is told the session is unknown (404), as after an idle-out.
 * A session in use (an open stream, a call in flight) is never closed for this; legacy SSE sessions are not listed
 * as idle at all, their stream being open for as long as they live.
 */
export class SessionLimits {
  private total = 0;
  private readonly perClient = new Map<string, number>();
  /** The Streamable HTTP sessions with nothing open; McpSession keeps its place in it (idleSessions option). */
  readonly idleSessions = new IdleSessions();

  constructor(
    private readonly settings: SessionLimitSettings,
    /** Told of each session closed to make room (a log line, a metric). */
    private readonly onEvicted: (session: EvictableSession) => void = () => undefined,
  ) {}

  /**
   * Why a new session of this client may not open; undefined when it may. At the total, the least recently active
   * idle session is closed first to make room (not one of the same client past its own limit: see below).
   */
  admit(owner: SessionOwner): Refusal | undefined {
    const { maxSessions, maxSessionsPerClient } = this.settings;
    // Checked first: a client past its own limit must not cost another client its session on the way to its 429.
    // Nor does it lose its own idle one: a key is often shared by several agents, and it is told to end unused ones.
    if ((this.perClient.get(owner.client) ?? 0) >= maxSessionsPerClient) {
      // A wait does help: a key is often shared, and its other holders' sessions end or idle out (MCP_SESSION_IDLE_MS)
      // without this caller's doing; so the message gives the Retry-After this refusal carries, as every refusal's does.
      const client = owner.apiKeyId ? 'API key' : 'client address';
      return {
        status: 429,
        message: `Too many MCP sessions: at most ${maxSessionsPerClient} open sessions per ${client} (MCP_MAX_SESSIONS_PER_CLIENT); end unused ones (DELETE a Streamable HTTP session, close an SSE stream), ${retryAfterWords(RETRY_AFTER_MS)} (a slot frees as one ends or idles out), or raise MCP_MAX_SESSIONS_PER_CLIENT`,
      };
    }
    if (this.total >= maxSessions) {
      const evicted = this.idleSessions.evictLeastRecentlyActive();
      if (evicted) this.onEvicted(evicted);
    }
    if (this.total >= maxSessions) {
      return {
        status: 503,
        message: `Too many MCP sessions: the server holds at most ${maxSessions} open sessions (MCP_MAX_SESSIONS) and every one is in use (an open stream or a call in flight); ${retryAfterWords(RETRY_AFTER_MS)}, or raise MCP_MAX_SESSIONS`,
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

// Slots free when clients leave, idle out or fall idle; a minute spaces retries without making a client wait long.
const RETRY_AFTER_MS = 60_000;

export function sendSessionRefusal(request: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  return sendMcpRefusal(request, reply, { ...refusal, code: 'TOO_MANY_SESSIONS', retryAfterMs: RETRY_AFTER_MS });
}
