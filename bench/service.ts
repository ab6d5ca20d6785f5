import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { serveAsChild } from './child-process.js';

/** The real service, built as server.ts builds it, in its own process; the parent hands it the whole environment. */
serveAsChild<Record<string, string>, { origin: string }>(async (env) => {
  const app = await buildApp(loadConfig(env));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { payload: { origin: `http://127.0.0.1:${port}` }, teardown: () => app.close() };
});
