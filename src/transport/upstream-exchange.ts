import type { Dispatcher } from 'undici';
import { listenForAbort, stopListeningForAbort } from './abort-watch.js';

/** One request to an upstream API, as the transport sends it. */
export interface Exchange {
  url: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** What came back: status, undici's lower-cased headers, and the whole body (never more than the cap). */
export interface ExchangeResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface ExchangeErrors {
  /** The error for a body past the cap; the request is aborted there and the rest is dropped. */
  tooLarge(): Error;
  /** What a connection failure (refused, reset, a socket error) of a request to `url` under `signal` becomes. */
  failed(error: unknown, signal: AbortSignal, url: string): unknown;
}

/** `https://host:port/path?query` split where undici wants it, without a URL parser for the usual shape. */
function originAndPath(url: string): { origin: string; path: string } {
  const authorityStart = url.indexOf('//') + 2;
  const pathStart = url.indexOf('/', authorityStart);
  const authority = url.slice(authorityStart, pathStart === -1 ? undefined : pathStart);
  // User info, or a query or fragment straight after the host: rare, so left to the parser.
  if (authorityStart === 1 || pathStart === -1 || /[@?#]/.test(authority)) {
    const parsed = new URL(url);
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }
  const fragment = url.indexOf('#', pathStart);
  return { origin: url.slice(0, pathStart), path: fragment === -1 ? url.slice(pathStart) : url.slice(pathStart, fragment) };
}

/**
 * Sends one request through the dispatcher's handler interface and collects the body as it arrives, up to
 * `maxBytes`. This is what undici's `request()` + reading its body stream does, without the stream: no
 * Readable, no async iterator, no promise per chunk, for the thousands of small JSON answers a busy replica
 * reads each second. The signal aborts the request at any stage; its reason is what the promise rejects with.
 * The promise holds what `read` makes of the result (or rejects with what it throws): the caller's reading
 * is part of the exchange, not a step chained after it.
 */
export function exchange<T>(
  dispatcher: Dispatcher,
  request: Exchange,
  signal: AbortSignal,
  maxBytes: number,
  errors: ExchangeErrors,
  read: (result: ExchangeResult) => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const handler = new ExchangeHandler(resolve, reject, signal, maxBytes, errors, request.url, read);
    listenForAbort(signal, handler);
    const { origin, path } = originAndPath(request.url);
    try {
      dispatcher.dispatch({ origin, path, method: request.method, headers: request.headers, body: request.body ?? null }, handler);
    } catch (error) {
      handler.settle();
      reject(errors.failed(error, signal, request.url));
    }
  });
}

/** What a finished exchange's handler is left holding instead of its answer's headers (see onResponseEnd). */
const NO_HEADERS: ExchangeResult['headers'] = Object.freeze({});

/**
 * One exchange's state, its undici handler and its abort listener in one object: what a request in flight
 * keeps is this and the promise, not a closure per callback (thousands of requests wait at once on a busy replica).
 */
class ExchangeHandler<T> implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: ExchangeResult['headers'] = {};
  private chunks: Buffer[] = [];
  private size = 0;
  private failure: Error | undefined;

  constructor(
    private readonly resolve: (value: T) => void,
    private readonly reject: (reason: unknown) => void,
    private readonly signal: AbortSignal,
    private readonly maxBytes: number,
    private readonly errors: ExchangeErrors,
    private readonly url: string,
    private readonly read: (result: ExchangeResult) => T,
  ) {}

  /** The signal's abort (this object is its listener: transport/abort-watch.ts). */
  handleEvent(): void {
    if (this.controller) {
      this.controller.abort(this.signal.reason);
      return;
    }
    // Not written yet (undici is still connecting, or the request waits for a free connection): undici hands
    // over its controller only when it writes the request, so until then it cannot hear of the abort. The
    // exchange ends now, as the caller was told; the request is dropped as soon as undici starts it.
    this.settle();
    this.reject(this.signal.reason);
  }

  settle(): void {
    stopListeningForAbort(this.signal, this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: ExchangeResult['headers']): void {
    // A 1xx answer comes before the real one: start over with the final status and headers.
    this.status = statusCode;
    this.headers = headers;
    this.chunks = [];
    this.size = 0;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.failure = this.errors.tooLarge();
      controller.abort(this.failure);
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.settle();
    const { chunks, headers } = this;
    // Made when the request left, this handler is old by now on a busy replica, and an old object keeps what it
    // points to through every young collection until the next full one, long after it is itself garbage.
    this.chunks = [];
    this.headers = NO_HEADERS;
    let value: T;
    try {
      value = this.read({ status: this.status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size) });
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve(value);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle();
    if (this.failure) this.reject(this.failure);
    else if (this.signal.aborted) this.reject(this.signal.reason);
    else this.reject(this.errors.failed(error, this.signal, this.url));
  }
}
