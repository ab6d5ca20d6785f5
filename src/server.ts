import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { unreadVariableMessage } from './config/unread-variables.js';
import { listeningAddress, startupSummary } from './startup-summary.js';
import { exitOnUncaughtErrors } from './uncaught-errors.js';

/**
 * Listens, and on SIGTERM / SIGINT closes with grace: readiness turns false, no new connections are
 * accepted, REST requests and MCP calls in flight finish and deliver their answers (for at most
 * SHUTDOWN_GRACE_MS; provider calls still running shortly before it ends are cut short, shutdown-cut.ts, so a
 * search answers with what it has), MCP sessions close, then exit 0. The default grace stays under the 10 s that
 * `docker stop` waits before SIGKILL. A second signal while closing (an operator's second Ctrl-C) ends the process
 * at once, with 128 + the signal's number, as a shell reports a process a signal ended: without it, the only way
 * out of a long SHUTDOWN_GRACE_MS was kill -9. An error nothing caught is logged as JSON, then exit 1
 * (uncaught-errors.ts). Once listening, one line says what runs (startup-summary.ts), after a warning for each
 * variable that looks like ours but is not read (config/unread-variables.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  exitOnUncaughtErrors(app.log);
  for (const unread of config.unreadVariables) app.log.warn({ variable: unread.name, nearest: unread.nearest }, unreadVariableMessage(unread));
  let closing = false;
  const close = (signal: NodeJS.Signals): void => {
    if (closing) {
      app.log.warn({ signal }, 'second signal while shutting down; exiting now, requests still open are cut');
      process.exit(128 + constants.signals[signal]);
    }
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
  // `on`, not `once`: the second signal comes here too, to be logged, not to Node's default, which ends the
  // process without a word.
  process.on('SIGTERM', () => close('SIGTERM'));
  process.on('SIGINT', () => close('SIGINT'));
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    throw new Error(listenFailure(error, config.HOST, config.PORT), { cause: error });
  }
  // Listening on a TCP port (never a pipe), so the address is an AddressInfo.
  const summary = startupSummary(config, app.searchService.providers, listeningAddress(app.server.address() as AddressInfo));
  app.log.info({ configuration: summary.configuration }, summary.message);
}

/** Why listening failed, naming the variable to change rather than a bare ENOTFOUND or EADDRINUSE. */
function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot listen: HOST=${host} does not resolve to an address of this machine (${code}); use an IP address such as 0.0.0.0 or 127.0.0.1`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen: HOST=${host} is not an address of this machine (EADDRNOTAVAIL); use 0.0.0.0 for every interface`;
    case 'EADDRINUSE':
      return `Cannot listen: PORT=${port} is already in use on ${host} (EADDRINUSE); choose another PORT`;
    case 'EACCES':
      return `Cannot listen: PORT=${port} needs privileges this process lacks (EACCES); use a PORT above 1023`;
    default:
      return `Cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
