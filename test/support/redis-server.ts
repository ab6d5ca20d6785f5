import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { describe, it } from 'vitest';

const BINARY = process.env.REDIS_SERVER_BIN ?? 'redis-server';
/** How long a fresh redis-server may take to answer PING before the test gives up. */
const START_DEADLINE_MS = 10_000;

export interface RedisServer {
  port: number;
  url: string;
  /** SIGKILL: the outage a crash or a lost node looks like to clients. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for the process to exit. */
  stop(): Promise<void>;
  /** SIGSTOP: a Redis that stalls, its connections open and nothing answered, until resume(). */
  stall(): void;
  /** SIGCONT: a stalled Redis answers again (what it was sent meanwhile first). Harmless when it is not stalled. */
  resume(): void;
}

/** True when `redis-server` can be run here (Debian's package, installed by .ci/run). */
export function redisServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 && /Redis server/i.test(probe.stdout);
}

/** A TCP port nobody listens on right now (the OS picks it; the window before redis takes it is tiny). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a throwaway redis-server on 127.0.0.1 (no persistence) and resolves once it answers PING.
 * Give `port` to bring a killed server back where its clients expect it, `password` to refuse clients that do not
 * send it (`--requirepass`, as CapRover's one-click Redis app runs it); `url` never carries the password.
 */
export async function startRedisServer(options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const passwordArguments = options.password === undefined ? [] : ['--requirepass', options.password];
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...passwordArguments], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    process.off('exit', killOnExit);
    // A stopped process keeps SIGTERM pending until it is continued.
    if (running()) child.kill('SIGCONT');
    if (running()) child.kill(signal);
    await exited;
  };

  try {
    await waitForPing(port, child, () => output, options.password);
  } catch (error) {
    await end('SIGKILL');
    throw error;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    stall: () => void (running() && child.kill('SIGSTOP')),
    resume: () => void (running() && child.kill('SIGCONT')),
  };
}

/** Bounded retry: connect, send PING, expect +PONG; fails early if the process died. */
async function waitForPing(port: number, child: ChildProcess, output: () => string, password?: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  for (let attempt = 1; ; attempt += 1) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited before answering PING on port ${port}:\n${output()}`);
    }
    if (await ping(port, password)) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on port ${port} within ${START_DEADLINE_MS} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(10 * attempt, 200)));
  }
}

/** PING (after AUTH when a password is given: without it the server answers -NOAUTH); true on +PONG. */
function ping(port: number, password?: string): Promise<boolean> {
  const commands = password === undefined ? ['PING'] : [`AUTH ${password}`, 'PING'];
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write(commands.map((command) => `${command}\r\n`).join('')));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      const lines = reply.split('\r\n').slice(0, -1);
      if (lines.length >= commands.length) finish(lines[commands.length - 1]!.startsWith('+PONG'));
    });
  });
}

/**
 * Declares a suite that needs a real redis-server. Where the binary is missing it fails with a clear message
 * under CI (CI=true: .ci/run should have installed it) and is skipped with a visible reason elsewhere.
 */
export function describeWithRedis(name: string, define: () => void): void {
  if (redisServerAvailable()) {
    describe(name, define);
    return;
  }
  const reason = `${BINARY} not found: install Debian's redis-server (apt-get install -y redis-server) or set REDIS_SERVER_BIN`;
  describe(name, () => {
    if (process.env.CI === 'true') {
      it('needs redis-server', () => {
        throw new Error(`${reason}; CI must run these tests`);
      });
    } else {
      it.skip(`skipped: ${reason}`, () => undefined);
    }
  });
}

/**
 * Resolves once Redis holds at least `count` connections besides `own`'s, none of them still before its client's
 * ready check (every one has sent a command: ioredis's INFO). A replica's commands fail fast until its client is
 * ready, so a write made on a connection Redis has only accepted is skipped, and a test waiting for that write waits
 * forever: counting the connections Redis accepted is not enough.
 */
export async function replicasConnected(own: Redis, count: number): Promise<void> {
  const ownId = String(await own.client('ID'));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const others = String(await own.client('LIST'))
      .split('\n')
      .filter((line) => line.startsWith('id=') && !line.startsWith(`id=${ownId} `));
    if (others.length >= count && others.every((line) => !/ cmd=NULL /.test(line))) return;
    if (Date.now() > deadline) throw new Error(`Redis does not hold ${count} ready connections besides the test's within 10 s:\n${others.join('\n')}`);
  }
}
