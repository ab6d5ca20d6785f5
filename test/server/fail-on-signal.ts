/**
 * Preloaded into the server process by uncaught-errors.test.ts: on SIGUSR2 it fails the way FAIL_WITH says, outside
 * any request, as a bug in a timer or an event handler would. A signal, so the test picks the moment (once the
 * server listens) without waiting on a clock. The message quotes a URL with the configured Brave key in it.
 */
const failure = (): Error => new Error(`upstream call to https://upstream.example/search?api_key=${process.env.BRAVE_API_KEY ?? ''} went wrong`);

process.on('SIGUSR2', () => {
  if (process.env.FAIL_WITH === 'rejection') void Promise.reject(failure());
  else throw failure();
});
