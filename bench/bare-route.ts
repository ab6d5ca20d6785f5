import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { serveAsChild } from './child-process.js';

/**
 * The reference for cached answers: a bare Fastify app (no plugins, no hooks, no logger) whose one route
 * returns a stored search answer, serialised on every request as Fastify does by default.
 */
serveAsChild<{ path: string; answer: unknown }, { origin: string }>(async ({ path, answer }) => {
  const app = Fastify();
  app.get(path, async () => answer);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { payload: { origin: `http://127.0.0.1:${port}` }, teardown: () => app.close() };
});
