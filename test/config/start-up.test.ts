import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/temporary-directory.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** Runs the real server with only the given variables (plus PATH) until it listens or exits. */
async function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(tsx, [path.join(root, 'src', 'server.ts')], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopping = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // Listening means the configuration was accepted: stop it (once), the test only asks whether it starts.
    if (!stopping && output.includes('Server listening at')) {
      stopping = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

describe('server start-up', () => {
  it('starts with no variables besides where to listen', async () => {
    const { code, output } = await runServer({});
    expect(output).toContain('Server listening at http://127.0.0.1:');
    expect(code).toBe(0);
  });

  it.each([
    [{ FETCH_MAX_BYTES: 'abc' }, 'FETCH_MAX_BYTES: expected a whole number'],
    [{ API_KEYS_FILE: '/nonexistent/keys.txt' }, 'API_KEYS_FILE: expected a readable file of keys, cannot read /nonexistent/keys.txt'],
    [{ HOST: '999.1.1.1' }, 'HOST: expected an IPv4 address'],
  ])('refuses %j, exiting non-zero with the variable named', async (env, expected) => {
    const { code, output } = await runServer(env);
    expect(code).not.toBe(0);
    expect(output).toContain('Invalid configuration: ');
    expect(output).toContain(expected);
    expect(output).not.toContain('Server listening');
  });

  it('names HOST when the host name does not resolve, instead of a bare ENOTFOUND', async () => {
    const { code, output } = await runServer({ HOST: 'nosuch.invalid' });
    expect(code).not.toBe(0);
    expect(output).toContain('Cannot listen: HOST=nosuch.invalid does not resolve');
  });

  it('names PORT when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, output } = await runServer({ PORT: String(port) });
      expect(code).not.toBe(0);
      expect(output).toContain(`Cannot listen: PORT=${port} is already in use`);
    } finally {
      taken.close();
    }
  });

  // Audit 6: ioredis percent-decodes a URL's password as the app is built, and a bare `%` ended start-up with
  // "URI malformed" alone.
  it('names REDIS_URL when its password holds a bare %, without showing the password', async () => {
    const { code, output } = await runServer({ REDIS_URL: 'redis://:pass%zz-secret@127.0.0.1:9' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration: REDIS_URL: expected an absolute redis or rediss URL');
    expect(output).not.toContain('zz-secret');
    expect(output).not.toContain('Server listening');
  });

  it('refuses a PROVIDERS_FILE entry that uses no known definition, naming the file and the entry', async () => {
    const file = path.join(temporaryDirectory('fedsearch-start-up-'), 'providers.yaml');
    writeFileSync(file, 'providers:\n  - name: searx-a\n    use: searxng\n    base_url: http://127.0.0.1:9/\n  - name: odd\n    use: nosuchprovider\n');
    const { code, output } = await runServer({ PROVIDERS_FILE: file });
    expect(code).not.toBe(0);
    expect(output).toContain(`Invalid configuration: PROVIDERS_FILE: ${file}: providers[1] "odd" (line 5): use: expected one of`);
    expect(output).toContain('got "nosuchprovider"');
    expect(output).not.toContain('Server listening');
  });
});
