import type { Dispatcher } from 'undici';

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
 */
export function exchange(dispatcher: Dispatcher, request: Exchange, signal: AbortSignal, maxBytes: number, errors: ExchangeErrors): Promise<ExchangeResult> {
  return new Promise<ExchangeResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: ExchangeResult['headers'] = {};
    let chunks: Buffer[] = [];
    let size = 0;
    let failure: Error | undefined;
    const onAbort = (): void => controller?.abort(signal.reason);
    const settle = (): void => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    const { origin, path } = originAndPath(request.url);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal.aborted) started.abort(signal.reason);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // A 1xx answer comes before the real one: start over with the final status and headers.
        status = statusCode;
        headers = responseHeaders;
        chunks = [];
        size = 0;
      },
      onResponseData(current, chunk) {
        size += chunk.length;
        if (size > maxBytes) {
          failure = errors.tooLarge();
          current.abort(failure);
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle();
        resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
      },
      onResponseError(_controller, error) {
        settle();
        if (failure) reject(failure);
        else if (signal.aborted) reject(signal.reason);
        else reject(errors.failed(error, signal, request.url));
      },
    };
    try {
      dispatcher.dispatch({ origin, path, method: request.method, headers: request.headers, body: request.body ?? null }, handler);
    } catch (error) {
      settle();
      reject(errors.failed(error, signal, request.url));
    }
  });
}
