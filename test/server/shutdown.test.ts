import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv } from '../support/service.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** Starts the real server process and resolves with its port once it logs that it listens. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; origin: string; output: string[] }> {
  const child = spawn(tsx, [path.join(root, 'src', 'server.ts')], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const origin = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${output.join('')}`)));
  });
  return { child, origin, output };
}

describe('graceful shutdown', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it('lets an in-flight search finish on SIGTERM, then exits 0', async () => {
    upstream.on('/brave/res/v1/web/search', {
      kind: 'respond',
      delayMs: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ web: { results: [{ title: 'Finished', url: 'https://done.example/' }] } }),
    });
    const { child, origin } = await startServer({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'k-123456', SHUTDOWN_GRACE_MS: '10000' });
    const exited = once(child, 'exit');
    const pending = fetch(`${origin}/v1/search/web?q=slow&providers=brave`).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { results: Array<{ url: string }> },
    }));
    await expect.poll(() => upstream.requestsTo('/brave/res/v1/web/search').length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.url)).toEqual(['https://done.example/']);
    const [code] = await exited;
    expect(code).toBe(0);
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow();
  });

  it('exits 0 when the grace period ends with a request still hanging', async () => {
    upstream.on('/brave/res/v1/web/search', { kind: 'hang' });
    const { child, origin } = await startServer({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'k-123456',
      BRAVE_TIMEOUT_MS: '60000',
      SHUTDOWN_GRACE_MS: '300',
    });
    const exited = once(child, 'exit');
    const pending = fetch(`${origin}/v1/search/web?q=hang&providers=brave&timeout_ms=30000`).catch((error: unknown) => error);
    await expect.poll(() => upstream.requestsTo('/brave/res/v1/web/search').filter((r) => r.url.searchParams.get('q') === 'hang').length).toBe(1);
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(await pending).toBeInstanceOf(Error);
  });
});
