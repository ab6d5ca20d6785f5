/** A request target's path: what comes before its query string, as Fastify routes it (`/mcp?x=1` is `/mcp`). */
export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
}
