import { closedPort } from '../support/closed-port.js';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
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
