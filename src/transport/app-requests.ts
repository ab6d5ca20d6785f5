import type { IncomingMessage } from 'node:http';

/**
 * What the app knows of a request it was handed (Fastify's request satisfies it): the id it gave it, and the pattern of
 * the route it matched (none when no route did).
 */
export interface AppRequest {
  readonly id: string;
  readonly routeOptions: { readonly url?: string };
}

/** Where the app's request is kept on Node's own request object. */
const APP_REQUEST = Symbol('fedsearch.appRequest');

type HeldRequest = IncomingMessage & { [APP_REQUEST]?: AppRequest };

/**
 * Keeps the app's request on Node's request object. A request may be answered past the app (its body came too late, or
 * the service began to shut down while it arrived: http/client-error.ts), from a socket where no Fastify request can be
 * found: its caller's X-Request-Id then matched none of the app's lines for it, and it was counted under fixed labels
 * though its method and route were known. One property written on an object that exists anyway, the same one on every
 * request: no allocation, no hook.
 */
export function rememberAppRequest(request: IncomingMessage, appRequest: AppRequest): void {
  (request as HeldRequest)[APP_REQUEST] = appRequest;
}

/** The app's request for this one, if it was handed to the app. */
export function appRequestOf(request: IncomingMessage): AppRequest | undefined {
  return (request as HeldRequest)[APP_REQUEST];
}
