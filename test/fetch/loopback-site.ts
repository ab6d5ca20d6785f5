import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 serving fixed routes; it records every path asked for. */
export class LoopbackSite {
  readonly requestedPaths: string[] = [];
  private readonly routes = new Map<string, Handler>();
  private readonly server: Server = createServer((request, response) => this.handle(request, response));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  on(path: string, handle: Handler): this {
    this.routes.set(path, handle);
    return this;
  }

  serve(path: string, contentType: string | undefined, body: string | Buffer): this {
    return this.on(path, (_request, response) => {
      const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) };
      if (contentType) headers['content-type'] = contentType;
      response.writeHead(200, headers).end(body);
    });
  }

  redirect(path: string, location: string, status = 302): this {
    return this.on(path, (_request, response) => response.writeHead(status, { location }).end());
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
    this.requestedPaths.push(path);
    const handler = this.routes.get(path);
    if (handler) handler(request, response);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}
