import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

/** The unread variables of one environment, as `name → the variable it most likely meant`. */
function unread(env: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(loadConfig(env).unreadVariables.map((variable) => [variable.name, variable.nearest]));
}

describe('variables that look like ours but are not read', () => {
  it.each([
    ['BRAVE_APIKEY', 'BRAVE_API_KEY'],
    ['CACHE_TTL', 'CACHE_TTL_SECONDS'],
    ['API_KEY', 'API_KEYS'],
    ['MCP_ENABLE', 'MCP_ENABLED'],
    ['SEARXNG_BASEURL', 'SEARXNG_BASE_URL'],
    ['BRAVE_TIMEOUT', 'BRAVE_TIMEOUT_MS'],
    ['PUBMED_MAIL', 'PUBMED_EMAIL'],
    ['brave_api_key', 'BRAVE_API_KEY'],
    ['FEDSEARCH_PORT', 'PORT'],
    ['FEDSEARCH_BRAVE_API_KEY', 'BRAVE_API_KEY'],
    // Two neighbours swapped count as one edit, leaving room for a second slip.
    ['BRAVE_AIP_KY', 'BRAVE_API_KEY'],
  ])('names %s, with %s as the variable it most likely meant', (typo, meant) => {
    expect(unread({ [typo]: 'some-value' })).toEqual({ [typo]: meant });
  });

  it('names any FEDSEARCH_ variable, ours by its prefix, even with no known variable near it', () => {
    expect(unread({ FEDSEARCH_COLOUR: 'blue' })).toEqual({ FEDSEARCH_COLOUR: undefined });
  });

  it('says nothing of variables it reads, however they are spelt among the accepted ones', () => {
    expect(unread({ BRAVE_API_KEY: 'k', CACHE_TTL_SECONDS: '5', SEMANTIC_SCHOLAR_WEIGHT: '2', HACKER_NEWS_TIMEOUT_MS: '900', SEARXNG_URL: 'http://127.0.0.1:9' })).toEqual({});
  });

  it("says nothing of other software's variables that merely share a first word with ours", () => {
    expect(
      unread({
        PATH: '/usr/bin',
        HOME: '/home/node',
        HOSTNAME: 'b1946ac92492',
        NODE_ENV: 'production',
        NODE_OPTIONS: '--max-semi-space-size=32',
        // GitHub Actions, in every CI job.
        GITHUB_SHA: 'ffac537e6cbbf934b08745a378932722df287a53',
        GITHUB_BASE_REF: 'main',
        GITHUB_API_URL: 'https://api.github.com',
        GITHUB_ACTIONS: 'true',
        // A Redis image's settings beside ours in one .env file.
        REDIS_PASSWORD: 'hunter2',
        REDIS_HOST: 'redis',
        npm_lifecycle_event: 'start',
      }),
    ).toEqual({});
  });

  it('says nothing of the service links Kubernetes sets for a service named fedsearch', () => {
    expect(
      unread({
        FEDSEARCH_SERVICE_HOST: '10.0.0.7',
        FEDSEARCH_SERVICE_PORT: '8080',
        FEDSEARCH_SERVICE_PORT_HTTP: '8080',
        FEDSEARCH_PORT: 'tcp://10.0.0.7:8080',
        FEDSEARCH_PORT_8080_TCP: 'tcp://10.0.0.7:8080',
        FEDSEARCH_PORT_8080_TCP_ADDR: '10.0.0.7',
        FEDSEARCH_PORT_8080_TCP_PORT: '8080',
        FEDSEARCH_PORT_8080_TCP_PROTO: 'tcp',
      }),
    ).toEqual({});
  });

  it('says nothing of a variable PROVIDERS_FILE names in a ${…}, which the service reads through the file', () => {
    const file = path.join(temporaryDirectory('fedsearch-unread-'), 'providers.yaml');
    writeFileSync(file, 'providers:\n  - name: brave-eu\n    use: brave\n    api_key: ${BRAVE_API_KEY_2}\n');
    expect(unread({ PROVIDERS_FILE: file, BRAVE_API_KEY_2: 'second-key-value' })).toEqual({});
    // The same variable without the file that names it is one letter from BRAVE_API_KEY: a typo, most likely.
    expect(unread({ BRAVE_API_KEY_2: 'second-key-value' })).toEqual({ BRAVE_API_KEY_2: 'BRAVE_API_KEY' });
  });

  it('ignores an empty variable, as the configuration does', () => {
    expect(unread({ BRAVE_APIKEY: '' })).toEqual({});
  });
});
