import type { FastifyBaseLogger } from 'fastify';

/**
 * An error nothing caught, or a promise nothing awaited that failed, is logged as one JSON line at `fatal`, then
 * the process exits 1. Without this Node wrote a bare stack to stderr, which a log pipeline does not parse, and
 * without the `err` serializer that redacts configured keys (logger.ts). pino writes a fatal line synchronously
 * (and flushes a buffered destination first), so the line is out before the exit; pino.final, which once did
 * this, is gone from pino 10. The process does not go on: after an uncaught exception its state is unknown, and
 * the platform restarts it. An unhandled rejection ends it too, as Node's default (`--unhandled-rejections=throw`)
 * would, so a log line is all this adds.
 */
export function exitOnUncaughtErrors(logger: FastifyBaseLogger): void {
  process.on('uncaughtException', (error, origin) => logAndExit(logger, error, origin));
  process.on('unhandledRejection', (reason) => logAndExit(logger, reason, 'unhandledRejection'));
}

function logAndExit(logger: FastifyBaseLogger, error: unknown, origin: string): never {
  try {
    logger.fatal({ err: error, origin }, origin === 'unhandledRejection' ? 'unhandled promise rejection; exiting' : 'uncaught exception; exiting');
  } finally {
    // Whatever the logging did (a serializer that throws), the process must not run on.
    process.exit(1);
  }
}
