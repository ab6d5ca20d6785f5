import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { credentialKey, PROVIDER_TUNING, tuningKey } from '../../src/providers/provider-config.js';
import { PROVIDER_DEFINITIONS } from '../../src/providers/registry.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'fedsearch-providers-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;

function writeProvidersFile(content: string): string {
  files += 1;
  const file = path.join(scratch, `providers-${files}.yaml`);
  writeFileSync(file, content);
  return file;
}

/** The start-up message for a PROVIDERS_FILE with this content; fails the test when it is accepted. */
function refusal(content: string, env: Record<string, string> = {}): { message: string; file: string } {
  const file = writeProvidersFile(content);
  try {
    loadConfig({ PROVIDERS_FILE: file, ...env });
  } catch (error) {
    return { message: (error as Error).message, file };
  }
  throw new Error(`accepted ${content}`);
}

describe('PROVIDERS_FILE instances', () => {
  it('adds named instances of a definition, each with its own settings, after the built-in ones', () => {
    const file = writeProvidersFile(`
providers:
  - name: searx-eu
    use: searxng
    base_url: https://searx.example.eu
    weight: 1.5
    timeout_ms: 3000
    concurrency: 4
    rate_limit: 2/s
  - name: mywiki
    use: mediawiki
    base_url: https://wiki.example.org
`);
    const config = loadConfig({ PROVIDERS_FILE: file, DEFAULT_TIMEOUT_MS: '2000' });
    expect(config.providers['searx-eu']).toEqual({
      name: 'searx-eu',
      definition: 'searxng',
      baseUrl: 'https://searx.example.eu',
      // Messages that say where to point the instance name its entry's key; SEARXNG_URL is not read for it.
      baseUrlSetting: 'base_url of searx-eu in PROVIDERS_FILE',
      // The adapter's required SEARXNG_URL setting is what base_url gives.
      credentials: { SEARXNG_URL: 'https://searx.example.eu' },
      weight: 1.5,
      timeoutMs: 3000,
      concurrency: 4,
      // A rate_limited outcome names where the limit is set, so the operator knows what to raise.
      rateLimit: { requests: 2, intervalMs: 1000, burst: 1, text: '2/s', variable: 'rate_limit of searx-eu in PROVIDERS_FILE' },
      fromFile: true,
    });
    expect(config.providers.mywiki).toEqual({
      name: 'mywiki',
      definition: 'mediawiki',
      baseUrl: 'https://wiki.example.org',
      baseUrlSetting: 'base_url of mywiki in PROVIDERS_FILE',
      credentials: {},
      weight: 1,
      timeoutMs: 2000,
      concurrency: 8,
      fromFile: true,
    });
    const names = Object.keys(config.providers);
    expect(names.slice(-2)).toEqual(['searx-eu', 'mywiki']);
    // The built-in instances are still there, configured from the environment as before.
    expect(config.providers.wikipedia).toMatchObject({ definition: 'mediawiki', baseUrl: 'https://en.wikipedia.org' });
  });

  it("takes a mediawiki site's language, two letters in any case, and refuses any other value saying what is allowed", () => {
    const file = writeProvidersFile('providers:\n  - name: dewiki\n    use: mediawiki\n    base_url: https://wiki.example.de\n    language: DE\n');
    expect(loadConfig({ PROVIDERS_FILE: file }).providers.dewiki?.credentials).toEqual({ WIKIPEDIA_LANGUAGE: 'de' });
    const { message } = refusal('providers:\n  - name: dewiki\n    use: mediawiki\n    base_url: https://wiki.example.de\n    language: German\n');
    expect(message).toContain('providers[0] "dewiki" (line 2): language: expected a two-letter language code such as de, got "German"');
  });

  it('reads JSON as well, since JSON is YAML', () => {
    const file = writeProvidersFile(JSON.stringify({ providers: [{ name: 'wiki2', use: 'mediawiki', base_url: 'https://wiki2.example' }] }));
    expect(loadConfig({ PROVIDERS_FILE: file }).providers.wiki2).toMatchObject({ definition: 'mediawiki', baseUrl: 'https://wiki2.example' });
    // JSON's null is written on purpose: no value, as YAML's unquoted null is not taken to be.
    const withNull = writeProvidersFile(JSON.stringify({ providers: [{ name: 'gh2', use: 'github', token: null }] }));
    expect(loadConfig({ PROVIDERS_FILE: withNull }).providers.gh2!.credentials).toEqual({});
  });

  it('maps credentials by their documented key, by value or ${VARIABLE} from the environment', () => {
    const file = writeProvidersFile(`
providers:
  - name: brave-team
    use: brave
    api_key: \${TEAM_BRAVE_KEY}
  - name: pubmed-lab
    use: pubmed
    api_key: literal-key-1234
    email: lab@example.org
`);
    const config = loadConfig({ PROVIDERS_FILE: file, TEAM_BRAVE_KEY: 'team-key-5678' });
    expect(config.providers['brave-team']!.credentials).toEqual({ BRAVE_API_KEY: 'team-key-5678' });
    expect(config.providers['pubmed-lab']!.credentials).toEqual({ PUBMED_API_KEY: 'literal-key-1234', PUBMED_EMAIL: 'lab@example.org' });
  });

  it('keeps a credential written as digits exactly as written, not as the number YAML would read', () => {
    // Unquoted, YAML's core schema reads these as numbers: 24 digits lose their tail, 12e45678 is Infinity and
    // 0123 drops its zero. A key is text; the upstream would refuse every one of them only at the first search.
    const file = writeProvidersFile(`
providers:
  - name: brave-digits
    use: brave
    api_key: 123456789012345678901234
  - name: pubmed-hex
    use: pubmed
    api_key: 12e45678
  - name: github-zero
    use: github
    token: 0123
`);
    const config = loadConfig({ PROVIDERS_FILE: file });
    expect(config.providers['brave-digits']!.credentials).toEqual({ BRAVE_API_KEY: '123456789012345678901234' });
    expect(config.providers['pubmed-hex']!.credentials).toMatchObject({ PUBMED_API_KEY: '12e45678' });
    expect(config.providers['github-zero']!.credentials).toEqual({ GITHUB_TOKEN: '0123' });
  });

  it('reads as written a credential that YAML would read as a boolean, and the spellings it reads as text already', () => {
    // Unquoted, `True` is YAML's boolean true, which reads back as `true`: the key is the text written.
    const file = writeProvidersFile(`
providers:
  - name: brave-bool
    use: brave
    api_key: True
  - name: tavily-yes
    use: tavily
    api_key: yes
  - name: exa-colon
    use: exa
    api_key: :x1-0123
  - name: github-dash
    use: github
    token: -dash-0123
  - name: pubmed-date
    use: pubmed
    api_key: 2024-01-01
  - name: brave-quoted
    use: brave
    api_key: "!quoted-bang"
  - name: brave-shared
    use: brave
    api_key: &shared shared-key-0123
  - name: brave-alias
    use: brave
    api_key: *shared
`);
    const providers = loadConfig({ PROVIDERS_FILE: file }).providers;
    expect(providers['brave-bool']!.credentials).toEqual({ BRAVE_API_KEY: 'True' });
    expect(providers['tavily-yes']!.credentials).toEqual({ TAVILY_API_KEY: 'yes' });
    expect(providers['exa-colon']!.credentials).toEqual({ EXA_API_KEY: ':x1-0123' });
    expect(providers['github-dash']!.credentials).toEqual({ GITHUB_TOKEN: '-dash-0123' });
    expect(providers['pubmed-date']!.credentials).toMatchObject({ PUBMED_API_KEY: '2024-01-01' });
    expect(providers['brave-quoted']!.credentials).toEqual({ BRAVE_API_KEY: '!quoted-bang' });
    // An anchor with a value after it is YAML written on purpose: the alias repeats the value.
    expect(providers['brave-shared']!.credentials).toEqual({ BRAVE_API_KEY: 'shared-key-0123' });
    expect(providers['brave-alias']!.credentials).toEqual({ BRAVE_API_KEY: 'shared-key-0123' });
  });

  it('replaces a built-in instance with an entry of the same name, in its place', () => {
    const file = writeProvidersFile('providers:\n  - name: wikipedia\n    use: mediawiki\n    base_url: https://de.wikipedia.org\n    weight: 2\n');
    const config = loadConfig({ PROVIDERS_FILE: file, WIKIPEDIA_WEIGHT: '5' });
    expect(config.providers.wikipedia).toMatchObject({ name: 'wikipedia', baseUrl: 'https://de.wikipedia.org', weight: 2 });
    const withoutFile = Object.keys(loadConfig({}).providers);
    expect(Object.keys(config.providers)).toEqual(withoutFile);
  });

  it('keeps a replaced built-in instance on its default site when the entry names none', () => {
    const file = writeProvidersFile('providers:\n  - name: wikipedia\n    use: mediawiki\n    weight: 3\n');
    expect(loadConfig({ PROVIDERS_FILE: file }).providers.wikipedia).toMatchObject({ baseUrl: 'https://en.wikipedia.org', weight: 3 });
  });

  it('gives every credential a file key that no other setting of its definition has', () => {
    for (const settings of PROVIDER_DEFINITIONS) {
      const keys = [
        'name',
        'use',
        ...(Object.keys(PROVIDER_TUNING) as Array<keyof typeof PROVIDER_TUNING>).map(tuningKey),
        ...settings.credentials.filter((credential) => credential.env !== settings.baseUrlEnv).map((credential) => credentialKey(settings, credential)),
      ];
      expect(new Set(keys).size, `${settings.name}: ${keys.join(', ')}`).toBe(keys.length);
      for (const key of keys) expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });
});

describe('a local instance in PROVIDERS_FILE', () => {
  it('reads the index_dir it is given as an absolute path, checked at start-up as LOCAL_INDEX_DIR is', () => {
    const folder = temporaryDirectory('fedsearch-notes-');
    const file = writeProvidersFile(`providers:\n  - name: notes\n    use: local\n    index_dir: ${path.relative(process.cwd(), folder)}\n`);
    const config = loadConfig({ PROVIDERS_FILE: file });
    expect(config.providers.notes).toMatchObject({ definition: 'local', credentials: { LOCAL_INDEX_DIR: folder } });
  });
});

describe('a bad PROVIDERS_FILE refuses start-up, naming the file, the entry and the field', () => {
  it.each([
    ['an unknown definition', 'providers:\n  - name: odd\n    use: nosuchprovider\n', 'providers[0] "odd" (line 2): use: expected one of local, brave,', 'got "nosuchprovider"'],
    ['a missing use', 'providers:\n  - name: odd\n', 'providers[0] "odd" (line 2): use: required', ''],
    ['a missing name', 'providers:\n  - use: searxng\n    base_url: https://searx.example\n', 'providers[0] (line 2): name: required', ''],
    ['an invalid name', 'providers:\n  - name: Searx EU\n    use: searxng\n    base_url: https://s.example\n', 'providers[0] "Searx EU" (line 2): name: expected lower-case letters, digits, _ and -', 'got "Searx EU"'],
    [
      'a duplicate name',
      'providers:\n  - name: s1\n    use: searxng\n    base_url: https://a.example\n  - name: s1\n    use: searxng\n    base_url: https://b.example\n',
      'providers[1] "s1" (line 5): name: "s1" is already the name of providers[0]',
      '',
    ],
    ['a reserved name', 'providers:\n  - name: youtube_web\n    use: youtube\n    api_key: k-12345\n', 'providers[0] "youtube_web" (line 2): name: "youtube_web" is reserved', ''],
    [
      'the name auto, which providers= reads as "choose by the query"',
      'providers:\n  - name: auto\n    use: searxng\n    base_url: https://s.example\n',
      'providers[0] "auto" (line 2): name: "auto" is reserved (providers=auto chooses providers by the query); choose another',
      '',
    ],
    [
      'a built-in name with another definition',
      'providers:\n  - name: wikipedia\n    use: searxng\n    base_url: https://s.example\n',
      'providers[0] "wikipedia" (line 2): use: "wikipedia" is the built-in mediawiki instance',
      'must use mediawiki',
    ],
    [
      'a bad rate_limit',
      'providers:\n  - name: searx-a\n    use: searxng\n    base_url: https://s.example\n    rate_limit: fast\n',
      'providers[0] "searx-a" (line 2): rate_limit: expected N/s, N/Ns, N/min, N/Nmin or N/h',
      'got "fast"',
    ],
    ['a missing base_url', 'providers:\n  - name: searx-a\n    use: searxng\n', 'providers[0] "searx-a" (line 2): base_url: required for a searxng instance', ''],
    [
      'a local index_dir that is not a folder',
      'providers:\n  - name: notes\n    use: local\n    index_dir: /no/such/folder\n',
      'providers[0] "notes" (line 2): index_dir: expected an existing folder this process can read',
      'got "/no/such/folder"',
    ],
    ['a missing base_url for mediawiki', 'providers:\n  - name: mywiki\n    use: mediawiki\n', 'providers[0] "mywiki" (line 2): base_url: required for a mediawiki instance', ''],
    ['a missing required credential', 'providers:\n  - name: brave-2\n    use: brave\n', 'providers[0] "brave-2" (line 2): api_key: required for a brave instance', ''],
    ['a bad base_url', 'providers:\n  - name: s\n    use: searxng\n    base_url: searx.example\n', 'providers[0] "s" (line 2): base_url: expected an absolute http or https URL', 'got "searx.example"'],
    [
      'a base_url with a query',
      'providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example/?token=abc\n',
      'providers[0] "s" (line 2): base_url: expected an absolute http or https URL with no user info, query or fragment',
      '',
    ],
    ['a bad weight', 'providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example\n    weight: heavy\n', 'providers[0] "s" (line 2): weight: expected a number from 0 to 100, got "heavy"', ''],
    ['a bad timeout', 'providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example\n    timeout_ms: 5\n', 'providers[0] "s" (line 2): timeout_ms: expected a whole number from 100 to 60000, got "5"', ''],
    [
      'an unknown key',
      'providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example\n    apikey: x\n',
      'providers[0] "s" (line 2): apikey: unknown key for a searxng instance (allowed: name, use, base_url, weight, timeout_ms, concurrency',
      '',
    ],
    ['a list where a value belongs', 'providers:\n  - name: s\n    use: searxng\n    base_url: [a, b]\n', 'providers[0] "s" (line 2): base_url: expected a single value', ''],
    ['an entry that is not a mapping', 'providers:\n  - searxng\n', 'providers[0] (line 2): expected a mapping with at least name and use', ''],
    ['no providers list', 'instances: []\n', 'instances: unknown key (allowed: providers)', ''],
    ['providers that is not a list', 'providers: searxng\n', 'providers: expected a list of instances', ''],
    ['an empty file', '', 'expected a mapping with a `providers` list, got an empty file', ''],
    ['invalid YAML', 'providers:\n  - name: a\n  name: b\n', 'not valid YAML: All mapping items must start at the same column at line 3, column 1', ''],
    ['a repeated key', 'providers:\n  - name: a\n    name: b\n', 'not valid YAML: Map keys must be unique at line 3, column 5', ''],
    [
      'an alias with no anchor before it (a value starting with *)',
      'providers:\n  - name: brave-2\n    use: brave\n    api_key: *k-12345\n',
      'not valid YAML: an alias (*…) names no anchor (&…) set before it at line 4, column 14; quote a value that starts with *',
      '',
    ],
    [
      'aliases that multiply',
      `providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example\n    weight: &a [${'x, '.repeat(9)}x]\n    timeout_ms: &b [${'*a, '.repeat(9)}*a]\n    concurrency: [${'*b, '.repeat(9)}*b]\n`,
      'not valid YAML: too many aliases (*…) at line 6',
      '',
    ],
  ])('%s', (_case, content, expected, alsoExpected) => {
    const { message, file } = refusal(content);
    expect(message).toContain(`Invalid configuration: PROVIDERS_FILE: ${file}: ${expected}`);
    expect(message).toContain(alsoExpected);
  });

  it('names the entry and the variable when a ${VARIABLE} is not set', () => {
    const { message, file } = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: ${BRAVE_TEAM_KEY}\n');
    expect(message).toBe(`Invalid configuration: PROVIDERS_FILE: ${file}: providers[0] "brave-2" (line 2): api_key: \${BRAVE_TEAM_KEY}: not set in the environment`);
  });

  it('names an unreadable file', () => {
    const missing = path.join(scratch, 'missing.yaml');
    expect(() => loadConfig({ PROVIDERS_FILE: missing })).toThrow(
      `Invalid configuration: PROVIDERS_FILE: ${missing}: expected a readable YAML file, cannot read it: no such file`,
    );
  });

  it('reports every problem at once, with the other variables', () => {
    const { message, file } = refusal('providers:\n  - name: a\n    use: nosuch\n  - name: b\n    use: searxng\n', { BRAVE_WEIGHT: 'abc' });
    expect(message).toContain('BRAVE_WEIGHT: expected a number');
    expect(message).toContain(`PROVIDERS_FILE: ${file}: providers[0] "a" (line 2): use: expected one of`);
    expect(message).toContain(`PROVIDERS_FILE: ${file}: providers[1] "b" (line 4): base_url: required for a searxng instance`);
  });

  // YAML drops quotes it reads, but not quotes inside quotes, nor a variable that holds them (set by docker
  // --env-file or CapRover), nor an invisible character pasted with the key.
  it.each([
    ['    api_key: \'"sk-quoted-in-quotes-1234"\'\n', {}, 'api_key: starts and ends with a quote (")'],
    ['    api_key: ${TEAM_BRAVE_KEY}\n', { TEAM_BRAVE_KEY: '"sk-quoted-by-env-file-1234"' }, 'api_key: starts and ends with a quote (")'],
    ['    api_key: "sk-non\\u00a0breaking-1234"\n', {}, 'api_key: holds a non-breaking space (U+00A0) at character 7'],
  ])('refuses a secret credential that an API cannot take: %j', (line, env, problem) => {
    const { message, file } = refusal(`providers:\n  - name: brave-2\n    use: brave\n${line}`, env);
    expect(message).toContain(`PROVIDERS_FILE: ${file}: providers[0] "brave-2" (line 2): ${problem}`);
    expect(message).not.toMatch(/sk-|1234/);
  });

  it('keeps a plain setting that is no secret as it is written (an e-mail with a display name)', () => {
    const file = writeProvidersFile('providers:\n  - name: pubmed-lab\n    use: pubmed\n    email: "Lab Team <lab@example.org>"\n');
    expect(loadConfig({ PROVIDERS_FILE: file }).providers['pubmed-lab']!.credentials.PUBMED_EMAIL).toBe('Lab Team <lab@example.org>');
  });

  it('never repeats a credential, not even from a line YAML cannot read', () => {
    const { message } = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: "sk-very-secret-value\n');
    expect(message).toContain('not valid YAML');
    expect(message).not.toContain('sk-very-secret-value');
    const invalid = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: sk-very-secret-value\n    weight: abc\n');
    expect(invalid.message).toContain('weight: expected a number');
    expect(invalid.message).not.toContain('sk-very-secret-value');
    const alias = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: *sk-very-secret-value\n');
    expect(alias.message).toContain('not valid YAML');
    expect(alias.message).not.toContain('sk-very-secret-value');
  });

  // YAML reads a value that starts with `|` or `>` as a block scalar's header, one that starts with `!` as a tag, and a
  // backslash in double quotes as an escape: the first line of its error then quotes the token, or eight characters of it.
  it.each([
    ['a block scalar header', 'api_key: |sk-Qz7hW9xPb3LmTk4', 'Block scalar header includes extra characters: … at line 4'],
    ['a folded block scalar header', 'api_key: >sk-Qz7hW9xPb3LmTk4', 'Block scalar header includes extra characters: … at line 4'],
    ['a tag with a handle', 'api_key: !sk!Qz7hW9xPb3LmTk4', 'Could not resolve tag: … at line 4'],
    ['an escape in double quotes', 'api_key: "sk\\UQz7hW9xPb3LmTk4"', 'Invalid escape sequence … at line 4'],
  ])('never repeats a credential YAML reads as %s', (_case, line, expected) => {
    const { message, file } = refusal(`providers:\n  - name: brave-2\n    use: brave\n    ${line}\n`);
    expect(message).toContain(`PROVIDERS_FILE: ${file}: not valid YAML: ${expected}`);
    const secret = 'Qz7hW9xPb3LmTk4';
    for (let start = 0; start + 4 <= secret.length; start += 1) expect(message).not.toContain(secret.slice(start, start + 4));
  });

  // Unquoted, YAML gives some spellings a meaning of their own and reads no key, or another: each is refused with what
  // YAML read and how to quote, naming the entry and the key, and never repeating the value.
  it.each([
    ['a tag (!…), which YAML drops', 'api_key: !sk-Qz7hW9xPb3LmTk4', 'api_key: YAML read the value\'s start (!…) as a tag and dropped it; quote the value ("…")'],
    ['an unknown core tag (!!…)', 'api_key: !!sk-Qz7hW9xPb3LmTk4', 'api_key: YAML read the value\'s start (!…) as a tag and dropped it'],
    ['an anchor (&…) with nothing after it', 'api_key: &sk-Qz7hW9xPb3LmTk4', 'api_key: YAML read the value (&…) as an anchor\'s name, with no value after it; quote the value'],
    ['a comment (#…)', 'api_key: #sk-Qz7hW9xPb3LmTk4', 'api_key: YAML read the value (#…) as a comment, so it has none; quote the value ("…") to have it read as written, or remove the line'],
    ['null', 'api_key: null', 'api_key: YAML read the value (null or ~) as no value; quote the value'],
    ['~', 'api_key: ~', 'api_key: YAML read the value (null or ~) as no value'],
    ['lines YAML joins into one', 'api_key: sk-Qz7hW9x\n      -Pb3LmTk4', 'api_key: YAML joined the value\'s lines into one; quote the value'],
  ])('refuses a credential YAML reads as %s, naming the entry and the key', (_case, line, expected) => {
    const { message, file } = refusal(`providers:\n  - name: brave-2\n    use: brave\n    ${line}\n`);
    expect(message).toContain(`Invalid configuration: PROVIDERS_FILE: ${file}: providers[0] "brave-2" (line 2): ${expected}`);
    // The one problem: the key is not reported "required" as well, as it was when YAML had read it as nothing.
    expect(message.match(/PROVIDERS_FILE:/g)).toHaveLength(1);
    for (const piece of ['Qz7h', 'W9xP', 'b3Lm', 'Tk4']) expect(message).not.toContain(piece);
  });

  it('refuses an optional credential YAML reads as nothing, rather than run without it', () => {
    const { message, file } = refusal('providers:\n  - name: gh\n    use: github\n    token: !ghp-secret-token\n');
    expect(message).toContain(`${file}: providers[0] "gh" (line 2): token: YAML read the value's start (!…) as a tag and dropped it`);
    expect(message).not.toContain('ghp-secret-token');
  });

  it.each([
    ['a reserved character (@)', 'api_key: @sk-Qz7hW9xPb3LmTk4', 'Plain value cannot start with reserved character @ at line 4, column 14'],
    ['a reserved character (`)', 'api_key: `sk-Qz7hW9xPb3LmTk4', 'Plain value cannot start with reserved character ` at line 4, column 14'],
    ['a directive (%)', 'api_key: %sk-Qz7hW9xPb3LmTk4', 'Plain value cannot start with directive indicator character % at line 4, column 14'],
    ['a block scalar header (|)', 'api_key: |sk-Qz7hW9xPb3LmTk4', 'Block scalar header includes extra characters: … at line 4, column 15'],
    ['a list item (- )', 'api_key: - sk-Qz7hW9xPb3LmTk4', 'Unexpected block-seq-ind on same line with key at line 4, column 14'],
    ['a mapping (: )', 'api_key: sk: Qz7hW9xPb3LmTk4', 'Nested mappings are not allowed in compact mappings at line 4, column 14'],
  ])('names the entry and the key of a credential YAML cannot read as %s, and says to quote it', (_case, line, expected) => {
    const { message, file } = refusal(`providers:\n  - name: brave-2\n    use: brave\n    ${line}\n`);
    expect(message).toContain(
      `PROVIDERS_FILE: ${file}: not valid YAML: ${expected}, in the value of api_key in providers[0] "brave-2"; if that value is a credential or other text, quote it ("…") to have it read as written`,
    );
    for (const piece of ['Qz7h', 'W9xP', 'b3Lm', 'Tk4']) expect(message).not.toContain(piece);
  });

  it('names the entry and the key of an alias (*…) with no anchor', () => {
    const { message } = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: *sk-Qz7hW9xPb3LmTk4\n');
    expect(message).toContain('quote a value that starts with * (here the value of api_key in providers[0] "brave-2")');
  });

  it('never repeats the value of a variable put in a key that is not a credential\'s, whole or cut short', () => {
    const misplaced = refusal('providers:\n  - name: brave-2\n    use: brave\n    api_key: ${TEAM_KEY}\n    weight: ${TEAM_KEY}\n', {
      TEAM_KEY: 'sk-very-secret-value',
    });
    expect(misplaced.message).toContain('weight: expected a number from 0 to 100, got "${TEAM_KEY}"');
    expect(misplaced.message).not.toContain('sk-very');
    const long = `sk-${'x'.repeat(100)}`;
    const cut = refusal('providers:\n  - name: s\n    use: searxng\n    base_url: https://s.example\n    rate_limit: every ${LONG_KEY}\n', { LONG_KEY: long });
    expect(cut.message).toContain('rate_limit: expected N/s');
    expect(cut.message).toContain('got "every ${LONG_KEY}…"');
    expect(cut.message).not.toContain('sk-xxxx');
  });
});
