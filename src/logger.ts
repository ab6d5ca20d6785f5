import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { lazyChildLoggerFactory } from './request-logger.js';

/** Header and field paths that carry credentials: never written to a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-subscription-token"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'apiKey',
  'api_key',
  'token',
  '*.apiKey',
  '*.api_key',
  '*.token',
];

/** Query parameters whose values are secrets when a client sends them in a URL. */
const SECRET_PARAMETERS = /([?&](?:key|api_key|apikey|token|access_token|sessionid)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, '$1[redacted]');
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify logger and request-id options: pino JSON, the request id on every line, secrets redacted. */
export function loggerOptions(level: string, stream?: { write(line: string): void }): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'childLoggerFactory'> {
  return {
    logger: {
      level,
      ...(stream ? { stream } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.socket?.remoteAddress,
        }),
      },
    },
    // Each request's pino child is made when it first writes a line (request-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    // Not Fastify's requestIdHeader: it would take any header value as it is; genReqId checks it first.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  };
}
