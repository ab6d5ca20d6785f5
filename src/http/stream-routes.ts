import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import type { AppConfig } from '../config.js';
import { clientKeyOf } from '../domain/client-key.js';
import { FedsearchError } from '../domain/errors.js';
import { QUERY_STRING } from '../domain/validation.js';
import type { ProviderAnswer } from '../engine/gather.js';
import type { SearchRequest, SearchService } from '../engine/search-service.js';
import type { SearchPlan } from '../operations/search-plan.js';
import { endConnectionAfterShutdown } from '../transport/closing-connection.js';
import { errorEnvelope, logFailure } from './error-handler.js';
import { arrivalOf } from './request-arrival.js';
import { clientGoneSignal } from './request-signal.js';
import { planRouteSearch } from './search-routes.js';
import { errorResponses } from './response-schemas.js';
import { searchQuerystrings, type SearchRouteInput, type SearchRouteKind } from './search-schemas.js';
import { documented } from './zod-schemas.js';

const KINDS: SearchRouteKind[] = ['web', 'papers'];

const DESCRIPTION =
  'The same search as GET /v1/search/{kind}, streamed as Server-Sent Events while providers answer:\n' +
  '- `event: provider`: one provider\'s outcome (as in `providers[]`), the moment it finishes, in finish order, for every provider asked;\n' +
  '- `event: results`: `{results, done, total}`, the fused results of the page asked for so far, after each provider that changed them;\n' +
  '- `event: done`: exactly the answer GET /v1/search/{kind} gives for the same request; then the stream ends.\n' +
  'A cached answer streams just `done`. An identical stream (or plain search) arriving while one is in flight ' +
  'joins its fan-out: it is sent at once every `provider` event so far and the latest `results`, then the rest as ' +
  'it comes, and its own `done`. A stream arriving while only an identical plain search is in flight joins it the same ' +
  'way: it is sent at once a `provider` event for each provider that search has heard from and their `results`, then ' +
  'the rest as it comes, and its own `done`. A search that joined counts `took_ms` ' +
  "from the shared fan-out's start, as its providers' `latency_ms` count. A bad request is an ordinary 400 JSON " +
  'before any event; an unexpected failure after the stream opened is `event: error` with the usual error JSON. A comment line is sent every ' +
  'SEARCH_STREAM_HEARTBEAT_MS (15 s by default) so proxies keep the connection; closing it stops the providers ' +
  'still running, unless an identical search that joined them still waits.\n' +
  'The last event (`done` or `error`) carries `id: end`: an EventSource reconnecting after it sends `Last-Event-ID: end` ' +
  'and is answered 204, which stops it from searching again and again.';

const eventStream = {
  description: 'text/event-stream: `provider`, `results` and `done` events (see the description).',
  headers: { 'Cache-Control': { type: 'string', description: 'no-cache, no-transform: a proxy must neither keep nor rewrite the stream.' } },
  content: { 'text/event-stream': { schema: { type: 'string' } } },
} as const;

/** `type: 'null'` is how @fastify/swagger is told a response has no body: without it the 204 was documented as JSON. */
const reconnectedAfterEnd = {
  type: 'null',
  description: 'No content: the request carried `Last-Event-ID: end`, an EventSource reconnecting after its stream ended; it stops.',
} as const;

/**
 * The id of a stream's last event (`done` or `error`). An EventSource reconnects whenever a stream ends, a finished
 * one too, and searched again every few seconds for as long as its page stayed open; its reconnection sends this id
 * back as Last-Event-ID, and the 204 it is answered with is the HTML standard's way to make it stop.
 */
const STREAM_END_ID = 'end';

/** One SSE message; JSON.stringify never emits a raw newline, so `data` is always one line. */
function sseEvent(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

interface StreamContext {
  search: SearchService;
  heartbeatMs: number;
}

async function streamSearch({ search, heartbeatMs }: StreamContext, kind: SearchRouteKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.headers['last-event-id'] === STREAM_END_ID) {
    // The stream this client reconnects after had ended: nothing more to say, and no search to run again.
    void reply.code(204).send();
    return;
  }
  const input = request.query as SearchRouteInput;
  // Validation that needs the provider list throws here, so a bad request is a 400 before any event.
  const plan = planRouteSearch(search, kind, input);
  const receivedAt = arrivalOf(reply);
  const signal = clientGoneSignal(reply);
  const stream = new EventStream(reply);
  const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), heartbeatMs);
  const onProviderAnswer = providerEventWriter(stream, search, kind, plan.selected, input);
  try {
    const answer = await plan.run({ logger: request.log, onProviderAnswer, receivedAt, caller: clientKeyOf(request) }, signal);
    stream.write(sseEvent('done', answer, STREAM_END_ID));
  } catch (error) {
    if (!signal.aborted) stream.write(failureEvent(request, error));
  } finally {
    clearInterval(heartbeat);
    stream.end();
  }
}

