import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * Listens, and on SIGTERM / SIGINT closes with grace: readiness turns false, no new connections are
 * accepted, REST requests and MCP calls in flight finish and deliver their answers (for at most
 * SHUTDOWN_GRACE_MS), MCP sessions close, then exit 0. The default grace stays under the 10 s that
 * `docker stop` waits before SIGKILL.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const close = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.warn('grace period over; exiting with requests still open');
      process.exit(0);
    }, config.SHUTDOWN_GRACE_MS);
    deadline.unref();
    app.close().then(
      () => {
        app.log.info('closed');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => close('SIGTERM'));
  process.once('SIGINT', () => close('SIGINT'));
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
