import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { closedPort } from '../support/closed-port.js';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { CallTransport, createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { TestProvider } from '../support/test-provider.js';
import { asResponse } from '../support/upstream-read.js';

const agent = new Agent({ keepAliveTimeout: 500 });
afterAll(() => agent.close());

async function networkFailure(url: string): Promise<FedsearchError> {
  const provider = new TestProvider('someapi', url);
  const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 });
  const error = await transport.send({ url }, new AbortController().signal, asResponse).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FedsearchError);
  expect((error as FedsearchError).code).toBe('PROVIDER_NETWORK');
  return error as FedsearchError;
}

describe('network errors from the upstream transport', () => {
  it('name the provider and the host, and never the path or query string', async () => {
    const port = await closedPort();
    const error = await networkFailure(`http://127.0.0.1:${port}/v1/search?api_key=sk-secret-123&q=rust`);
    expect(error.message).toBe(`someapi (127.0.0.1:${port}): connection refused`);
  });

  it('say which host could not be found', async () => {
    const error = await networkFailure('http://api.nowhere.invalid/search?token=sk-secret-123');
    // ENOTFOUND where DNS answers "no such name"; EAI_AGAIN where no DNS server can be reached at all.
    expect(error.message).toMatch(/^someapi \(api\.nowhere\.invalid\): (host not found|DNS lookup failed)$/);
  });
});

