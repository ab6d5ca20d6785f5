import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answerInProgress, responseInProgress } from '../transport/stalled-responses.js';
import { appRequestOf } from '../transport/app-requests.js';
import { UNMATCHED_ROUTE, UNPARSED_LABELS, type RequestLabels } from '../observability/request-observation.js';
import { rawAnswer, rawResponseText, type RawBodyShapes, type RawRefusal } from './raw-refusal.js';

/** Node's parser error, with the bytes it had read when it gave up (a Buffer, on parse errors only). */
type ParserError = Error & { code?: string; rawPacket?: unknown };

/** A refusal's status, by the parser's error code: what the caller is told was wrong. */
function describe(code: string | undefined): RawRefusal {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'QUERY_INVALID', message: 'the request line or headers are too large' };
  // FOO, or get in lower case: the one part of the request line a caller chose that Node names. (A method HTTP defines but
  // no route takes, PROPFIND, reaches the app and is a 405 naming the ones the path does.)
  if (code === 'HPE_INVALID_METHOD') {
    return { status: 400, code: 'QUERY_INVALID', message: 'method: not one HTTP defines (methods are case-sensitive); allowed: GET, HEAD and POST (and DELETE on /mcp)' };
  }
  // REQUEST_TIMEOUT_MS passed before the headers and body were in: the client is slow, or holding the socket.
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request did not arrive in full within REQUEST_TIMEOUT_MS' };
  return { status: 400, code: 'QUERY_INVALID', message: 'the request could not be parsed as HTTP' };
}

/** A request line starts with a method and a space; a header line (`Authorization: Bearer …`) never does. */
const REQUEST_LINE_START = new RegExp(`^(?:${METHODS.join('|')}) `);
/** Enough of a request line for the log to redact a key in it whole before it cuts the line short (logger.ts). */
const REQUEST_LINE_READ_BYTES = 1024;

/**
 * The request line of what the caller sent, for the log line (whose serializer redacts the keys in its target and
 * cuts it short): never the headers and the credentials they carry. The bytes Node hands over are the piece it was
 * reading when it gave up, not the request from its start: headers that arrive in parts are refused in a later
 * piece, whose first line is a header's (an Authorization header was logged so). Such a piece has no request line.
 */
function requestLineOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket) || rawPacket.length === 0) return undefined;
  const firstLine = rawPacket.subarray(0, REQUEST_LINE_READ_BYTES).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  return REQUEST_LINE_START.test(firstLine) ? firstLine : undefined;
}

/** A server socket's parser: not a public field, but the one Node's own server reads the request being received from. */
type ParsingSocket = Socket & { parser?: { incoming?: IncomingMessage | null } | null };

/**
 * The request on this connection whose head was read, and so handed to the app, but whose body is still arriving. An error
 * then is about a request the app holds, answers (or has answered) and counts and logs itself: not one Node could not read.
 */
function requestStillArriving(socket: Socket): IncomingMessage | undefined {
  const incoming = (socket as ParsingSocket).parser?.incoming;
  return incoming && !incoming.complete ? incoming : undefined;
}

/** Requests the app holds that were answered here (their body came too late, or malformed): their abort is not the client's. */
const answeredHere = new WeakSet<IncomingMessage>();

/**
 * Whether this request, which the app holds, was answered here rather than by the app: its connection then closes under
 * it, which the app hears as its client leaving, but the caller was answered and the answer counted here.
 */
export function answeredPastTheApp(request: IncomingMessage): boolean {
  return answeredHere.has(request);
}

/**
 * What a refusal written here is counted under: a request the app holds, under the method and route the app counts its
 * own answers under (the method is one Node's parser knows, a bounded set; the route, the pattern the router matched, or
 * `unmatched`); bytes Node could not read as a request, under fixed labels.
 */
function labelsOf(held: IncomingMessage | undefined): RequestLabels {
  if (held?.method === undefined) return UNPARSED_LABELS;
  return { method: held.method, route: appRequestOf(held)?.routeOptions.url ?? UNMATCHED_ROUTE };
}

/**
 * Requests Node's HTTP parser rejects before the app sees them (raw bytes in the request line, oversized headers, a
 * request still arriving after REQUEST_TIMEOUT_MS): no request object exists, so no hook gives them a request id,
 * helmet's headers, a count or a log line. Answered here as every refusal is (raw-refusal.ts), with a closed
 * connection, so a keep-alive client does not reuse a socket the parser has given up on; logged at warn with its
 * request id, and counted (`counted`) under fixed labels, as no request was made. An error in a body is about a request
 * the app holds (`held`): one it answered already is left to it, as is a client that closed its side meanwhile; one
 * whose answer is streaming keeps that answer, and its connection ends with it (endWithItsAnswer); one it still waits
 * for is answered with the id the app gave it, so the caller's X-Request-Id is the one on the app's lines for it, in
 * the shape its path answers in (`bodyShapes`: JSON-RPC on the MCP routes, whose clients parse no other body), and
 * counted under its own method and route.
 */
