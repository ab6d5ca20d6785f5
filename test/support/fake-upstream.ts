import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** What the fake upstream does for one route. */
export type Behaviour =
  | { kind: 'respond'; status?: number; headers?: Record<string, string>; body: string; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'truncate'; body: string; headers?: Record<string, string> }
  | { kind: 'handler'; handle: (request: RecordedRequest, response: ServerResponse) => void };

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A real HTTP server on 127.0.0.1 that plays upstream providers: each route (method + path, query ignored)
 * answers with a recorded body, hangs, resets the connection or cuts the body short. Requests are recorded.
 */
export class FakeUpstream {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, Behaviour>();
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();
  /** Resolves when a request reaches a hanging route's connection close (the client aborted). */
  readonly abortedPaths: string[] = [];

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.keepAliveTimeout = 1000;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get origin(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Route key: "GET /path", "/path" for any method, "/prefix/*" for a subtree, or "*" for every path not otherwise routed. */
  on(route: string, behaviour: Behaviour): this {
    this.routes.set(route, behaviour);
    return this;
  }

  json(route: string, body: unknown, status = 200, headers: Record<string, string> = {}): this {
    return this.on(route, {
      kind: 'respond',
      status,
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** "/prefix/*" routes answer every path below the prefix (the longest prefix wins). */
  private prefixRoute(path: string): Behaviour | undefined {
    const matches = [...this.routes.keys()].filter((key) => key.endsWith('/*') && path.startsWith(key.slice(0, -1)));
    const longest = matches.sort((a, b) => b.length - a.length)[0];
    return longest ? this.routes.get(longest) : undefined;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      url,
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.requests.push(recorded);
    const behaviour =
      this.routes.get(`${recorded.method} ${recorded.path}`) ?? this.routes.get(recorded.path) ?? this.prefixRoute(recorded.path) ?? this.routes.get('*');
    if (!behaviour) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no such route in the fake upstream');
      return;
    }
    switch (behaviour.kind) {
      case 'respond': {
        if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
        response.writeHead(behaviour.status ?? 200, behaviour.headers).end(behaviour.body);
        return;
      }
      case 'hang':
        this.hanging.add(response);
        response.on('close', () => {
          this.hanging.delete(response);
          this.abortedPaths.push(recorded.path);
        });
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'truncate': {
        // Promise the whole body, send half, then cut the connection.
        const half = behaviour.body.slice(0, Math.floor(behaviour.body.length / 2));
        response.writeHead(200, { 'content-length': String(Buffer.byteLength(behaviour.body)), ...behaviour.headers });
        response.write(half, () => request.socket.destroy());
        return;
      }
      case 'handler':
        behaviour.handle(recorded, response);
        return;
    }
  }
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  return new FakeUpstream().start();
}

/**
 * A fake upstream for the enclosing describe block: started before its tests, stopped after them. Its origin
 * is known once the tests run, not while they are being declared.
 */
export function useFakeUpstream(): FakeUpstream {
  const upstream = new FakeUpstream();
  beforeAll(async () => {
    await upstream.start();
  });
  afterAll(() => upstream.stop());
  return upstream;
}