describe('reading upstream answers', () => {
  const upstream = useFakeUpstream();
  const provider = (): TestProvider => new TestProvider('someapi', upstream.origin);
  const send = (url: string, options: { maxBytes?: number; signal?: AbortSignal; method?: 'GET' | 'POST'; body?: string } = {}) =>
    createUpstreamTransport(provider(), { dispatcher: agent, maxBytes: options.maxBytes ?? 1024 }).send(
      { url, method: options.method, body: options.body, headers: { accept: 'application/json' } },
      options.signal ?? new AbortController().signal,
      asResponse,
    );

  it('assembles a body sent in pieces, a character split between two of them included', async () => {
    upstream.on('/pieces', {
      kind: 'handler',
      handle: (_request, response) => {
        const bytes = Buffer.from('{"title":"Zürich – café"}');
        const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ü"
        response.writeHead(200, { 'content-type': 'application/json', 'x-many': ['a', 'b'] });
        response.write(bytes.subarray(0, split));
        setImmediate(() => response.end(bytes.subarray(split)));
      },
    });
    const response = await send(`${upstream.origin}/pieces?q=1`);
    expect(response).toMatchObject({ status: 200, body: '{"title":"Zürich – café"}' });
    expect(response.headers['x-many']).toBe('a, b');
  });

  it('refuses a body past the cap, naming the cap', async () => {
    upstream.json('/large', { filler: 'x'.repeat(4096) });
    await expect(send(`${upstream.origin}/large`, { maxBytes: 1024 })).rejects.toMatchObject({
      code: 'PROVIDER_PARSE',
      message: 'the body is larger than 1024 bytes',
    });
  });

  it('rejects with the abort reason when the call is cut mid-wait', async () => {
    upstream.on('/slow', { kind: 'hang' });
    const controller = new AbortController();
    const reason = new Error('deadline passed');
    const pending = send(`${upstream.origin}/slow`, { signal: controller.signal });
    await expect.poll(() => upstream.requests.some((request) => request.path === '/slow')).toBe(true);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('sends the method, headers, body and the path and query as given, for every spelling of the origin', async () => {
    upstream.json('/echo', { ok: true });
    const port = new URL(upstream.origin).port;
    await send(`${upstream.origin}/echo?q=a%20b&n=2`, { method: 'POST', body: '{"q":"x"}' });
    await send(`http://user:pass@127.0.0.1:${port}/echo?q=userinfo`);
    await send(`http://127.0.0.1:${port}/echo#fragment`);
    const echoed = upstream.requests.filter((request) => request.path === '/echo');
    expect(echoed.map((request) => [request.method, request.url.search, request.body])).toEqual([
      ['POST', '?q=a%20b&n=2', '{"q":"x"}'],
      ['GET', '?q=userinfo', ''],
      ['GET', '', ''],
    ]);
    expect(echoed[0]!.headers).toMatchObject({ accept: 'application/json', 'user-agent': expect.stringMatching(/^fedsearch\//) });
  });

  it("sends each request an adapter's headers as they are then, its own user agent first, whether the object is frozen and reused or changed in place", async () => {
    upstream.json('/headers', { ok: true });
    const transport = createUpstreamTransport(provider(), { dispatcher: agent, maxBytes: 1024 });
    const fixed = Object.freeze({ 'x-api-key': 'key-1', 'user-agent': 'adapter/1' });
    const changing: Record<string, string> = { 'x-api-key': 'key-2' };
    const sendWith = (headers?: Record<string, string>) => transport.send({ url: `${upstream.origin}/headers`, headers }, new AbortController().signal, asResponse);
    await sendWith(fixed);
    await sendWith(changing);
    await sendWith(fixed);
    changing['x-api-key'] = 'key-3';
    await sendWith(changing);
    await sendWith();
    const sent = upstream.requests.filter((request) => request.path === '/headers').map((request) => [request.headers['x-api-key'], request.headers['user-agent']]);
    expect(sent).toEqual([
      ['key-1', 'adapter/1'],
      ['key-2', expect.stringMatching(/^fedsearch\//)],
      ['key-1', 'adapter/1'],
      ['key-3', expect.stringMatching(/^fedsearch\//)],
      [undefined, expect.stringMatching(/^fedsearch\//)],
    ]);
  });
});

describe('redirects from the upstream transport', () => {
  const upstream = useFakeUpstream();

  it('are not followed, a POST is not sent again, and a call through the retrying transport is not retried', async () => {
    upstream.on('/old/search', { kind: 'respond', status: 308, headers: { location: '/new/search?q=x' }, body: '' });
    upstream.json('/new/search', { ok: true });
    const provider = new TestProvider('someapi', `${upstream.origin}/old`);
    const transport = new CallTransport(createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 }), performance.now() + 10_000);
    const sent = transport.send({ url: `${upstream.origin}/old/search`, method: 'POST', body: '{"q":"x"}' }, new AbortController().signal, asResponse);
    await expect(sent).rejects.toMatchObject({
      code: 'PROVIDER_HTTP',
      upstreamStatus: 308,
      message: `HTTP 308: the upstream redirects to ${upstream.origin}/new/search (not followed); set SOMEAPI_BASE_URL to ${upstream.origin}/new`,
    });
    expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /old/search']);
  });

  /** `from` answers `status` with a Location of `to` (absolute, as OpenAlex sends it, or relative). */
  const redirect = (from: string, to: () => string, status = 301) =>
    upstream.on(from, { kind: 'handler', handle: (_request, response) => void response.writeHead(status, { location: to() }).end() });
  /** A call's transport for a provider based at `<origin>/api`, counting the outbound slots its follow-ups take. */
  const callTransport = () => {
    const slots = { taken: 0 };
    const provider = new TestProvider('someapi', `${upstream.origin}/api`);
    const transport = new CallTransport(createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 }), performance.now() + 10_000, () => {
      slots.taken += 1;
      return Promise.resolve();
    });
    return { transport, slots };
  };
  /** The requests to these paths, in order (the upstream serves every test of this block). */
  const requested = (...paths: string[]) => upstream.requests.filter((request) => paths.includes(request.path)).map((request) => `${request.method} ${request.path}`);

  it('a GET redirected within the same API (an OpenAlex ID merged into another) is sent again there, as it was, with a slot of its own; a POST is not', async () => {
    redirect('/api/works/W1', () => `${upstream.origin}/api/works/W2?select=id`);
    upstream.json('GET /api/works/W2', { id: 'https://openalex.org/W2' });
    const { transport, slots } = callTransport();
    const headers = Object.freeze({ accept: 'application/json', 'x-api-key': 'key-1' });
    const answer = await transport.send({ url: `${upstream.origin}/api/works/W1?select=id`, headers }, new AbortController().signal, asResponse);
    expect(answer).toMatchObject({ status: 200, url: `${upstream.origin}/api/works/W2?select=id`, body: '{"id":"https://openalex.org/W2"}' });
    expect(slots.taken).toBe(1);
    const [first, second] = upstream.requests.filter((request) => request.path === '/api/works/W1' || request.path === '/api/works/W2');
    expect(second!.url.search).toBe('?select=id');
    expect(second!.headers).toMatchObject({ accept: 'application/json', 'x-api-key': 'key-1', 'user-agent': first!.headers['user-agent'] });

    const posted = transport.send({ url: `${upstream.origin}/api/works/W1`, method: 'POST', body: '{}', headers }, new AbortController().signal, asResponse);
    await expect(posted).rejects.toMatchObject({
      code: 'PROVIDER_HTTP',
      upstreamStatus: 301,
      message: `HTTP 301: the upstream redirects to ${upstream.origin}/api/works/W2 (not followed); set SOMEAPI_BASE_URL to the address it moved to`,
    });
    expect(requested('/api/works/W1', '/api/works/W2')).toEqual(['GET /api/works/W1', 'GET /api/works/W2', 'POST /api/works/W1']);
  });

  it('a redirect to another origin, or out of the base URL\'s path, is refused as before, after one within the API was followed', async () => {
    const otherHost = () => `http://localhost:${new URL(upstream.origin).port}`;
    redirect('/api/works/W3', () => '/api/works/W4');
    redirect('/api/works/W4', () => `${otherHost()}/api/works/W5?api_key=key-1`, 302);
    redirect('/api/works/W6', () => '/api-old/works/W6');
    const { transport } = callTransport();
    const send = (path: string) => transport.send({ url: `${upstream.origin}${path}`, headers: { 'x-api-key': 'key-1' } }, new AbortController().signal, asResponse);
    await expect(send('/api/works/W3')).rejects.toMatchObject({
      code: 'PROVIDER_HTTP',
      upstreamStatus: 302,
      message: `HTTP 302: the upstream redirects to ${otherHost()}/api/works/W5 (not followed); set SOMEAPI_BASE_URL to the address it moved to`,
    });
    await expect(send('/api/works/W6')).rejects.toMatchObject({
      message: `HTTP 301: the upstream redirects to ${upstream.origin}/api-old/works/W6 (not followed); set SOMEAPI_BASE_URL to ${upstream.origin}/api-old`,
    });
    expect(requested('/api/works/W3', '/api/works/W4', '/api/works/W5', '/api/works/W6', '/api-old/works/W6')).toEqual(['GET /api/works/W3', 'GET /api/works/W4', 'GET /api/works/W6']);
    expect(upstream.requests.every((request) => request.headers.host === new URL(upstream.origin).host)).toBe(true);
  });

  it('a redirect loop within the API is refused once the limit of redirects followed is reached, naming where it led', async () => {
    redirect('/api/works/W7', () => '/api/works/W8', 308);
    redirect('/api/works/W8', () => '/api/works/W7', 308);
    const { transport, slots } = callTransport();
    await expect(transport.send({ url: `${upstream.origin}/api/works/W7` }, new AbortController().signal, asResponse)).rejects.toMatchObject({
      code: 'PROVIDER_HTTP',
      upstreamStatus: 308,
      message: `HTTP 308: the upstream still redirects after 2 redirects followed, to ${upstream.origin}/api/works/W8 (not followed: a redirect loop)`,
    });
    expect(requested('/api/works/W7', '/api/works/W8')).toEqual(['GET /api/works/W7', 'GET /api/works/W8', 'GET /api/works/W7']);
    expect(slots.taken).toBe(2);
  });

  it('without a usable Location still say that the upstream redirects, and which setting to check', async () => {
    upstream.on('/nowhere', { kind: 'respond', status: 302, headers: { location: 'javascript:alert(1)' }, body: '' });
    const transport = createUpstreamTransport(new TestProvider('someapi', upstream.origin), { dispatcher: agent, maxBytes: 1024 });
    await expect(transport.send({ url: `${upstream.origin}/nowhere` }, new AbortController().signal, asResponse)).rejects.toMatchObject({
      code: 'PROVIDER_HTTP',
      message: 'HTTP 302: the upstream redirects, with no usable Location (not followed); check SOMEAPI_BASE_URL',
    });
  });
});

describe('responses from the upstream transport', () => {
  const upstream = useFakeUpstream();

  it('give one string per header, a repeated header joined with ", "', async () => {
    upstream.on('GET /repeated', {
      kind: 'handler',
      handle: (_request, response) => {
        response.setHeader('x-tag', ['one', 'two']);
        response.setHeader('content-type', 'application/json');
        response.end('{}');
      },
    });
    upstream.json('GET /single', { results: [] }, 200, { 'x-tag': 'one' });
    const provider = new TestProvider('someapi', upstream.origin);
    const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 });
    const repeated = await transport.send({ url: `${upstream.origin}/repeated` }, new AbortController().signal, asResponse);
    expect(repeated.headers['x-tag']).toBe('one, two');
    expect(repeated.headers['content-type']).toBe('application/json');
    const single = await transport.send({ url: `${upstream.origin}/single` }, new AbortController().signal, asResponse);
    expect(single.headers['x-tag']).toBe('one');
    expect(single.body).toBe('{"results":[]}');
    expect(Object.values(single.headers).every((value) => typeof value === 'string')).toBe(true);
  });

  it('read a body that arrives in many chunks whole', async () => {
    const body = JSON.stringify({ results: Array.from({ length: 2000 }, (_, index) => ({ url: `https://example.org/${index}` })) });
    upstream.json('GET /large', body);
    const provider = new TestProvider('someapi', upstream.origin);
    const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 * 1024 });
    expect((await transport.send({ url: `${upstream.origin}/large` }, new AbortController().signal, asResponse)).body).toBe(body);
  });
});

/**
 * A request that names no Accept-Encoding leaves the coding to the server (RFC 9110 §12.5.3), and servers behind
 * a proxy that compresses everything (an nginx `gzip on` with `gzip_proxied any`, a CDN) do send gzip or br. The
 * body the adapter reads is the decoded one, held to the same cap: a small compressed body may decode to far more.
 */
describe('compressed upstream answers', () => {
  const upstream = useFakeUpstream();
  const json = JSON.stringify({ results: [{ title: 'Zürich', url: 'https://example.org/z' }] });
  const send = (path: string, maxBytes = 1024) =>
    createUpstreamTransport(new TestProvider('someapi', upstream.origin), { dispatcher: agent, maxBytes }).send(
      { url: `${upstream.origin}${path}` },
      new AbortController().signal,
      asResponse,
    );
  const compressed = (path: string, encoding: string, body: Buffer) =>
    upstream.on(path, {
      kind: 'handler',
      handle: (_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(body),
    });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ] as const)('reads a %s body as the text it encodes', async (encoding, compress) => {
    compressed(`/${encoding}`, encoding, compress(Buffer.from(json)));
    expect((await send(`/${encoding}`)).body).toBe(json);
  });

  it('refuses a compressed body that decodes past the cap', async () => {
    compressed('/bomb', 'gzip', gzipSync(Buffer.alloc(64 * 1024, 0x20)));
    await expect(send('/bomb', 4096)).rejects.toMatchObject({ code: 'PROVIDER_PARSE', message: 'the body is larger than 4096 bytes' });
  });

  it('reads a body coded twice, by a server and a proxy in front of it, the last coding undone first', async () => {
    compressed('/twice', 'gzip, br', brotliCompressSync(gzipSync(Buffer.from(json))));
    expect((await send('/twice')).body).toBe(json);
  });

  it('refuses a body that names more codings than a server and a proxy apply, whatever they decode to', async () => {
    // Each layer small and valid: what a stack of them costs is the decoding of every layer, which the cap does not bound.
    compressed('/stacked', 'gzip, gzip, gzip', gzipSync(gzipSync(gzipSync(Buffer.from(json)))));
    await expect(send('/stacked')).rejects.toMatchObject({
      code: 'PROVIDER_PARSE',
      message: 'the body names 3 content codings (Content-Encoding); at most 2 are undone',
    });
  });

  it('says so when a body does not decode as its content-encoding claims', async () => {
    compressed('/broken', 'gzip', Buffer.from(json));
    await expect(send('/broken')).rejects.toMatchObject({ code: 'PROVIDER_PARSE', message: 'the gzip body could not be decompressed' });
  });

  it('judges an error answer by its status even when its body does not decode', async () => {
    upstream.on('/gateway', {
      kind: 'handler',
      handle: (_request, response) => response.writeHead(502, { 'content-encoding': 'gzip' }).end('<html>bad gateway</html>'),
    });
    await expect(send('/gateway')).rejects.toMatchObject({ code: 'PROVIDER_HTTP', upstreamStatus: 502 });
  });
});
