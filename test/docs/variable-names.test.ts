import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_VARIABLES } from '../../src/config.js';
import { providerVariableShape } from '../../src/providers/provider-config.js';
import { CONFIGURED_PROVIDER_SETTINGS } from '../../src/providers/registry.js';
import { tableRows } from '../support/markdown-table.js';

/**
 * The configuration tables are checked against the code (configuration-table.test.ts); the prose around them names
 * variables too (`set TRUST_PROXY=true`, `SEARXNG_URL`, `<NAME>_WEIGHT=0`). Every upper-case name the documents give
 * is checked here to be something a reader can act on: a variable the service reads, an error code it answers with,
 * or a name read elsewhere, in the file given. A variable renamed in the code, or misspelt in a document, fails here.
 */

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const documents = ['README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

const readByTheService = new Set([...SERVICE_VARIABLES, ...Object.keys(providerVariableShape(CONFIGURED_PROVIDER_SETTINGS))]);

/** The codes of docs/api.md's error table: names callers branch on, not variables. */
const errorCodes = new Set(tableRows(read('docs/api.md'), '| Status | Code | When |').flatMap(([, codes]) => [...codes!.matchAll(/`([A-Z][A-Z_]+)`/g)].map((match) => match[1]!)));

/** Names the documents give that the service does not read, each with the file that reads or defines it. */
const readElsewhere: Record<string, string> = {
  PUBLISH_ADDRESS: 'docker-compose.yml',
  PUBLISH_PORT: 'docker-compose.yml',
  NODE_OPTIONS: 'Dockerfile',
  // libuv's, read by Node itself; the service derives how many caller lookups may run at once from it.
  UV_THREADPOOL_SIZE: 'src/fetch/lookup-slots.ts',
  CHROMIUM_PATH: 'test/web/chromium.ts',
  REDIS_SERVER_BIN: 'test/support/redis-server.ts',
  SHARED_FIXTURES_DIR: 'test/support/shared-fixtures.ts',
  SOAK_SECONDS: 'bench/soak.ts',
  SOAK_CONNECTIONS: 'bench/soak.ts',
  // Constants of the source the documents point at.
  MORE_NOT_READ: 'src/providers/provider.ts',
  TITLE_OPENING_WORDS: 'src/engine/paper-identity.ts',
  // An upstream's own error code, which the adapter reads.
  SUBSCRIPTION_TOKEN_INVALID: 'src/providers/brave.ts',
};

/**
 * Names the documents give as examples of what the service does not read: misspellings it warns of, Kubernetes'
 * service links, and variables of the reader's own (a PROVIDERS_FILE `${…}`, mcp-remote's header).
 */
const examplesOfUnread = ['BRAVE_APIKEY', 'CACHE_TTL', 'API_KEY', 'FEDSEARCH_SERVICE_HOST', 'FEDSEARCH_PORT', 'SEARX_US_URL', 'TEAM_BRAVE_KEY', 'AUTH_HEADER'];

const named = documents.flatMap((document) => [...new Set(read(document).match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [])].map((name) => [document, name] as const));

describe('upper-case names in README.md and docs/', () => {
  it('finds the variables of the prose', () => {
    expect(named.map(([, name]) => name)).toEqual(expect.arrayContaining(['TRUST_PROXY', 'SEARXNG_URL', 'PROVIDERS_FILE', 'BRAVE_API_KEY']));
  });

  it('are each a variable the service reads, an error code, or a name read where this test says', () => {
    const unexplained = named.filter(
      ([, name]) => !readByTheService.has(name) && !errorCodes.has(name) && !(name in readElsewhere) && !examplesOfUnread.includes(name),
    );
    expect(unexplained.map(([document, name]) => `${document}: ${name}`)).toEqual([]);
  });

  it.each(Object.entries(readElsewhere))('%s is in %s', (name, file) => {
    expect(read(file)).toContain(name);
  });

  it.each(examplesOfUnread)('%s, an example of a name the service does not read, is not read', (name) => {
    expect(readByTheService.has(name)).toBe(false);
  });
});