/** The reply's body, sent as an event stream from the start: its headers go out, then a first comment. */
class EventStream {
  private readonly events = new PassThrough();

  constructor(reply: FastifyReply) {
    // The headers go out now, promising keep-alive; a shutdown that begins meanwhile must not wait on this socket.
    endConnectionAfterShutdown(reply.raw, reply.server.server);
    void reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      // no-transform: proxies must not compress or rewrite it; X-Accel-Buffering: nginx (CapRover) passes each event at once.
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      .send(this.events);
    this.write(': fedsearch search stream\n\n');
  }

  write(chunk: string): void {
    // Nothing more to say once the stream ended or the client went away (Fastify destroys it then).
    if (!this.events.writableEnded && !this.events.destroyed) this.events.write(chunk);
  }

  end(): void {
    this.events.end();
  }
}

/**
 * What writes each provider's `provider` event, and a `results` event whenever the results fused so far changed.
 * Fused in the order the providers were asked, as the finished search fuses them, not in finish order: ties between
 * results (and which provider's fields a merged result shows) break by it, so the last `results` event is the answer
 * `done` gives.
 */
function providerEventWriter(
  stream: EventStream,
  search: SearchService,
  kind: SearchRouteKind,
  selected: SearchPlan['selected'],
  input: SearchRouteInput,
): NonNullable<SearchRequest['onProviderAnswer']> {
  const total = selected.length;
  const slots = new Array<ProviderAnswer | undefined>(total);
  let shownResults = JSON.stringify([]);
  return (answer, kept, moreAtOnce) => {
    const slot = selected.indexOf(answer.provider);
    slots[slot < 0 ? slots.length : slot] = answer;
    stream.write(sseEvent('provider', answer.outcome));
    // A stream that joined an identical one in flight is told the answers it missed in one go: results fused
    // before the last of them would be replaced at once, so it gets each provider event, then the latest results.
    if (moreAtOnce) return;
    const answers = slots.filter((filled): filled is ProviderAnswer => filled !== undefined);
    const results = search.fuseAnswers(kind, answers, { limit: input.limit, page: input.page, explain: input.explain, kept });
    const serialised = JSON.stringify(results);
    if (serialised === shownResults) return;
    shownResults = serialised;
    stream.write(sseEvent('results', { results, done: answers.length, total }));
  };
}

/** A failure after the headers went: the stream's last event, shaped and hidden as the error handler would. */
function failureEvent(request: FastifyRequest, error: unknown): string {
  const known = error instanceof FedsearchError && error.code !== 'INTERNAL';
  const status = known ? error.httpStatus : 500;
  const code = known ? error.code : 'INTERNAL';
  logFailure(request.log, error instanceof Error ? error : new Error(String(error)), status, code, 'search stream failed');
  // The error handler's envelope, request id included: an EventSource cannot read the x-request-id header.
  const message = known ? error.message : `internal error; quote request id ${request.id} when reporting it`;
  return sseEvent('error', errorEnvelope(request, status, code, message), STREAM_END_ID);
}

/** `GET /v1/search/{kind}/stream`: the search routes' answer as Server-Sent Events, provider by provider. */
export function registerStreamRoutes(app: FastifyInstance, search: SearchService, config: AppConfig): void {
  const context: StreamContext = { search, heartbeatMs: config.SEARCH_STREAM_HEARTBEAT_MS };
  for (const kind of KINDS) {
    app.get(
      `/v1/search/${kind}/stream`,
      {
        // No HEAD: Fastify would answer it at once and drain the events into nothing, and with the answer written
        // the client's leaving no longer stops the search, so each HEAD (a monitor, a link checker, a proxy's probe)
        // ran every provider to its end. As /sse and GET /mcp, the stream is GET only: HEAD is a 405 naming GET.
        exposeHeadRoute: false,
        schema: {
          operationId: `search_${kind}_stream`,
          tags: ['search'],
          summary: `Search ${kind === 'web' ? 'the web' : 'scholarly papers'} across providers, streamed as each provider answers (SSE)`,
          description: DESCRIPTION,
          querystring: documented(searchQuerystrings[kind], QUERY_STRING),
          // Refused before any event as the search routes are (400, no key, a Host not admitted, rate limit, load shed).
          response: { 200: eventStream, 204: reconnectedAfterEnd, ...errorResponses(400, 401, 403, 429, 500, 503) },
        },
      },
      async (request, reply) => {
        await streamSearch(context, kind, request, reply);
        return reply;
      },
    );
  }
}
