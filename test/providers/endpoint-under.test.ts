import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { createLimiters, gatherResults } from '../../src/engine/gather.js';
import { createUpstreamTransport } from '../../src/engine/upstream-transport.js';
import type { PaperIdentifier, Provider, UpstreamRequest } from '../../src/providers/provider.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeQuery } from '../support/run-provider.js';
import { TestProvider } from '../support/test-provider.js';

const agent = new Agent({ keepAliveTimeout: 500 });

/**
 * An adapter whose lookup puts the identifier in the path as it comes, as if validation had let a dot segment
 * through: only endpointUnder stands between it and another API path.
 */
class PathLookupProvider extends TestProvider {
  constructor(baseUrl: string) {
    super('paths', baseUrl, { kind: 'papers' });
  }

  urlUnder(fixedPath: string, callerPath: string): string {
    return this.endpointUnder(fixedPath, callerPath).toString();
  }

  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest {
    return { url: this.endpointUnder('/works/', identifier.value).toString() };
  }
}

function refusal(run: () => unknown): FedsearchError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof FedsearchError) return error;
    throw error;
  }
  return undefined;
}

describe('endpointUnder: a path with a caller-derived part stays under the adapter\'s fixed path', () => {
  const provider = new PathLookupProvider('http://gateway.example/crossref/');

  it('builds the same URL as endpoint() for ordinary ids, slashes and dots inside parts included', () => {
    expect(provider.urlUnder('/works/', '10.1000/a.b/c..d')).toBe('http://gateway.example/crossref/works/10.1000/a.b/c..d');
    expect(provider.urlUnder('/works/', '10.1016/s0140-6736(20)30183-5')).toBe('http://gateway.example/crossref/works/10.1016/s0140-6736(20)30183-5');
    // A `..` that stays below the fixed path takes nothing from another API.
    expect(provider.urlUnder('/works/', 'a/../b')).toBe('http://gateway.example/crossref/works/b');
  });

  it.each([
    '10.1234/../../../../graph/v1/author/1741101/papers',
    '10.1234/../../x',
    '..',
    '10.1234/%2e%2e/%2E%2E/x',
    '10.1234/.%2E/%2e./x',
  ])('refuses %s, which climbs out of /works/ (and of the base URL\'s /crossref prefix)', (callerPath) => {
    const error = refusal(() => provider.urlUnder('/works/', callerPath));
    expect(error?.code).toBe('QUERY_INVALID');
    expect(error?.message).toBe('paths: refused a request path that leaves /works/ once its "." and ".." segments are resolved');
  });

  describe('in a lookup', () => {
    const upstream = useFakeUpstream();

    it('is reported as this provider\'s error and sends nothing upstream', async () => {
      upstream.json('*', { results: [] });
      const escaping = new PathLookupProvider(`${upstream.origin}/crossref`);
      const identifier: PaperIdentifier = { type: 'doi', value: '10.1234/../../graph/v1/author/1' };
      const dependencies = {
        transportFor: (provider: Provider) => createUpstreamTransport(provider, { dispatcher: agent, maxBytes: 64 * 1024 }),
        limiterFor: createLimiters(),
        secrets: () => [],
      };
      const [answer] = await gatherResults(
        [escaping],
        makeQuery(identifier.value, 'papers'),
        { task: (provider, transport, signal) => provider.lookup(identifier, transport, signal) },
        dependencies,
      );
      expect(answer!.outcome).toMatchObject({ provider: 'paths', status: 'error', code: 'QUERY_INVALID' });
      expect(upstream.requests).toEqual([]);
    });
  });
});
