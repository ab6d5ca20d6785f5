import type { ServerResponse } from 'node:http';

/** Told when a session's exchanges start and stop: the session cap closes quiet ones to make room (mcp/idle-sessions.ts). */
export interface QuietListener {
  /** Its last open exchange closed. */
  quiet(): void;
  /** An exchange opened while none was. */
  active(): void;
}

/**
 * Streamable HTTP has no connection to lose: a client that vanished without DELETE just stops sending.
 * A session counts its open HTTP exchanges (a GET stream included) and calls onIdle once none has been
 * open for idleMs, nor has the session been busy then. A legacy SSE session tracks only its posted messages,
 * not its stream, and is busy while a call it was sent runs: each POST is answered 202 at once, the result
 * comes later on the stream, and a long call is not a client gone quiet.
 */
export class IdleWatch {
  private open = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
    /** Asked when idleMs is over: while it says yes, the session is given another idleMs. */
    private readonly isBusy: () => boolean = () => false,
    /** Not told of the start: a session is opened by a request, so it falls quiet first when that closes. */
    private readonly listener?: QuietListener,
  ) {
    this.arm();
  }

  /** Counts one exchange as activity until its response closes. */
  track(response: ServerResponse): void {
    if (this.stopped) return;
    this.open += 1;
    if (this.open === 1) this.listener?.active();
    this.disarm();
    response.once('close', () => {
      this.open -= 1;
      if (this.open > 0 || this.stopped) return;
      this.arm();
      this.listener?.quiet();
    });
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private arm(): void {
    if (this.stopped) return;
    this.disarm();
    this.timer = setTimeout(() => {
      if (this.isBusy()) {
        this.arm();
        return;
      }
      this.stop();
      this.onIdle();
    }, this.idleMs);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