export function answerClientErrors(
  counted: (labels: RequestLabels, statusCode: number) => void,
  bodyShapes?: RawBodyShapes,
): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  // Fastify calls the handler bound to the app, whose logger it then has (the app does not exist yet when this is made).
  return function answer(this: { log: FastifyBaseLogger }, error: ParserError, socket: Socket) {
    // A reset or a socket already gone: nobody to answer, and nothing the caller did wrong to count.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const held = requestStillArriving(socket);
    if (held) {
      // Already answered (no answer is in progress), counted and logged: what its client then does with the rest of its
      // body (closes its side, or stops sending) is no request of its own, and a second answer would answer none. A
      // client that closes its side while its body is arriving has left: the app counts and logs the abort.
      if (!answerInProgress(socket) || error.code === 'HPE_INVALID_EOF_STATE') {
        socket.destroy();
        return;
      }
      const response = responseInProgress(socket);
      if (response?.headersSent === true) {
        endWithItsAnswer(held, response, socket, this.log, labelsOf(held), error.code);
        return;
      }
      // A body too late or malformed, which the app waits for: answered and counted here, as it was, and not again
      // as a client that left when its connection closes under the app.
      answeredHere.add(held);
    }
    const refusal = describe(error.code);
    const labels = labelsOf(held);
    const reply = held ? rawAnswer(refusal, appRequestOf(held)?.id, bodyShapes?.(held.url)) : rawAnswer(refusal);
    if (held) {
      // Its request line and headers were read: the line names the request by the labels the app's lines use, and not
      // by the bytes Node gave up on, which are the body's (whatever it carried), not a request line.
      this.log.warn(
        { reqId: reply.requestId, statusCode: refusal.status, code: error.code, method: labels.method, route: labels.route },
        `request refused: ${bodyFault(error.code)}`,
      );
    } else {
      this.log.warn(
        { reqId: reply.requestId, statusCode: refusal.status, code: error.code, requestLine: requestLineOf(error.rawPacket) },
        'request refused: not read as HTTP',
      );
    }
    counted(labels, refusal.status);
    socket.end(rawResponseText(reply));
  };
}

/** Requests whose connection ends with the answer already streaming on it (endWithItsAnswer): told once. */
const endingWithAnswer = new WeakSet<IncomingMessage>();

/**
 * A body too late or malformed under an answer already streaming (a search stream's events, an MCP SSE session's): a
 * second answer written on the socket would land inside the first one's body, as text its client reads as an event,
 * and be counted as a refusal of a request answered 200. As Node's own handler would, nothing is written into it; as
 * a shutdown does (endArrivingRequest), the answer is not cut into either: the connection ends when it is done, the
 * rest of the body unread. The app counts and logs the answer; this line says why its connection closed.
 */
function endWithItsAnswer(held: IncomingMessage, response: ServerResponse, socket: Socket, log: FastifyBaseLogger, labels: RequestLabels, code: string | undefined): void {
  // A malformed body reports again with each piece that arrives after it: one line and one listener.
  if (endingWithAnswer.has(held)) return;
  endingWithAnswer.add(held);
  log.info(
    { reqId: appRequestOf(held)?.id, code, method: labels.method, route: labels.route },
    `request answered: ${bodyFault(code)} while its answer streamed, so its connection ends with that answer`,
  );
  // The socket is taken now: Node detaches it from the response before a 'finish' listener runs.
  response.once('finish', () => socket.destroySoon());
}

/**
 * What went wrong with the body of a request the app holds, for its log line: it was read as HTTP (the app logged and
 * counted nothing else for it), so "not read as HTTP" sent an operator looking for a malformed request line that was never sent.
 */
function bodyFault(code: string | undefined): string {
  return code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'its body did not arrive in time' : 'its body was malformed';
}

/**
 * Ends, as a shutdown begins, a connection whose request is still arriving (its body incomplete: a slow upload, a body
 * that never starts, chunks that stop). Node's close() waits for such a connection as for any request in progress, and
 * the app waits for the body: one such client held the shutdown until REQUEST_TIMEOUT_MS had passed (checked only every
 * connectionsCheckingInterval, so up to twice as long), past SHUTDOWN_GRACE_MS. One whose answer is still to come is
 * answered 503 SHUTTING_DOWN here, with the app's request id, logged and counted (under its method and route) as the
 * app would have; one answered already (a 404 or 401 given before its body came) has nothing more to say. Either way
 * the rest of the body is not waited for. The 503 takes the shape of its path (`bodyShapes`), as the app's hook's does:
 * JSON-RPC on the MCP routes. Returns whether it ended the connection.
 */
export function endArrivingRequest(
  socket: Socket,
  log: FastifyBaseLogger,
  counted: (labels: RequestLabels, statusCode: number) => void,
  bodyShapes?: RawBodyShapes,
): boolean {
  const held = requestStillArriving(socket);
  if (!held) return false;
  const response = responseInProgress(socket);
  // An answer already under way (its headers sent) is not cut into: it ends its connection when done (unused-connections.ts).
  if (response?.headersSent === true) return false;
  if (response !== undefined && !socket.destroyed) {
    answeredHere.add(held);
    const reply = rawAnswer(SHUTTING_DOWN, appRequestOf(held)?.id, bodyShapes?.(held.url));
    log.info({ reqId: reply.requestId, statusCode: SHUTTING_DOWN.status, code: SHUTTING_DOWN.code }, 'request rejected: still arriving when the shutdown began');
    counted(labelsOf(held), SHUTTING_DOWN.status);
    socket.write(rawResponseText(reply));
  }
  // After what was written has gone out: the answer above, or the end of the one the app gave.
  socket.destroySoon();
  return true;
}

/** What a request that reaches the service while it closes is told, by the app's hook (app.ts) and here alike. */
export const SHUTTING_DOWN_MESSAGE = 'the service is shutting down and takes no new requests; send this one again (to another replica)';

const SHUTTING_DOWN: RawRefusal = { status: 503, code: 'SHUTTING_DOWN', message: SHUTTING_DOWN_MESSAGE };
