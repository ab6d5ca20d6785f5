import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/temporary-directory.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/**
 * A stand-in for dist/server.js: says its pid once it listens for signals, then waits; on SIGTERM or SIGINT it says which and exits 0, as the
 * service does once drained. The real server needs a build; the script line npm runs is what is under test here.
 */
const STAND_IN = `
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => { process.stdout.write('got ' + signal + '\\n'); process.exit(0); });
process.stdout.write('pid ' + process.pid + '\\n');
setInterval(() => {}, 1000);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm start` (the README's command) run in a folder holding the project's package.json and the stand-in, with
 * npm's pre-scripts (the build) skipped; resolves once the stand-in says its pid.
 */
async function npmStart(folder: string) {
  mkdirSync(path.join(folder, 'dist'));
  writeFileSync(path.join(folder, 'dist', 'server.js'), STAND_IN);
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { start: scripts.start } }));
  const npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!/pid \d+\n/.test(output)) {
    const [code] = await Promise.race([once(npm.stdout, 'data'), once(npm, 'exit')]);
    if (typeof code === 'number' || code === null) throw new Error(`npm start exited before the server started:\n${output}`);
  }
  const serverPid = Number(/pid (\d+)/.exec(output)![1]);
  return { npm, serverPid, output: () => output };
}

// A process manager, a terminal or `kill` often signals only the process it started: npm. npm passes the signal to
// the script's process; with the script run by `sh -c`, that was the shell, which exits without passing it on, so
// the server went on running, orphaned, holding the port. `exec` makes the server the script's process.
describe.each(['SIGTERM', 'SIGINT'] as const)('npm start, %s sent to npm alone', (signal) => {
  it('reaches the server, which stops before npm exits', async () => {
    const { npm, serverPid, output } = await npmStart(temporaryDirectory('fedsearch-npm-start-'));
    const closed = once(npm, 'close');
    npm.kill(signal);
    await once(npm, 'exit');
    // npm waits for its script's process to end: the server must be gone by now, not left behind.
    const orphaned = alive(serverPid);
    if (orphaned) process.kill(serverPid, 'SIGKILL');
    await closed;
    expect(orphaned).toBe(false);
    expect(output()).toContain(`got ${signal}`);
  });
});
