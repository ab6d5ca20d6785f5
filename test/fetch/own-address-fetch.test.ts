import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Whether this machine lets the test make a network namespace of its own (unshare -rn: a user namespace, so no root is
 * needed where unprivileged user namespaces are allowed) and put an address on its loopback interface there.
 */
const namespaces = spawnSync('unshare', ['-rn', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' }).status === 0;

interface ScenarioResult {
  port: number;
  answers: Array<{ status: number; code?: string; message?: string }>;
  received: string[];
}

/** own-address-scenario.ts, run with node and tsx in a fresh network namespace where 93.184.216.34 is this machine's. */
async function runScenario(mode: 'production' | 'allow-private'): Promise<ScenarioResult> {
  const script = 'ip link set lo up && ip addr add 93.184.216.34/32 dev lo && exec "$0" --import tsx test/fetch/own-address-scenario.ts "$1"';
  const child = spawn('unshare', ['-rn', 'sh', '-c', script, process.execPath, mode], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect({ code, errors }).toEqual({ code: 0, errors: '' });
  return JSON.parse(output) as ScenarioResult;
}

/**
 * A public address assigned to this machine (a VPS's, a bare-metal host's) passes every range rule, yet a fetch of it
 * never leaves the machine: it reaches whatever listens on all interfaces here, over the loopback interface that host
 * firewalls let through whole. Run for real: the service and a server on 0.0.0.0 in a namespace holding that address.
 */
describe.skipIf(!namespaces)("fetch_url and this machine's own public address", () => {
  it('reaches the server when FETCH_ALLOW_PRIVATE admits it: the address is this machine', async () => {
    const result = await runScenario('allow-private');
    expect(result.answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(result.received).toEqual(['/by-address', '/by-name', '/mapped']);
  });

  it('refuses it under the default policy, by address, by a name resolving to it and IPv4-mapped, before connecting', async () => {
    const result = await runScenario('production');
    const allowed = 'allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)';
    expect(result.answers).toEqual([
      { status: 400, code: 'FETCH_FORBIDDEN', message: `refused: 93.184.216.34 is an address of this machine; ${allowed}` },
      { status: 400, code: 'FETCH_FORBIDDEN', message: `refused: own.test resolves to an address of this machine; ${allowed}` },
      {
        status: 400,
        code: 'FETCH_FORBIDDEN',
        message: `refused: ::ffff:5db8:d822 is an address of this machine (IPv4 93.184.216.34 inside an IPv6 address); ${allowed}`,
      },
    ]);
    expect(result.received).toEqual([]);
  });
});
