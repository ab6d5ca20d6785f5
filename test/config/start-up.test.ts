import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Runs the real server with only the given variables (plus PATH) until it listens or exits. Node itself runs it, with
 * tsx as a loader (as test/server/server-process.ts does), not the tsx CLI: that is a second process to start, and it
 * relays SIGTERM by waiting 30 ms for the server to say it got it, then SIGKILL and an exit with 143, which a busy
 * machine now and then reported instead of the server's own shutdown and its 0.
 */
async function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'server.ts')], {
    cwd: root,
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

// Concurrent: each test is a server process of its own (no port, file or variable shared), and most of a test's
// time is that process loading its modules. Run one after another, the dozen of them left the second core idle
// and the worker waiting.
describe.concurrent('server start-up', () => {
  it('starts with no variables besides where to listen', async () => {
    const { code, output } = await runServer({});
    expect(output).toContain('Server listening at http://127.0.0.1:');
    expect(code).toBe(0);
  });

  /** The JSON log line whose message starts with `start`; fails the test when there is none. */
  function logLine(output: string, start: string): { level: number; msg: string; [field: string]: unknown } {
    const line = output
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as { level: number; msg: string })
      .find((entry) => entry.msg.startsWith(start));
    if (!line) throw new Error(`no line starting ${JSON.stringify(start)} in:\n${output}`);
    return line;
  }

  it('says in one line, once listening, which providers are on and why the others are off, MCP, Redis and the cache', async () => {
    const { code, output } = await runServer({ BRAVE_API_KEY: 'brave-key-for-the-summary', HACKERNEWS_WEIGHT: '0', CACHE_TTL_SECONDS: '120', MCP_STATELESS: 'true' });
    expect(code).toBe(0);
    const line = logLine(output, 'fedsearch listening on http://127.0.0.1:');
    expect(line.level).toBe(30);
    const configuration = line.configuration as { providers: { on: string[]; off: Record<string, string> }; mcp: string; redis: string; cacheTtlSeconds: number; apiKeys: number };
    expect(configuration.providers.on).toEqual(expect.arrayContaining(['local', 'brave', 'wikipedia']));
    expect(configuration.providers.off).toMatchObject({ tavily: 'TAVILY_API_KEY not set', searxng: 'SEARXNG_URL not set', hackernews: 'turned off: HACKERNEWS_WEIGHT=0' });
    expect(configuration.providers.on).not.toContain('hackernews');
    expect(configuration).toMatchObject({ redis: expect.stringMatching(/^none/), cacheTtlSeconds: 120, apiKeys: 0 });
    expect(configuration.mcp).toMatch(/^on .*stateless/);
    expect(line.msg).toContain('tavily (TAVILY_API_KEY not set)');
    expect(line.msg).toContain('answer cache 120 s');
    expect(output).not.toContain('brave-key-for-the-summary');
  });

  // The Docker image's HOST: a line naming loopback there told the operator that no other machine could reach a
  // service every network could (Fastify's listen() names the first interface it finds).
  it('names, in that line, the address it is bound to: every interface under HOST=0.0.0.0, as README.md shows', async () => {
    const { code, output } = await runServer({ HOST: '0.0.0.0' });
    expect(code).toBe(0);
    const line = logLine(output, 'fedsearch listening on');
    expect(line.msg).toMatch(/^fedsearch listening on http:\/\/0\.0\.0\.0:\d+;/);
    expect((line.configuration as { address: string }).address).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
  });

  it("names Redis in that line by its address alone, never its password, and MCP as off when it is", async () => {
    const { code, output } = await runServer({ REDIS_URL: `redis://:summary-secret-password@127.0.0.1:${await closedPort()}/2`, MCP_ENABLED: 'false' });
    expect(code).toBe(0);
    const configuration = logLine(output, 'fedsearch listening on').configuration as { redis: string; mcp: string };
    expect(configuration.redis).toMatch(/^redis:\/\/127\.0\.0\.1:\d+\/2$/);
    expect(configuration.mcp).toMatch(/^off/);
    expect(output).not.toContain('summary-secret-password');
  });

  it('warns of a variable that looks like ours but is not read, naming the one it most likely meant and never its value', async () => {
    const { code, output } = await runServer({ BRAVE_APIKEY: 'typo-key-value-1234', CACHE_TTL: '60' });
    expect(code).toBe(0);
    const brave = logLine(output, 'BRAVE_APIKEY is set but fedsearch does not read it');
    expect(brave).toMatchObject({ level: 40, variable: 'BRAVE_APIKEY', nearest: 'BRAVE_API_KEY' });
    expect(brave.msg).toContain('did you mean BRAVE_API_KEY?');
    expect(logLine(output, 'CACHE_TTL is set')).toMatchObject({ level: 40, nearest: 'CACHE_TTL_SECONDS' });
    expect(output).not.toContain('typo-key-value-1234');
  });

  it.each([
    [{ FETCH_MAX_BYTES: 'abc' }, 'FETCH_MAX_BYTES: expected a whole number'],
    [{ API_KEYS_FILE: '/nonexistent/keys.txt' }, 'API_KEYS_FILE: expected a readable file of keys, cannot read /nonexistent/keys.txt'],
    [{ HOST: '999.1.1.1' }, 'HOST: expected an IPv4 address'],
    // As `docker run --env-file` passes `BRAVE_API_KEY="…"` on: the quotes are part of the value.
    [{ BRAVE_API_KEY: '"BSAh3x9QZ0k4abCD12ef"' }, 'BRAVE_API_KEY: starts and ends with a quote'],
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

  // Sequential: temporaryDirectory() removes its folder in the global onTestFinished, which Vitest does not tie to
  // the right test among several running at once.
  it.sequential('refuses a PROVIDERS_FILE entry that uses no known definition, naming the file and the entry', async () => {
    const file = path.join(temporaryDirectory('fedsearch-start-up-'), 'providers.yaml');
    writeFileSync(file, 'providers:\n  - name: searx-a\n    use: searxng\n    base_url: http://127.0.0.1:9/\n  - name: odd\n    use: nosuchprovider\n');
    const { code, output } = await runServer({ PROVIDERS_FILE: file });
    expect(code).not.toBe(0);
    expect(output).toContain(`Invalid configuration: PROVIDERS_FILE: ${file}: providers[1] "odd" (line 5): use: expected one of`);
    expect(output).toContain('got "nosuchprovider"');
    expect(output).not.toContain('Server listening');
  });
});
