import type { FastifyInstance } from 'fastify';
import { UNMATCHED_ROUTE } from '../observability/request-observation.js';
import { pathOf } from './url-path.js';

/** A route's pattern with its parameters put in: `/docs/*` with `{ '*': 'index.html' }` is `/docs/index.html`. */
function spelled(pattern: string, params: Record<string, string | undefined>): string {
  return pattern.replace(/:([^/.-]+)|\*/g, (whole, name: string | undefined) => params[name ?? '*'] ?? whole);
}

/**
 * The route pattern a method and target would be routed to, for an answer Node writes before Fastify makes a request
 * (requests-node-answers.ts), so it is counted under the route the app counts that path's other answers under, not
 * `unmatched`. Fastify's findRoute says whether a route matches and with which parameters, but not its pattern: the
 * patterns are gathered as routes are added (onRoute, at start-up), and the one the parameters spell the path with is
 * the route. Only refusals Node answers itself call it: nothing is added to a request's own path. Make it before any
 * route is added.
 */
export function routePatterns(app: FastifyInstance): (method: string, target: string) => string {
  const byMethod = new Map<string, string[]>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const patterns = byMethod.get(method);
      if (patterns) patterns.push(route.url);
      else byMethod.set(method, [route.url]);
    }
  });
  return (method, target) => {
    const found = app.findRoute({ method, url: target });
    if (found === null) return UNMATCHED_ROUTE;
    let path: string;
    try {
      // The parameters come decoded; a path whose escapes do not decode has no route to name.
      path = decodeURIComponent(pathOf(target));
    } catch {
      return UNMATCHED_ROUTE;
    }
    return byMethod.get(method)?.find((pattern) => spelled(pattern, found.params) === path) ?? UNMATCHED_ROUTE;
  };
}
