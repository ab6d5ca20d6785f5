/** What the session cap may close to make room: a session with nothing open (mcp/session-store.ts McpSession). */
export interface EvictableSession {
  readonly id: string;
  /** Requests received and not answered yet: a session still owing an answer is in use. */
  readonly pendingRequests: number;
  close(): Promise<void>;
}

/**
 * The sessions with no HTTP exchange open, in the order they fell quiet: the first has been idle longest. A session
 * leaves on its next request and comes back at the end once that closes, so keeping the order costs a Set delete and
 * add per exchange, and the least recently active idle session is found without scanning every open session.
 */
export class IdleSessions {
  private readonly quiet = new Set<EvictableSession>();

  /** Its last open exchange closed. */
  enter(session: EvictableSession): void {
    this.quiet.delete(session);
    this.quiet.add(session);
  }

  /** An exchange opened, or the session closed. */
  leave(session: EvictableSession): void {
    this.quiet.delete(session);
  }

  /**
   * Closes the session idle longest, so that its slot goes to a new client; undefined when every session is in use.
   * Skips a quiet session still owing an answer (a call whose client dropped its stream, until it is cancelled).
   */
  evictLeastRecentlyActive(): EvictableSession | undefined {
    for (const session of this.quiet) {
      if (session.pendingRequests > 0) continue;
      // Its cleanups (this set, its slot) run before close() first awaits: the slot is free when this returns.
      void session.close();
      return session;
    }
    return undefined;
  }
}
