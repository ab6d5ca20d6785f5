import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { IdleSessions } from './idle-sessions.js';
import { IdleWatch, type QuietListener } from './idle-watch.js';
import { PendingRequests } from './pending-requests.js';
import { CLOSED_BY_SERVER, type SessionClosing } from './session-closing.js';
import type { SessionOwner } from './session-limits.js';

/**
 * How logs name a session: a short digest of its id, never the id. Without API keys the id is all a client needs
 * to use a session (and an SSE session's id travels in the /messages URL, which the request log redacts), so
 * whoever reads the logs could otherwise take over any session listed there. The tag still joins a session's lines.
 */
export function sessionLogTag(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 12);
}

/**
 * One client's server and transport. Whatever ends it (the client went away, DELETE, idle, shutdown),
 * close() runs once: each request still waiting is answered with an error saying why (a client would otherwise
 * wait for its own timeout), its cleanups (timers, store entry) run, then the server closes, which closes the
 * transport and aborts every call still running.
 */
export class McpSession<Transport extends SdkTransport> {
  private closed = false;
  private readonly cleanups: Array<() => void> = [];
  private readonly idle: IdleWatch | undefined;
  private readonly pending: PendingRequests;
  readonly owner: SessionOwner | undefined;

  /**
   * Create it before the server connects to the transport (see PendingRequests). With idleMs, the session
   * closes once none of its HTTP exchanges has been open, nor any request waited for its answer, for that long.
   * Its owner is who opened it. With idleMs and idleSessions, it is listed there whenever none of its exchanges is
   * open, so that the session cap may close it to make room for a new client (mcp/session-limits.ts).
   */
  constructor(
    readonly id: string,
    readonly server: McpServer,
    readonly transport: Transport,
    options: { idleMs?: number; owner?: SessionOwner; idleSessions?: IdleSessions } = {},
  ) {
    this.owner = options.owner;
    this.pending = new PendingRequests(transport);
    this.cleanups.push(() => this.pending.clear());
    if (options.idleMs !== undefined) {
      const { idleSessions } = options;
      const listener: QuietListener | undefined = idleSessions && { quiet: () => idleSessions.enter(this), active: () => idleSessions.leave(this) };
      const idle = new IdleWatch(options.idleMs, () => void this.close(), () => this.pending.size > 0, listener);
      this.cleanups.push(() => idle.stop());
      if (idleSessions) this.cleanups.push(() => idleSessions.leave(this));
      this.idle = idle;
    }
  }

  /** Counts an HTTP exchange as activity (see IdleWatch). */
  track(response: ServerResponse): void {
    this.idle?.track(response);
  }

  /** The session ends with this response: now if it is already gone, else when it closes. */
  endWith(response: ServerResponse): void {
    if (response.closed || response.destroyed) void this.close();
    else response.once('close', () => void this.close());
  }

  onClose(cleanup: () => void): void {
    if (this.closed) cleanup();
    else this.cleanups.push(cleanup);
  }

  /** Requests received and not answered yet (tool calls in flight, mostly). */
  get pendingRequests(): number {
    return this.pending.size;
  }

  /** Whether a request of this session with this JSON-RPC id is still waiting for its answer. */
  isPending(id: RequestId): boolean {
    return this.pending.has(id);
  }

  /** Shutdown: lets the requests in flight deliver their answers, then closes. */
  async finish(): Promise<void> {
    await this.pending.answered();
    await this.close();
  }

  /**
   * Answers each request still waiting with an error saying why the session ends: for a close the transport makes
   * itself (a DELETE), which ends the requests' streams before close() is called back.
   */
  answerPending(closing: SessionClosing): Promise<void> {
    return this.pending.answerAll(closing);
  }

  async close(closing: SessionClosing = CLOSED_BY_SERVER): Promise<void> {
    // Set before anything awaits: closing the server closes the transport, whose onclose calls back here.
    if (this.closed) return;
    this.closed = true;
    // Written before the cleanups forget the requests, and before the server closes their streams.
    const answered = this.pending.answerAll(closing);
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await answered;
    await this.server.close();
  }
}

/** The open sessions of one transport kind, by id; a closed session leaves its store by itself. */
export class SessionStore<Transport extends SdkTransport> {
  private readonly sessions = new Map<string, McpSession<Transport>>();
  private finishing = false;

  add(session: McpSession<Transport>): void {
    this.sessions.set(session.id, session);
    session.onClose(() => this.sessions.delete(session.id));
    // Opened by a request that was already in flight when shutdown began: it ends after its answers too.
    if (this.finishing) void session.finish();
  }

  get(id: string): McpSession<Transport> | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Requests received and not answered yet, over every session. */
  get pendingRequests(): number {
    let count = 0;
    for (const session of this.sessions.values()) count += session.pendingRequests;
    return count;
  }

  /** Shutdown: every session closes once its requests in flight are answered (idle ones at once). */
  async finishAll(): Promise<void> {
    this.finishing = true;
    await Promise.allSettled([...this.sessions.values()].map((session) => session.finish()));
  }

  async closeAll(closing?: SessionClosing): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.close(closing)));
  }
}
