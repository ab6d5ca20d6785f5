import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { oneOf } from '../../src/config/env-values.js';
import { readMcpSettings } from '../../src/mcp/settings.js';
import { builtInName } from '../../src/providers/provider-config.js';
import { PROVIDER_CLASSES } from '../../src/providers/registry.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'fedsearch-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeScratch(name: string, content: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, content);
  return file;
}

/** The start-up message for one environment; fails the test when the configuration is accepted. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig with no variables', () => {
  it('starts from the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, HOST: '0.0.0.0', DEFAULT_TIMEOUT_MS: 5000, BREAKER_COOLDOWN_MS: 30_000, BREAKER_MAX_COOLDOWN_MS: 600_000 });
    expect(config.fetch).toEqual({ allowPrivate: false, nat64Prefixes: [], maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, readTimeoutMs: 45_000, callerLookupSlots: 1 });
    expect(config.mcp).toEqual({ stateless: false, tools: 'compact', allowedHosts: [], allowedOrigins: [], heartbeatMs: 20_000, sessionIdleMs: 900_000 });
    expect(config.apiKeys).toEqual([]);
    expect(config.REDIS_KEY_PREFIX).toBe('fedsearch:');
    expect(config.providers.brave).toEqual({
      name: 'brave',
      definition: 'brave',
      baseUrl: 'https://api.search.brave.com',
      baseUrlSetting: 'BRAVE_BASE_URL',
      credentials: { BRAVE_API_KEY: undefined },
      weight: 1,
      timeoutMs: 5000,
      concurrency: 32,
      rateLimit: { requests: 1, intervalMs: 1000, burst: 1, text: '1/s', variable: 'BRAVE_RATE_LIMIT' },
    });
    // MediaWiki's etiquette asks for requests in series: wikipedia declares fewer in flight than the default.
    expect(config.providers.wikipedia!.concurrency).toBe(8);
    expect(config.providers.local!.credentials.LOCAL_INDEX_DIR).toBe(path.resolve('docs'));
  });

  it('has a section for every built-in instance, and no copy of the environment to read later', () => {
    const config = loadConfig({});
    for (const ProviderType of PROVIDER_CLASSES) expect(config.providers[builtInName(ProviderType.settings)]).toBeDefined();
    expect(config.providers.youtube_web).toBeDefined();
    // Wikipedia is the built-in instance of the mediawiki definition, configured by WIKIPEDIA_* as before.
    expect(config.providers.wikipedia).toMatchObject({ name: 'wikipedia', definition: 'mediawiki', baseUrl: 'https://en.wikipedia.org' });
    expect(config.providers.mediawiki).toBeUndefined();
    expect(config).not.toHaveProperty('env');
  });

  it('is the only reader of the environment: every other module takes the validated configuration', () => {
    const sourceRoot = path.resolve('src');
    const readers = readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => readFileSync(path.join(sourceRoot, file), 'utf8').includes('process.env'));
    // healthcheck.ts is the image's probe, a program of its own run every 30 s: it reads HOST and PORT alone rather
    // than load (and validate) the whole configuration, which a running service has already passed.
    expect(readers.sort()).toEqual(['config.ts', 'healthcheck.ts']);
  });

  it('is frozen, sections included', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.fetch)).toBe(true);
    expect(Object.isFrozen(config.providers.brave!.credentials)).toBe(true);
  });

  it("sizes the fetch lookups' slots from libuv's UV_THREADPOOL_SIZE, as libuv reads it", () => {
    // libuv gives slow work (dns.lookup) half its threads, rounded up; caller lookups get one fewer, at least one.
    expect(loadConfig({}).fetch.callerLookupSlots).toBe(1);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '8' }).fetch.callerLookupSlots).toBe(3);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '64' }).fetch.callerLookupSlots).toBe(31);
  });

  it('treats an empty variable as unset, as compose files write it', () => {
    expect(loadConfig({ API_KEYS: '', FETCH_MAX_BYTES: '', BRAVE_WEIGHT: '' })).toMatchObject({ apiKeys: [], fetch: { maxBytes: 10 * 1024 * 1024 } });
  });
});

describe('loadConfig with valid values', () => {
  it('reads the fetch, MCP and service sections', () => {
    const config = loadConfig({
      FETCH_ALLOW_PRIVATE: 'yes',
      FETCH_MAX_BYTES: '2048',
      FETCH_TIMEOUT_MS: '500',
      MCP_TOOLS: 'split',
      MCP_HEARTBEAT_MS: '50',
      MCP_ALLOWED_HOSTS: 'a.example, b.example',
      HOST: '::1',
      REDIS_URL: 'rediss://cache.example:6380',
    });
    expect(config.fetch).toEqual({ allowPrivate: true, nat64Prefixes: [], maxBytes: 2048, timeoutMs: 500, readTimeoutMs: 45_000, callerLookupSlots: 1 });
    expect(config.mcp).toMatchObject({ tools: 'split', heartbeatMs: 50, allowedHosts: ['a.example', 'b.example'] });
    expect(readMcpSettings(config, { sessionIdleMs: 300 })).toMatchObject({ heartbeatMs: 50, sessionIdleMs: 300 });
    expect(config).toMatchObject({ HOST: '::1', REDIS_URL: 'rediss://cache.example:6380' });
  });

  it('reads numbers written in decimal, with an exponent, a sign or surrounding spaces', () => {
    const config = loadConfig({ PORT: ' 8081 ', FETCH_MAX_BYTES: '1e4', CACHE_TTL_SECONDS: '+60', BRAVE_WEIGHT: '.5', EXA_WEIGHT: '2.', BRAVE_API_KEY: 'k', EXA_API_KEY: 'k' });
    expect(config).toMatchObject({ PORT: 8081, CACHE_TTL_SECONDS: 60, fetch: { maxBytes: 10_000 } });
    expect(config.providers.brave?.weight).toBe(0.5);
    expect(config.providers.exa?.weight).toBe(2);
  });

  it('reads a word from a list in any letter case, as the list spells it: LOG_LEVEL=INFO starts the service at info', () => {
    expect(loadConfig({ LOG_LEVEL: 'INFO' }).LOG_LEVEL).toBe('info');
    expect(loadConfig({ LOG_LEVEL: ' Debug ' }).LOG_LEVEL).toBe('debug');
    expect(loadConfig({ MCP_TOOLS: 'SPLIT' }).mcp.tools).toBe('split');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
    // A list whose words differ by case alone could not be read so: it is refused where it is declared.
    expect(() => oneOf(['Fast', 'fast'])).toThrow('differ only by letter case');
  });

  it('reads each provider from its variables, aliases and the default timeout', () => {
    const config = loadConfig({
      DEFAULT_TIMEOUT_MS: '3000',
      BRAVE_BASE_URL: ' http://127.0.0.1:9000/brave ',
      BRAVE_WEIGHT: '1.5',
      BRAVE_CONCURRENCY: '2',
      BRAVE_API_KEY: 'brave-key-123',
      HACKER_NEWS_TIMEOUT_MS: '700',
      SEARXNG_URL: 'http://searx.example:8888',
    });
    expect(config.providers.brave).toEqual({
      name: 'brave',
      definition: 'brave',
      baseUrl: 'http://127.0.0.1:9000/brave',
      baseUrlSetting: 'BRAVE_BASE_URL',
      credentials: { BRAVE_API_KEY: 'brave-key-123' },
      weight: 1.5,
      timeoutMs: 3000,
      concurrency: 2,
      // Pointed away from api.search.brave.com: Brave's published 1/s is not this server's term.
      rateLimit: undefined,
    });
    expect(config.providers.hackernews!.timeoutMs).toBe(700);
    // A message that says where to point SearXNG names the variable the operator set, not another that would also do.
    expect(config.providers.searxng).toMatchObject({
      baseUrl: 'http://searx.example:8888',
      baseUrlSetting: 'SEARXNG_URL',
      credentials: { SEARXNG_URL: 'http://searx.example:8888' },
    });
    expect(config.providers.youtube_web!.timeoutMs).toBe(3000);
  });

  it("applies a published rate limit only on the provider's public API, and a set one anywhere", () => {
    const oneASecond = { requests: 1, intervalMs: 1000, burst: 1, text: '1/s', variable: 'BRAVE_RATE_LIMIT' };
    expect(loadConfig({ BRAVE_BASE_URL: 'https://api.search.brave.com/' }).providers.brave!.rateLimit).toEqual(oneASecond);
    expect(loadConfig({ BRAVE_BASE_URL: 'https://brave-proxy.internal' }).providers.brave!.rateLimit).toBeUndefined();
    expect(loadConfig({ BRAVE_BASE_URL: 'https://brave-proxy.internal', BRAVE_RATE_LIMIT: '1/s' }).providers.brave!.rateLimit).toEqual(oneASecond);
    // A credential's higher allowance follows the same rule.
    expect(loadConfig({ PUBMED_API_KEY: 'k' }).providers.pubmed!.rateLimit).toMatchObject({ text: '10/s' });
    expect(loadConfig({ PUBMED_API_KEY: 'k', PUBMED_BASE_URL: 'http://127.0.0.1:9000' }).providers.pubmed!.rateLimit).toBeUndefined();
  });

  it('keeps a published rate limit when the base URL names the public API over plain http (as arXiv\'s own manual writes it)', () => {
    expect(loadConfig({ ARXIV_BASE_URL: 'http://export.arxiv.org' }).providers.arxiv!.rateLimit).toMatchObject({ text: '1/3s', variable: 'ARXIV_RATE_LIMIT' });
    expect(loadConfig({ HACKERNEWS_BASE_URL: 'http://hn.algolia.com/' }).providers.hackernews!.rateLimit).toMatchObject({ text: '10000/h' });
    // Another port on the same host is another server.
    expect(loadConfig({ ARXIV_BASE_URL: 'http://export.arxiv.org:8080' }).providers.arxiv!.rateLimit).toBeUndefined();
  });

  it('reads the built-in Wikipedia instance from WIKIPEDIA_* variables', () => {
    const config = loadConfig({ WIKIPEDIA_BASE_URL: 'https://de.wikipedia.org', WIKIPEDIA_WEIGHT: '2' });
    expect(config.providers.wikipedia).toMatchObject({ name: 'wikipedia', definition: 'mediawiki', baseUrl: 'https://de.wikipedia.org', weight: 2 });
  });

  it('collects keys from API_KEYS and API_KEYS_FILE', () => {
    const file = writeScratch('keys.txt', '# operators\nfile-key-aaaaaaaa\n\nfile-key-bbbbbbbb # ci\nk3y#Xq9-cccccccc\n\t# indented comment\n');
    expect(loadConfig({ API_KEYS: 'listed-key-1-aaaa, listed-key-2-bbbb', API_KEYS_FILE: file }).apiKeys).toEqual([
      'listed-key-1-aaaa',
      'listed-key-2-bbbb',
      'file-key-aaaaaaaa',
      'file-key-bbbbbbbb',
      // A # inside a key is part of it: cutting it there would accept the short prefix as a key.
      'k3y#Xq9-cccccccc',
    ]);
  });

  it('accepts a readable LOCAL_INDEX_DIR and hands it to the local provider', () => {
    expect(loadConfig({ LOCAL_INDEX_DIR: scratch }).providers.local!.credentials.LOCAL_INDEX_DIR).toBe(scratch);
  });
});

describe('loadConfig refuses a bad value, naming the variable and what is allowed', () => {
  const emptyFile = writeScratch('empty-keys.txt', '# no keys yet\n\n');
  const shortKeyFile = writeScratch('short-keys.txt', '# operators\nlong-enough-key-0123\ncafebabe # too short\n');
  const plainFile = writeScratch('not-a-folder.txt', 'hello');
  const missingFile = path.join(scratch, 'no-such-keys.txt');
  const spacedKeyFile = writeScratch('spaced-keys.txt', 'long-enough-key-0123\nlong-key with-a-space-0123\n');

  it.each([
    // Issue 11 item 4: the fetch settings were read at first use, so these started and every fetch answered 500.
    [{ FETCH_MAX_BYTES: 'abc' }, 'FETCH_MAX_BYTES: expected a whole number ≥ 1024, got "abc"'],
    [{ FETCH_TIMEOUT_MS: 'abc' }, 'FETCH_TIMEOUT_MS: expected a whole number from 100 to 120000, got "abc"'],
    [{ FETCH_ALLOW_PRIVATE: 'maybe' }, 'FETCH_ALLOW_PRIVATE: expected one of true, 1, yes, false, 0, no, got "maybe"'],
    // Item 5: provider settings that started silently and made every search report PROVIDER_PARSE.
    [{ BRAVE_BASE_URL: 'api.search.brave.com' }, 'BRAVE_BASE_URL: expected an absolute http or https URL'],
    [{ WIKIPEDIA_BASE_URL: 'ftp://de.wikipedia.org' }, 'WIKIPEDIA_BASE_URL: expected an absolute http or https URL'],
    [{ SEARXNG_URL: 'searxng:8080' }, 'SEARXNG_URL: expected an absolute http or https URL'],
    // The adapter appends its path to the base URL: a query or fragment swallowed it (…/?token=1/search asked `/`),
    // and user info was dropped on the way out (a SearXNG behind basic auth answered 401 to every search).
    [{ SEARXNG_URL: 'https://searx.example/?token=abc' }, 'SEARXNG_URL: expected an absolute http or https URL with no user info, query or fragment'],
    [{ BRAVE_BASE_URL: 'https://proxy.example/brave#v1' }, 'BRAVE_BASE_URL: expected an absolute http or https URL with no user info, query or fragment'],
    [{ WIKIPEDIA_BASE_URL: 'https://bot:pa55word@wiki.example' }, 'WIKIPEDIA_BASE_URL: expected an absolute http or https URL with no user info, query or fragment'],
    [{ BRAVE_CONCURRENCY: '2.5' }, 'BRAVE_CONCURRENCY: expected a whole number from 1 to 256, got "2.5"'],
    [{ HACKER_NEWS_CONCURRENCY: '0' }, 'HACKER_NEWS_CONCURRENCY: expected a whole number from 1 to 256, got "0"'],
    [{ BRAVE_WEIGHT: 'abc' }, 'BRAVE_WEIGHT: expected a number from 0 to 100, got "abc"'],
    // Number() reads these too; in a port, a size or a weight they are slips, not numbers anyone means.
    [{ PORT: '0x1F90' }, 'PORT: expected a whole number from 0 to 65535, got "0x1F90"'],
    [{ FETCH_MAX_BYTES: '0b10000000000' }, 'FETCH_MAX_BYTES: expected a whole number ≥ 1024, got "0b10000000000"'],
    [{ BRAVE_WEIGHT: '0o7' }, 'BRAVE_WEIGHT: expected a number from 0 to 100, got "0o7"'],
    [{ PRESSURE_MAX_RSS_BYTES: '0x40000000' }, 'PRESSURE_MAX_RSS_BYTES: expected 0 (off) or a number of bytes'],
    [{ ARXIV_TIMEOUT_MS: '50' }, 'ARXIV_TIMEOUT_MS: expected a whole number from 100 to 60000, got "50"'],
    [{ LOCAL_INDEX_DIR: path.join(scratch, 'no-such-folder') }, 'LOCAL_INDEX_DIR: expected an existing folder this process can read'],
    [{ LOCAL_INDEX_DIR: plainFile }, 'LOCAL_INDEX_DIR: expected an existing folder this process can read'],
    // The MCP settings.
    [{ MCP_TOOLS: 'bogus' }, 'MCP_TOOLS: expected one of compact, split, got "bogus"'],
    [{ MCP_HEARTBEAT_MS: 'abc' }, 'MCP_HEARTBEAT_MS: expected a whole number from 10 to 300000, got "abc"'],
    // Item 9: a key source that is set but holds no key turned authentication off.
    [{ API_KEYS: ',' }, 'API_KEYS: expected a comma list of keys, got none'],
    [{ API_KEYS: ' ' }, 'API_KEYS: expected a comma list of keys, got none'],
    [{ API_KEYS_FILE: emptyFile }, `API_KEYS_FILE: expected one key a line, but ${emptyFile} holds none`],
    // Audit 15: a short or word-like key falls to guessing; the message names its place, never its value.
    [{ API_KEYS: 'long-enough-key-0123, admin' }, 'API_KEYS: the key in entry 2 of 2 has 5 characters; a key needs at least 16 (e.g. `openssl rand -hex 16`)'],
    // Empty entries are ignored, but the refused key is named by its entry as written, so the operator finds it.
    [
      { API_KEYS: 'long-enough-key-0123,,admin,' },
      'API_KEYS: the key in entry 3 of 4 has 5 characters; a key needs at least 16 (e.g. `openssl rand -hex 16`) ' +
        '(entries counted as written, the 2 empty ones included; empty entries are ignored)',
    ],
    [{ API_KEYS_FILE: shortKeyFile }, `API_KEYS_FILE: the key on line 3 of ${shortKeyFile} has 8 characters; a key needs at least 16`],
    [{ API_KEYS_FILE: missingFile }, `API_KEYS_FILE: expected a readable file of keys, cannot read ${missingFile}: no such file`],
    [{ API_KEYS_FILE: scratch }, `API_KEYS_FILE: expected a readable file of keys, cannot read ${scratch}: it is a folder`],
    // A secret as `docker run --env-file`, CapRover or Kubernetes pass it on, quotes kept, or pasted with an invisible
    // character: sent as it was, every call to the provider failed with 401, reported only per search.
    [{ BRAVE_API_KEY: '"BSAh3x9QZ0k4abCD12ef"' }, 'BRAVE_API_KEY: starts and ends with a quote ("): docker --env-file, CapRover and Kubernetes keep quotes'],
    [{ TAVILY_API_KEY: 'tvly-0123\u00a0456789' }, 'TAVILY_API_KEY: holds a non-breaking space (U+00A0) at character 10'],
    [{ GITHUB_TOKEN: '\u201cghp_0123456789abcdef\u201d' }, 'GITHUB_TOKEN: starts and ends with a quote (U+201C)'],
    [{ PUBMED_API_KEY: 'abc def 0123456789' }, 'PUBMED_API_KEY: holds a space at character 4'],
    [{ METRICS_TOKEN: "'metrics-token-0123'" }, "METRICS_TOKEN: starts and ends with a quote (')"],
    [{ API_KEYS: 'long-enough-key-0123,"quoted-key-0123456"' }, 'API_KEYS: the key in entry 2 of 2 starts and ends with a quote (")'],
    [{ API_KEYS_FILE: spacedKeyFile }, `API_KEYS_FILE: the key on line 2 of ${spacedKeyFile} holds a space at character 9`],
    // Item 13: values that failed later with a bare system error, or were accepted.
    [{ HOST: '999.1.1.1' }, 'HOST: expected an IPv4 address (0.0.0.0), an IPv6 address (::) or a host name, got "999.1.1.1"'],
    [
      { REDIS_URL: 'http://redis:6379' },
      'REDIS_URL: expected an absolute redis or rediss URL (redis://[:password@]host[:port][/database number], a password\'s % written %25), got "http://redis:6379"',
    ],
    // Audit 6: a path ioredis reads as a database number that is none made SELECT fail, and ioredis went on in database 0.
    [{ REDIS_URL: 'redis://redis:6379/cache' }, 'REDIS_URL: expected an absolute redis or rediss URL (redis://[:password@]host[:port][/database number]'],
    [{ REDIS_URL: 'redis://redis:6379?db=one' }, 'REDIS_URL: expected an absolute redis or rediss URL'],
    [{ REDIS_KEY_PREFIX: 'staging prod:' }, 'REDIS_KEY_PREFIX: expected 1 to 64 letters, digits or :._-{} (e.g. staging:), got "staging prod:"'],
    [{ REDIS_KEY_PREFIX: 'x'.repeat(65) }, 'REDIS_KEY_PREFIX: expected 1 to 64 letters, digits or :._-{}'],
    [{ BREAKER_COOLDOWN_MS: '700000' }, 'BREAKER_COOLDOWN_MS: expected at most BREAKER_MAX_COOLDOWN_MS (600000), got 700000'],
    [{ BREAKER_COOLDOWN_MS: '5000', BREAKER_MAX_COOLDOWN_MS: '1000' }, 'BREAKER_COOLDOWN_MS: expected at most BREAKER_MAX_COOLDOWN_MS (1000), got 5000'],
    // Audit 4: values accepted that then matched nothing, or turned every request away.
    [
      { MCP_ALLOWED_HOSTS: 'mcp.example.com, https://mcp.example.com, .example.com, *' },
      'MCP_ALLOWED_HOSTS: "https://mcp.example.com", ".example.com", "*" are not host[:port] as a Host header carries it',
    ],
    // ALLOWED_HOSTS takes a trailing dot (the same name); MCP_ALLOWED_HOSTS, compared as written, still does not.
    [{ MCP_ALLOWED_HOSTS: 'mcp.example.com., mcp.example.org.:8443' }, 'MCP_ALLOWED_HOSTS: "mcp.example.com.", "mcp.example.org.:8443" are not host[:port]'],
    [{ CORS_ORIGINS: 'https://app.example.com/app' }, 'CORS_ORIGINS: "https://app.example.com/app" is not an origin'],
    [{ PRESSURE_MAX_HEAP_BYTES: '512' }, 'PRESSURE_MAX_HEAP_BYTES: expected 0 (off) or a number of bytes ≥ 1048576 (1 MiB; 512 MiB is 536870912)'],
  ])('%j', (env, expected) => {
    const message = refusal(env);
    expect(message.startsWith('Invalid configuration: ')).toBe(true);
    expect(message).toContain(expected);
  });

  it('reports every problem at once', () => {
    const message = refusal({ FETCH_MAX_BYTES: 'abc', BRAVE_WEIGHT: 'abc', MCP_TOOLS: 'bogus', BREAKER_COOLDOWN_MS: '700000' });
    for (const name of ['FETCH_MAX_BYTES', 'BRAVE_WEIGHT', 'MCP_TOOLS', 'BREAKER_COOLDOWN_MS']) expect(message).toContain(`${name}: expected`);
  });

  it('never repeats a secret it refuses', () => {
    const message = refusal({ METRICS_TOKEN: 'short', REDIS_URL: 'http://:hunter2-password@redis:6379' });
    expect(message).toContain('METRICS_TOKEN: expected at least 8 characters');
    expect(message).toContain('REDIS_URL: expected an absolute redis or rediss URL');
    expect(message).not.toContain('short');
    expect(message).not.toContain('hunter2-password');
  });

  it('never repeats a quoted or spaced secret it refuses, and accepts the same key written plainly', () => {
    const message = refusal({ EXA_API_KEY: '"3f2504e0-4f89-11d3-9a0c-0305e82c3301"', API_KEYS: 'caller key 0123456789' });
    expect(message).toContain('EXA_API_KEY: starts and ends with a quote');
    expect(message).toContain('API_KEYS: the key in entry 1 of 1 holds a space at character 7');
    expect(message).not.toMatch(/3f2504e0|0305e82c3301|caller|0123456789/);
    const accepted = loadConfig({ EXA_API_KEY: ' 3f2504e0-4f89-11d3-9a0c-0305e82c3301 ', API_KEYS: 'caller-key-0123456789' });
    expect(accepted.providers.exa?.credentials.EXA_API_KEY).toBe('3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    expect(accepted.apiKeys).toEqual(['caller-key-0123456789']);
  });

  it('never repeats a short API key it refuses', () => {
    const message = refusal({ API_KEYS: 'long-enough-key-0123,s3cr3t-pw' });
    expect(message).toContain('API_KEYS: the key in entry 2 of 2 has 9 characters');
    expect(message).not.toContain('s3cr3t-pw');
  });

  // A generated password is often base64, whose `/` ended the user part early: the URL fails to parse, and the
  // refusal quoted it, password and all, into the start-up log.
  it('never repeats a URL password that holds a slash or a space', () => {
    const message = refusal({
      REDIS_URL: 'redis://:Zm9v/YmFyK2Jheg==@redis.internal:6379',
      SEARXNG_URL: 'https://admin:pass word@searx.example:70000/',
    });
    expect(message).toContain('REDIS_URL: expected an absolute redis or rediss URL');
    expect(message).toContain('@redis.internal:6379');
    expect(message).toContain('SEARXNG_URL: expected an absolute http or https URL');
    expect(message).not.toMatch(/Zm9v|YmFy|pass word|admin/);
  });

  // Audit 6: ioredis percent-decodes the user info; a bare `%` in a password stopped start-up with "URI malformed",
  // naming no variable.
  it('refuses a REDIS_URL password with a bare %, naming the variable and not the password', () => {
    const message = refusal({ REDIS_URL: 'redis://:pass%word-secret@redis.internal:6379' });
    expect(message).toContain("REDIS_URL: expected an absolute redis or rediss URL (redis://[:password@]host[:port][/database number], a password's % written %25)");
    expect(message).toContain('@redis.internal:6379');
    expect(message).not.toMatch(/pass%word|word-secret/);
  });

  it('accepts a REDIS_URL with an encoded password and a database number', () => {
    const url = 'redis://:pass%25word@redis.internal:6379/3';
    expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(loadConfig({ REDIS_URL: 'redis://redis.internal:6379/' }).REDIS_URL).toBe('redis://redis.internal:6379/');
  });

  // A token is as often put in a URL's query (`?token=…`, `?password=…`, which ioredis reads): a base URL is refused
  // for holding one, and the refusal quoted it into the start-up log.
  it("never repeats a URL's query or fragment, where a token may be", () => {
    const message = refusal({
      SEARXNG_URL: 'https://searx.example.org/?token=tok-secret-123',
      BRAVE_BASE_URL: 'https://api.example.com/v1#key=frag-secret-456',
      REDIS_URL: 'redis//cache:6379?password=pw-secret-789',
    });
    expect(message).toContain('SEARXNG_URL: expected an absolute http or https URL with no user info, query or fragment');
    expect(message).toContain('got "https://searx.example.org/?…"');
    expect(message).toContain('BRAVE_BASE_URL: expected');
    expect(message).toContain('got "https://api.example.com/v1#…"');
    expect(message).toContain('REDIS_URL: expected an absolute redis or rediss URL');
    expect(message).not.toMatch(/tok-secret|frag-secret|pw-secret/);
  });
});
