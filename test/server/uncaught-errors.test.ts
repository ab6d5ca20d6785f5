import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServer } from './server-process.js';

const FAIL_ON_SIGNAL = fileURLToPath(new URL('./fail-on-signal.ts', import.meta.url));
const BRAVE_KEY = 'test-key-uncaught-0123456789';

interface LogLine {
  level: number;
  msg: string;
  origin?: string;
  err?: { type: string; message: string; stack: string };
}

function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

// Concurrent: each test is a server process of its own (no port, file or variable shared) that asserts on its output
// and exit code alone, never on time, and most of its time is that process loading its modules: one after the other,
// the second core stood idle while the worker waited.
describe.concurrent('an error nothing caught', () => {
  it.each([
    { failWith: 'exception', origin: 'uncaughtException', message: 'uncaught exception; exiting' },
    { failWith: 'rejection', origin: 'unhandledRejection', message: 'unhandled promise rejection; exiting' },
  ])('($failWith) is logged as one JSON line at fatal, its key redacted, then the process exits 1', async ({ failWith, origin, message }) => {
    const server = await startServer({ BRAVE_API_KEY: BRAVE_KEY, FAIL_WITH: failWith }, { preload: FAIL_ON_SIGNAL });
    try {
      server.child.kill('SIGUSR2');
      expect(await server.exited).toBe(1);
      const output = server.output.join('');
      const fatal = logLines(output).filter((line) => line.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ msg: message, origin, err: { type: 'Error' } });
      expect(fatal[0]!.err!.message).toBe('upstream call to https://upstream.example/search?api_key=[redacted] went wrong');
      expect(fatal[0]!.err!.stack).toContain('fail-on-signal.ts');
      // Nothing of the error is left outside the JSON line (a bare stack on stderr), nor the key anywhere.
      expect(output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'))).toEqual([]);
      expect(output).not.toContain(BRAVE_KEY);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
