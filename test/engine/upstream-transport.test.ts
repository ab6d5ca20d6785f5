import { closedPort } from '../support/closed-port.js';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { TestProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });
afterAll(() => agent.close());

async function networkFailure(url: string): Promise<FedsearchError> {
  const provider = new TestProvider('someapi', url);
  const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 });
  const error = await transport.send({ url }, new AbortController().signal).then(
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
    const repeated = await transport.send({ url: `${upstream.origin}/repeated` }, new AbortController().signal);
    expect(repeated.headers['x-tag']).toBe('one, two');
    expect(repeated.headers['content-type']).toBe('application/json');
    const single = await transport.send({ url: `${upstream.origin}/single` }, new AbortController().signal);
    expect(single.headers['x-tag']).toBe('one');
    expect(single.body).toBe('{"results":[]}');
    expect(Object.values(single.headers).every((value) => typeof value === 'string')).toBe(true);
  });

  it('read a body that arrives in many chunks whole', async () => {
    const body = JSON.stringify({ results: Array.from({ length: 2000 }, (_, index) => ({ url: `https://example.org/${index}` })) });
    upstream.json('GET /large', body);
    const provider = new TestProvider('someapi', upstream.origin);
    const transport = createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 1024 * 1024 });
    expect((await transport.send({ url: `${upstream.origin}/large` }, new AbortController().signal)).body).toBe(body);
  });
});
