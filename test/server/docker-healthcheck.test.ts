import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { FastifyInstance } from 'fastify';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The Dockerfile's HEALTHCHECK command (its exec form), with the built dist/*.js run from src/*.ts through tsx. */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(new URL('Dockerfile', `file://${ROOT}`), 'utf8').replace(/\\\n/g, ' ');
  const line = /^HEALTHCHECK .*?CMD (\[.*\])\s*$/m.exec(dockerfile);
  if (!line) throw new Error('no HEALTHCHECK CMD in exec form in the Dockerfile');
  const command = JSON.parse(line[1]!) as string[];
  expect(command[0]).toBe('node');
  return command.slice(1).flatMap((argument) => {
    const built = /^dist\/(.+)\.js$/.exec(argument);
    return built ? ['--import', 'tsx', `src/${built[1]}.ts`] : [argument];
  });
}

/** The probe's exit code, run as Docker runs it: in the image's folder, with the container's environment. */
function runProbe(env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, healthcheckCommand(), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0),
    );
  });
}

async function listenOn(host: string): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: host }));
  await app.listen({ port: 0, host });
  return { app, port: (app.server.address() as AddressInfo).port };
}

describe("the image's HEALTHCHECK probes the address the service listens on", () => {
  const services: Record<string, { app: FastifyInstance; port: number }> = {};

  beforeAll(async () => {
    // 127.0.0.2 stands for one specific address that is not 127.0.0.1 (all of 127/8 is this machine's on Linux).
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '::']) services[host] = await listenOn(host);
  });
  afterAll(async () => {
    for (const service of Object.values(services)) await service.app.close();
  });

  it.each([
    ['one specific IPv4 address', '127.0.0.2', '127.0.0.2'],
    ['one specific IPv6 address', '::1', '::1'],
    ['every IPv4 address (0.0.0.0), the image default', '0.0.0.0', '127.0.0.1'],
    // Node listens on :: for IPv4 too (libuv clears IPV6_V6ONLY), so the probe's 127.0.0.1 reaches it.
    ['every IPv6 and IPv4 address (::)', '::', '::'],
  ])('passes with HOST set to %s', async (_case, host, listening) => {
    expect(await runProbe({ HOST: host, PORT: String(services[listening]!.port) })).toBe(0);
  });

  it('passes when PORT has white space around it (docker run --env-file keeps a trailing space), as the service reads it', async () => {
    const port = services['127.0.0.1']!.port;
    const written = ` ${port} `;
    expect(loadConfig({ PORT: written }).PORT).toBe(port);
    expect(await runProbe({ HOST: '127.0.0.1', PORT: written })).toBe(0);
  });

  it('fails when nothing answers on the address HOST names', async () => {
    // The service on 127.0.0.1 answers, but a container told to listen on 127.0.0.2 is not healthy because of it.
    const port = services['127.0.0.1']!.port;
    expect(await runProbe({ HOST: '127.0.0.2', PORT: String(port) })).not.toBe(0);
  });
});
