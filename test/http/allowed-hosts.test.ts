import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE_MESSAGE } from '../mcp/mcp-client.js';
import { startService, type RunningService } from '../support/service.js';

const KEY = 'fs-host-key-aaaaaaaaaaaaaaaa';

interface RawAnswer {
  status: number;
  body: string;
}

/** A request with the Host header a rebinding page's browser would send (fetch cannot set Host). */
function send(service: RunningService, path: string, options: { host: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<RawAnswer> {
  const { port } = new URL(service.origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { ...options.headers, host: options.host } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** An HTTP/1.0 request with no Host header at all, as only a raw socket can send it. */
function sendWithoutHost(service: RunningService, path: string, headers = ''): Promise<RawAnswer> {
  const { port } = new URL(service.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\n${headers}\r\n`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve({ status: Number(received.slice(9, 12)), body: received.slice(received.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}

function webSearch(service: RunningService, host: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return send(service, '/v1/ops/web_search', {
    host,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: 'fedsearch', providers: ['local'] }),
  });
}

const UNSET_REMEDY =
  'a service without API keys answers only IP addresses and localhost; to reach it by a name, set ALLOWED_HOSTS (a comma list such as fedsearch.example.com or .example.com) or require API keys';

describe('Host check of a service without API keys or ALLOWED_HOSTS', () => {
  let service: RunningService;
  let port: string;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'info' });
    port = new URL(service.origin).port;
  });
  afterAll(() => service.stop());

  it('refuses a REST call from a re-bound name with 403 HOST_NOT_ALLOWED, naming the host and ALLOWED_HOSTS', async () => {
    const host = `attacker.example:${port}`;
    const response = await webSearch(service, host, { origin: `http://${host}` });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'HOST_NOT_ALLOWED',
      message: `host "${host}" is not allowed: ${UNSET_REMEDY}`,
      request_id: expect.any(String),
    });
    const logged = service.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request refused: host not allowed');
    expect(logged).toMatchObject({ level: 40, host });
  });

  it.each(['/v1/providers', '/v1/search/web?q=fedsearch&providers=local', '/', '/healthz', '/no/such/path'])(
    'refuses GET %s from a re-bound name (a same-origin GET carries no Origin)',
    async (path) => {
      const response = await send(service, path, { host: `attacker.example:${port}` });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body).code).toBe('HOST_NOT_ALLOWED');
    },
  );

  it.each([
    ['POST', '/mcp'],
    ['GET', '/sse'],
    ['POST', '/messages?sessionId=x'],
  ])('refuses %s %s from a re-bound name with a JSON-RPC error', async (method, path) => {
    const host = `attacker.example:${port}`;
    const response = await send(service, path, {
      host,
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: method === 'POST' ? INITIALIZE_MESSAGE : undefined,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `host "${host}" is not allowed: ${UNSET_REMEDY}`,
        data: { code: 'HOST_NOT_ALLOWED', request_id: expect.stringMatching(/\S/) },
      },
      id: null,
    });
  });

  it('admits IP addresses and localhost names on any port, and no other name', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'app.localhost', `[::1]:${port}`, '192.168.1.20']) {
      const response = await webSearch(service, host);
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
    for (const host of [`localhost.attacker.example:${port}`, `127.0.0.1.nip.io:${port}`, 'fedsearch.example.com']) {
      const response = await webSearch(service, host);
      expect({ host, status: response.status }).toEqual({ host, status: 403 });
    }
    const mcp = await send(service, '/mcp', {
      host: `localhost:${port}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE_MESSAGE,
    });
    expect(mcp.status).toBe(200);
  });

  // `localhost.` is localhost written fully qualified, but a browser may ask DNS for it (glibc reads no trailing-dot
  // name from /etc/hosts), where a hostile resolver can answer it and then rebind it to this machine: refused.
  it('refuses localhost names with a trailing dot, and unlisted names with one', async () => {
    for (const host of [`localhost.:${port}`, 'LOCALHOST.', 'app.localhost.', `localhost..:${port}`, 'attacker.example.', `localhost.attacker.example.:${port}`, '.localhost.']) {
      const response = await webSearch(service, host);
      expect({ host, status: response.status }).toEqual({ host, status: 403 });
    }
  });

  it('refuses an HTTP/1.0 request without a Host header', async () => {
    const response = await sendWithoutHost(service, '/v1/providers');
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).message).toBe(`a request without a Host header is not allowed: ${UNSET_REMEDY}`);
  });
});

describe('ALLOWED_HOSTS', () => {
  let service: RunningService;
  let port: string;
  beforeAll(async () => {
    service = await startService({ ALLOWED_HOSTS: 'fedsearch.example.com, .example.org, api.example.net:8443', LOG_LEVEL: 'silent' });
    port = new URL(service.origin).port;
  });
  afterAll(() => service.stop());

  const statusFor = async (host: string) => ({ host, status: (await webSearch(service, host.replace('PORT', port))).status });

  it('admits a listed host on any port, or only on its port when the entry names one', async () => {
    expect(await statusFor('fedsearch.example.com')).toEqual({ host: 'fedsearch.example.com', status: 200 });
    expect(await statusFor('fedsearch.example.com:PORT')).toEqual({ host: 'fedsearch.example.com:PORT', status: 200 });
    expect(await statusFor('api.example.net:8443')).toEqual({ host: 'api.example.net:8443', status: 200 });
    expect(await statusFor('api.example.net:9443')).toEqual({ host: 'api.example.net:9443', status: 403 });
    expect(await statusFor('127.0.0.1:PORT')).toEqual({ host: '127.0.0.1:PORT', status: 200 });
  });

  it('admits the domain of a dot entry and its subdomains, not a look-alike', async () => {
    expect(await statusFor('example.org')).toEqual({ host: 'example.org', status: 200 });
    expect(await statusFor('search.example.org:PORT')).toEqual({ host: 'search.example.org:PORT', status: 200 });
    expect(await statusFor('evilexample.org')).toEqual({ host: 'evilexample.org', status: 403 });
    expect(await statusFor('example.org.attacker.example')).toEqual({ host: 'example.org.attacker.example', status: 403 });
  });

  it('admits a listed name written with a trailing dot, on the entry\'s port', async () => {
    expect(await statusFor('fedsearch.example.com.:PORT')).toEqual({ host: 'fedsearch.example.com.:PORT', status: 200 });
    expect(await statusFor('search.example.org.')).toEqual({ host: 'search.example.org.', status: 200 });
    expect(await statusFor('api.example.net.:8443')).toEqual({ host: 'api.example.net.:8443', status: 200 });
    expect(await statusFor('api.example.net.:9443')).toEqual({ host: 'api.example.net.:9443', status: 403 });
    expect(await statusFor('fedsearch.example.com..')).toEqual({ host: 'fedsearch.example.com..', status: 403 });
    expect(await statusFor('evilexample.org.')).toEqual({ host: 'evilexample.org.', status: 403 });
  });

  it.each(['www.fedsearch.example.com', 'api.example.net:9443', 'attacker.example:PORT'])(
    'refuses %s, saying to add it to ALLOWED_HOSTS',
    async (template) => {
      const host = template.replace('PORT', port);
      const response = await webSearch(service, host);
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body).message).toBe(
        `host "${host}" is not allowed: add it to ALLOWED_HOSTS (a comma list such as fedsearch.example.com or .example.com), or set ALLOWED_HOSTS=* to admit any host`,
      );
    },
  );
});

describe('ALLOWED_HOSTS=*', () => {
  let service: RunningService;
  let keyless: RunningService;
  beforeAll(async () => {
    service = await startService({ ALLOWED_HOSTS: '*', LOG_LEVEL: 'silent' });
    keyless = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await keyless.stop();
  });

  it('admits any Host, and a request without one, where a service without keys refuses them', async () => {
    expect((await webSearch(keyless, 'attacker.example:8080')).status).toBe(403);
    expect((await sendWithoutHost(keyless, '/v1/providers')).status).toBe(403);
    expect((await webSearch(service, 'attacker.example:8080')).status).toBe(200);
    const mcp = await send(service, '/mcp', {
      host: 'anything.example',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE_MESSAGE,
    });
    expect(mcp.status).toBe(200);
    expect((await sendWithoutHost(service, '/v1/providers')).status).toBe(200);
  });
});

describe('Host check of a service that requires API keys', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: KEY, LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('admits any Host by default (where a service without keys refuses it), and still needs the key', async () => {
    const keyless = await startService({ LOG_LEVEL: 'silent' });
    try {
      expect((await webSearch(keyless, 'fedsearch.example.com', { authorization: `Bearer ${KEY}` })).status).toBe(403);
    } finally {
      await keyless.stop();
    }
    expect((await webSearch(service, 'fedsearch.example.com')).status).toBe(401);
    expect((await webSearch(service, 'fedsearch.example.com', { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await webSearch(service, 'attacker.example:8080', { 'x-api-key': KEY })).status).toBe(200);
    expect((await sendWithoutHost(service, '/v1/providers', `X-API-Key: ${KEY}\r\n`)).status).toBe(200);
  });

  it('keeps to ALLOWED_HOSTS when it is set as well', async () => {
    const listed = await startService({ API_KEYS: KEY, ALLOWED_HOSTS: 'fedsearch.example.com', LOG_LEVEL: 'silent' });
    try {
      expect((await webSearch(listed, 'fedsearch.example.com', { authorization: `Bearer ${KEY}` })).status).toBe(200);
      expect((await webSearch(listed, 'attacker.example', { authorization: `Bearer ${KEY}` })).status).toBe(403);
      // Refused before access control: no 401 to tell a key is needed.
      expect((await webSearch(listed, 'attacker.example')).status).toBe(403);
    } finally {
      await listed.stop();
    }
  });
});
