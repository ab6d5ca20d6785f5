import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Behaviour } from '../support/fake-upstream.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  output: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once the process has written a line containing text (at once if it already has). */
  waitForOutput(text: string): Promise<void>;
}

/**
 * Starts the real server process (src/server.ts) and resolves once it logs that it listens. `preload` is a module
 * run before the server (node's --import), for a test that needs the process to do what no request can make it do.
 */
export async function startServer(env: Record<string, string>, { preload }: { preload?: string } = {}): Promise<ServerProcess> {
  // node itself, as the image runs it, not the tsx CLI: that is a second process, which relays only some signals.
  const preloadArguments = preload === undefined ? [] : ['--import', pathToFileURL(preload).href];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preloadArguments, path.join(root, 'src', 'server.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const watchers: Array<{ text: string; resolve: () => void }> = [];
  const collect = (chunk: Buffer): void => {
    output.push(chunk.toString());
    const all = output.join('');
    for (const watcher of watchers.filter((candidate) => all.includes(candidate.text))) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  };
  child.stderr!.on('data', collect);
  child.stdout!.on('data', collect);
  const waitForOutput = (text: string): Promise<void> =>
    output.join('').includes(text) ? Promise.resolve() : new Promise((resolve) => watchers.push({ text, resolve }));
  const listening = waitForOutput('"msg":"Server listening at http://127.0.0.1:').then(
    () => /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(output.join(''))![1]!,
  );
  const origin = await Promise.race([
    listening,
    exited.then((code) => Promise.reject(new Error(`server exited early (${code}): ${output.join('')}`))),
  ]);
  return { child, origin, output, exited, waitForOutput };
}

/** The log line the server writes once it began shutting down and MCP sessions are finishing their calls. */
export const MCP_FINISHING_LINE = 'MCP sessions close once their requests in flight are answered';

export interface HeldAnswer {
  /** The fake upstream route's behaviour: record the request, answer only on release(). */
  behaviour: Behaviour;
  /** Resolves when the provider's request has reached the fake upstream. */
  reached: Promise<void>;
  /** Sends the answer now. */
  release(): void;
}

/**
 * An upstream answer the test holds back until it says so, so the order "request in flight, then SIGTERM,
 * then the answer" is arranged, not guessed with delays.
 */
export function holdAnswer(body: string): HeldAnswer {
  let reachedResolve!: () => void;
  const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
  const waiting: ServerResponse[] = [];
  let released = false;
  const answer = (response: ServerResponse): void => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
  return {
    behaviour: {
      kind: 'handler',
      handle: (_request, response) => {
        reachedResolve();
        if (released) answer(response);
        else waiting.push(response);
      },
    },
    reached,
    release: () => {
      released = true;
      for (const response of waiting.splice(0)) answer(response);
    },
  };
}
