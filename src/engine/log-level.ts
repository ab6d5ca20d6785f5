import type { FastifyBaseLogger as Logger } from 'fastify';

/**
 * Whether a line at `level` would be written: pino's own check where the logger has one (Fastify's type leaves it
 * out), so that a line no one reads is not even built; any other logger hears everything.
 */
export function levelEnabled(logger: Logger, level: string): boolean {
  const check = (logger as { isLevelEnabled?(name: string): boolean }).isLevelEnabled;
  return check ? check.call(logger, level) : true;
}
