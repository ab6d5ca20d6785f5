import type { FastifyBaseLogger } from 'fastify';
import { ReplyError } from 'ioredis';

/**
 * While Redis keeps refusing commands (RefusalReport), at most one warning in this long; the refusals between are
 * debug lines, counted in the next warning.
 */
const REFUSAL_WARNING_INTERVAL_MS = 600_000;

/** Redis answered the command with an error (ioredis' ReplyError, which the package types as `any`). */
export function isReplyError(error: unknown): error is Error {
  return error instanceof (ReplyError as ErrorConstructor);
}

/** Redis' refusal of a write once its memory is full (maxmemory, with a policy that evicts nothing). */
function isMemoryFull(reason: string): boolean {
  return /^OOM\b/.test(reason);
}

/**
 * Commands Redis answered with an error (ReplyError) while the connection is fine: a full memory (OOM, under the
 * default maxmemory-policy noeviction), a replica that became read-only (READONLY), a failed save (MISCONF). Reads and
 * PING still answer, so this is no outage to wait out with a PING: taken as one, each refused write logged "Redis
 * unavailable" and the PING a second later "Redis is back", about once a second for as long as the memory stayed
 * full. One warning instead, and another at most every REFUSAL_WARNING_INTERVAL_MS while refusals go on.
 */
export class RefusalReport {
  private lastWarnedAt: number | undefined;
  private refusedSinceWarning = 0;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly purpose: string,
    private readonly whileDown: string,
    private readonly where: string,
  ) {}

  refused(reason: string): void {
    const now = Date.now();
    if (this.lastWarnedAt !== undefined && now - this.lastWarnedAt < REFUSAL_WARNING_INTERVAL_MS) {
      this.refusedSinceWarning += 1;
      this.logger.debug({ redis: this.where, reason }, `${this.purpose}: Redis still refuses commands`);
      return;
    }
    const since = this.refusedSinceWarning > 0 ? ` (${this.refusedSinceWarning} more refused since the last warning)` : '';
    const advice = isMemoryFull(reason)
      ? '; its memory is full: raise its maxmemory, or let it evict (every key this service writes expires, so maxmemory-policy volatile-lru or allkeys-lru suits it)'
      : '';
    this.logger.warn(
      { redis: this.where, reason },
      `${this.purpose}: Redis refuses commands (${reason}); ${this.whileDown} for what it refuses${since}${advice}`,
    );
    this.lastWarnedAt = now;
    this.refusedSinceWarning = 0;
  }
}
