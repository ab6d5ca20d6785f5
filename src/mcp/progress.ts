import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchProgress } from '../operations/operation.js';

/** Statuses of providers never called: no latency worth showing. */
const NOT_CALLED = new Set(['not_configured', 'skipped', 'suspended']);

/** "brave ok 212 ms", "tavily not_configured": one line a client can show as each provider finishes. */
export function describeOutcome(outcome: ProviderOutcome): string {
  return NOT_CALLED.has(outcome.status) ? `${outcome.provider} ${outcome.status}` : `${outcome.provider} ${outcome.status} ${outcome.latency_ms} ms`;
}

/**
 * Turns a tool call's searches into `notifications/progress` for its progressToken: `progress` counts the
 * providers finished, `total` the providers asked so far (it grows when auto_research starts another search).
 * settled() waits for every notification sent, so they all precede the tool's result on the wire.
 */
export function progressNotifier(
  progressToken: ProgressToken,
  send: (notification: ServerNotification) => Promise<void>,
  logger: Logger,
): { progress: SearchProgress; settled(): Promise<void> } {
  let total = 0;
  let finished = 0;
  const sent: Array<Promise<void>> = [];
  const progress: SearchProgress = {
    asking: (providers) => {
      total += providers;
    },
    finished: (outcome) => {
      finished += 1;
      const notification: ServerNotification = {
        method: 'notifications/progress',
        params: { progressToken, progress: finished, total: Math.max(total, finished), message: describeOutcome(outcome) },
      };
      // A client that went away cannot be told; its tool call is being cancelled anyway.
      sent.push(send(notification).catch((error: unknown) => logger.debug({ err: error }, 'progress notification not sent')));
    },
  };
  const settled = async (): Promise<void> => {
    if (sent.length === 0) return;
    await Promise.all(sent);
    // The SDK client handles a notification a microtask late but a response at once, so a last notification
    // read in the same chunk as the result is dropped as "unknown token" (typescript-sdk issue #2580). Two
    // setImmediate turns put an I/O poll phase between the two writes, in which a waiting client reads the
    // notification on its own.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { progress, settled };
}
