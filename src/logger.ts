import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { stdSerializers } from 'pino';
import { shownValue } from './domain/shown-value.js';
import { hideUrlSecrets, holdsNestedUrl, isSecretParameter } from './domain/url-secrets.js';
import { hideUrlUserinfo } from './domain/url-userinfo.js';
import { levelEnabled } from './engine/log-level.js';
import { redactSecrets } from './engine/redact.js';
import { lazyChildLoggerFactory } from './request-logger.js';
import { rememberAppRequest } from './transport/app-requests.js';

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

// `#` starts a query string too: Fastify's router ends the path at the first `?` or `#` and parses what follows
// as parameters (`/v1/search/web#api_key=…&q=…` is searched as q), so a key written after a `#` was logged as it was;
// and after another parameter (`?q=x#api_key=…`) a `#` ends that one's value here, as a `;` does (`?q=x;api_key=…`,
// read as `&` by many a client and site): either kept the key inside the value before it, logged whole. A `?` ends a
// name too. A value it ends only in the path: after a path's parameter (`/x;v=1?api_key=…`) it starts the query,
// whose first parameter a value running on to the next `&` took in, its key logged as part of `v`'s value; inside the
// query a `?` is a value's own character (`?api_key=ab?cd` is read as `ab?cd`), and ending the value there logged
// what followed it (`?cd`) as it was. So the path (up to its first `?` or `#`) and the query are redacted apart.
const QUERY_PARAMETER = /([?&#;])([^=&#;?]*)=[^&#;]*/g;
const QUERY_START = /[?#]/;

function redactParameters(part: string): string {
  return part.replace(QUERY_PARAMETER, (pair, separator: string, name: string) => (isSecretParameter(name) ? `${separator}${name}=[redacted]` : pair));
}

/**
 * The query's parameters, a secret's value redacted up to the next `&`: the parser reads only `&` as a parameter's end
 * (`?token=ab;cd` and `?token=ab#cd` are read as `ab;cd`, `ab#cd`), and ending a secret's value at the `;` or `#`, as
 * another's is ended to find a key after it, logged the rest of the credential (`;cd`) as it was.
 */
function redactQueryParameters(query: string): string {
  let redacted = '';
  let copiedTo = 0;
  for (const match of query.matchAll(QUERY_PARAMETER)) {
    const [, separator = '', name = ''] = match;
    // A match inside a value already redacted is part of that value.
    if (match.index < copiedTo || !isSecretParameter(name)) continue;
    const valueStart = match.index + separator.length + name.length + 1;
    const nextParameter = query.indexOf('&', valueStart);
    redacted += `${query.slice(copiedTo, valueStart)}[redacted]`;
    copiedTo = nextParameter < 0 ? query.length : nextParameter;
  }
  return copiedTo === 0 ? query : redacted + query.slice(copiedTo);
}

/**
 * A request's URL as its log line writes it: the values of its parameters with a secret's name redacted, and, when a
 * parameter holds a URL (GET /v1/papers/download?url=…), that URL's user name, password and secret parameters too.
 */
export function redactUrl(url: string): string {
  if (!url.includes('=')) return url;
  const queryAt = url.search(QUERY_START);
  const redacted = queryAt < 0 ? redactParameters(url) : redactParameters(url.slice(0, queryAt)) + redactQueryParameters(url.slice(queryAt));
  return holdsNestedUrl(redacted) ? hideUrlSecrets(redacted) : hideUrlUserinfo(redacted);
}

type SerializedError = ReturnType<typeof stdSerializers.err>;

/** How deep a logged error's fields are searched for secrets; anything deeper is not written. */
const MAX_ERROR_DEPTH = 8;

/**
 * pino's own `err` serializer, then every string it wrote redacted: its message and stack hold those of the
 * whole cause chain, so an upstream's text that quotes a key is redacted wherever in the chain it sits, and so is
 * a fetched URL's credential for its own site (FETCH_FAILED's "could not fetch https://…?X-Amz-Signature=…").
 * Serializers run only for a line that has an `err`, so a request that fails nothing pays nothing.
 */
function errorSerializer(secrets: readonly string[]): (error: Error) => SerializedError {
  return (error) => redactFields(stdSerializers.err(error), secrets, 0) as SerializedError;
}

function redactFields(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_ERROR_DEPTH) return '[not logged: nested too deep]';
  if (Array.isArray(value)) return value.map((item: unknown) => redactFields(item, secrets, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, redactFields(field, secrets, depth + 1)]));
}

/**
 * A message as a log line writes it: the configured keys redacted, and the credentials of any URL it quotes. A
 * caller's answer keeps its own URL whole (it wrote it, and needs it to see what failed); the operator's log is
 * read by others and kept for long, and has no use for the caller's token to another site.
 */
function redactText(text: string, secrets: readonly string[]): string {
  return hideUrlSecrets(redactSecrets(text, secrets));
}

/**
 * A refused request's line carries the message it was answered with (error-handler.ts logFailure), and a
 * caller's mistake quotes the value it sent (`time_range: "…" is not allowed`): a client that put its API key
 * in a parameter had the key redacted from the line's URL and written whole in its message.
 */
function messageSerializer(secrets: readonly string[]): (message: unknown) => unknown {
  return (message) => (typeof message === 'string' ? redactText(message, secrets) : message);
}

/**
 * The request line of a request Node's parser refused (http/client-error.ts) as a request's URL is written: every
 * configured key and its target's secret parameters redacted (the keys first, as for a URL), and only then cut short
 * (its length is the caller's choice), so that the cut cannot leave the start of a key that whole-key redaction would
 * have found.
 */
function requestLineSerializer(secrets: readonly string[]): (line: unknown) => unknown {
  return (line) =>
    typeof line === 'string'
      ? shownValue(redactSecrets(line, secrets).replace(/^(\S+ )(\S+)/, (_line, method: string, target: string) => `${method}${redactUrl(target)}`))
      : line;
}

/** Probes and scrapes come every few seconds from the platform, not from callers: their lines are debug. */
const QUIET_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One line per request, written when its answer is done: Fastify's own pair ("incoming request", then "request
 * completed" with neither method nor URL) made an operator join two lines by request id to learn what a slow or
 * failed answer was for, and doubled the lines at `info`. A request whose client left before its answer has its
 * line from logAbortedRequests instead.
 */
class RequestLineController extends LogController {
  // Fastify's first word of every request, and the first moment its Fastify request exists: kept on Node's request for
  // an answer written past the app (http/client-error.ts), with the id and route the app's own count and lines use.
  override incomingRequest(request: FastifyRequest): void {
    rememberAppRequest(request.raw, request);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    writeRequestLine(error, request, reply);
  }
}

/** The one line of an answered request; also written for the requests Fastify answers past every hook (http/framework-errors.ts). */
export function writeRequestLine(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url;
  const level = error ? 'warn' : route !== undefined && QUIET_ROUTES.has(route) && reply.statusCode < 400 ? 'debug' : 'info';
  // Every request passes here: at a level that writes no line (a busy service's warn), none is made.
  if (!levelEnabled(reply.log, level)) return;
  const line = {
    req: request,
    route: route ?? 'unmatched',
    // The caller's address as TRUST_PROXY reads it; req.remoteAddress is the socket's peer (the proxy).
    ip: request.ip,
    res: { statusCode: reply.statusCode },
    responseTime: Math.round(reply.elapsedTime * 10) / 10,
  };
  if (error) reply.log.warn({ ...line, err: error }, 'request errored');
  else reply.log[level](line, 'request completed');
}

/**
 * The line of a request whose client went away before its answer: no answer is sent, so no `request completed`
 * line is written, and a search that ran until its caller gave up left no trace of what it asked. A request answered
 * past the app (`answeredElsewhere`: its body came too late, or malformed) has its line there: its client did not leave.
 */
export function logAbortedRequests(app: FastifyInstance, answeredElsewhere: (request: FastifyRequest) => boolean = () => false): void {
  app.addHook('onRequestAbort', (request, done) => {
    if (answeredElsewhere(request)) {
      done();
      return;
    }
    request.log.info({ req: request, route: request.routeOptions.url ?? 'unmatched', ip: request.ip }, 'request aborted by the client');
    done();
  });
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify logger and request-id options: pino JSON, the request id on every line, secrets redacted. `secrets`
 * are the configured key values in each of their spellings (`secretValues` in engine/redact.ts), the providers'
 * and the service's own API keys: an error's message or stack may quote one an upstream echoed, a request's
 * URL one a client put there, and no path-based redaction can know where.
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
  secrets: readonly string[] = [],
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'childLoggerFactory' | 'logController'> {
  return {
    logController: new RequestLineController(),
    logger: {
      level,
      ...(stream ? { stream } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          // By value too, first: a key under a name not listed above, or in the path, is still one of ours, and one
          // holding a `;` or `#` would be cut in two by the parameters' redaction, its end no longer found whole.
          url: redactUrl(redactSecrets(request.url, secrets)),
          remoteAddress: request.socket?.remoteAddress,
        }),
        err: errorSerializer(secrets),
        message: messageSerializer(secrets),
        requestLine: requestLineSerializer(secrets),
      },
    },
    // Each request's pino child is made when it first writes a line (request-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    // Not Fastify's requestIdHeader: it would take any header value as it is; genReqId checks it first.
    requestIdHeader: false,
    // An answer written past the app (http/client-error.ts) carries the same id: RequestLineController keeps the
    // request it is given to on the raw one.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  };
}
