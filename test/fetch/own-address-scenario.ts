/**
 * Run by own-address-fetch.test.ts inside a network namespace of its own, where 93.184.216.34 (a public address) is
 * put on the loopback interface, as a VPS has its public address on its interface: a server listening on all
 * interfaces stands for what runs on this machine (a database, an admin port, the service's own /metrics). The real
 * service is asked to fetch it by that address and by a name resolving to it; what the server received and what the
 * service answered are printed as JSON.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService } from '../support/service.js';

const OWN_PUBLIC_ADDRESS = '93.184.216.34';
const received: string[] = [];
const server = createServer((request, response) => {
  received.push(request.url ?? '');
  response.writeHead(200, { 'content-type': 'text/plain' }).end('internal only');
});
await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
const port = (server.address() as AddressInfo).port;
const env = { LOG_LEVEL: 'silent', ...(process.argv[2] === 'allow-private' ? { FETCH_ALLOW_PRIVATE: 'true' } : {}) };
const service = await startService(env, undefined, {
  resolveHost: async (hostname) => (hostname === 'own.test' ? [{ address: OWN_PUBLIC_ADDRESS, family: 4 }] : []),
});
const answers: Array<{ status: number; code?: string; message?: string }> = [];
for (const url of [`http://${OWN_PUBLIC_ADDRESS}:${port}/by-address`, `http://own.test:${port}/by-name`, `http://[::ffff:${OWN_PUBLIC_ADDRESS}]:${port}/mapped`]) {
  const response = await fetch(`${service.origin}/v1/ops/fetch_url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, engine: 'direct' }),
  });
  const body = (await response.json()) as { code?: string; message?: string };
  answers.push({ status: response.status, code: body.code, message: body.message });
}
await service.stop();
server.close();
process.stdout.write(JSON.stringify({ port, answers, received }));
