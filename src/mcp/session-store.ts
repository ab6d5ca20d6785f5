import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerResponse } from 'node:http';
import { IdleWatch } from './idle-watch.js';

/**
 * One client's server and transport. Whatever ends it (the client went away, DELETE, idle, shutdown),
 * close() runs once: its cleanups (timers, store entry) first, then the server, which closes the transport
 * and aborts every call still running.
 */
export class McpSession<Transport> {
  private closed = false;
  private readonly cleanups: Array<() => void> = [];
  private readonly idle: IdleWatch | undefined;

  /** With idleMs, the session closes once none of its HTTP exchanges has been open for that long. */
  constructor(
    readonly id: string,
    readonly server: McpServer,
    readonly transport: Transport,
    options: { idleMs?: number } = {},
  ) {
    if (options.idleMs !== undefined) {
      const idle = new IdleWatch(options.idleMs, () => void this.close());
      this.cleanups.push(() => idle.stop());
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

  async close(): Promise<void> {
    // Set before anything awaits: closing the server closes the transport, whose onclose calls back here.
    if (this.closed) return;
    this.closed = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await this.server.close();
  }
}

/** The open sessions of one transport kind, by id; a closed session leaves its store by itself. */
export class SessionStore<Transport> {
  private readonly sessions = new Map<string, McpSession<Transport>>();

  add(session: McpSession<Transport>): void {
    this.sessions.set(session.id, session);
    session.onClose(() => this.sessions.delete(session.id));
  }

  get(id: string): McpSession<Transport> | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.close()));
  }
}
