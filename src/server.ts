import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * Listens, and on SIGTERM / SIGINT closes with grace: readiness turns false, no new connections are
 * accepted, in-flight searches finish (for at most SHUTDOWN_GRACE_MS), MCP sessions close, then exit 0.
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
