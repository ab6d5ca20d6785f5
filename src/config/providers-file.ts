import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isNode, isSeq, LineCounter, parseDocument, visit, type Alias, type Document, type Tags, type YAMLError } from 'yaml';
import type { CredentialSetting, ProviderSettings } from '../providers/provider.js';
import { builtInName, credentialKey, PROVIDER_TUNING, tuningKey, type Tuning } from '../providers/provider-config.js';
import { reason as unreadable } from './api-keys.js';
import { READABLE_FOLDER, readableFolderPath } from './env-values.js';
import { secretProblem } from './secret-text.js';
import { entryPairs, readCredential, valueNamed, type CredentialReading } from './yaml-credentials.js';

/**
 * PROVIDERS_FILE: named provider instances in YAML (JSON is YAML too), read once at start-up.
 *
 *   providers:
 *     - name: searx-eu               # the instance name callers use in providers= and answers report
 *       use: searxng                 # the definition (adapter)
 *       base_url: https://searx.example.eu
 *       weight: 1.5                  # any tuning setting, as <NAME>_<SUFFIX> in lower case
 *       api_key: ${MY_KEY}           # credentials by value or ${VARIABLE} from the environment
 *
 * Every problem names the file, the entry (index, name and line) and the key. Credential values are never
 * repeated in a message.
 */

/** One instance as the file configures it, before the definition's and the service's defaults. */
export interface InstanceEntry {
  name: string;
  settings: ProviderSettings;
  tuning: Partial<Tuning>;
  /** By variable name (BRAVE_API_KEY), as the adapter reads them. */
  credentials: Record<string, string | undefined>;
}

export interface InstanceRules {
  /** The definitions an entry may `use`. */
  definitions: readonly ProviderSettings[];
  /** Names taken by something that is not a search instance, each with what it is. */
  reservedNames: Readonly<Record<string, string>>;
}

const NAME = /^[a-z][a-z0-9_-]{0,63}$/;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const TUNING_FIELDS = Object.keys(PROVIDER_TUNING) as Array<keyof Tuning>;

type Environment = Record<string, string | undefined>;

/**
 * Reads and checks the file; `problems` is empty when every entry is valid. `variables` are those its `${…}` name,
 * set once the file could be read: variables the service reads too, so no start-up warning calls them unread.
 */
export function readProvidersFile(
  raw: string,
  env: Environment,
  rules: InstanceRules,
): { instances: InstanceEntry[]; problems: string[]; variables?: string[] } {
  const file = path.resolve(raw.trim());
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    return { instances: [], problems: [`${file}: expected a readable YAML file, cannot read it: ${unreadable(error)}`] };
  }
  const lines = new LineCounter();
  const document = parseDocument(content, { lineCounter: lines, customTags: withoutNumbers });
  const [syntaxError] = document.errors;
  if (syntaxError) return { instances: [], problems: [`${file}: not valid YAML: ${syntaxProblem(syntaxError, content)}${inValue(document, lines, syntaxError)}`] };
  const data = documentData(document, lines);
  if ('problem' in data) return { instances: [], problems: [`${file}: not valid YAML: ${data.problem}`] };
  const list = readList(data.value);
  if (typeof list === 'string') return { instances: [], problems: [`${file}: ${list}`] };
  const node = document.get('providers', true);
  const lineOf = (index: number): number | undefined => {
    const item = isSeq(node) ? node.items[index] : undefined;
    return isNode(item) && item.range ? lines.linePos(item.range[0]).line : undefined;
  };
  const instances: InstanceEntry[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const pairs = entryPairs(document);
  list.forEach((entry, index) => {
    const name = isRecord(entry) && typeof entry.name === 'string' ? entry.name : undefined;
    const line = lineOf(index);
    const label = `${file}: providers[${index}]${name === undefined ? '' : ` "${name}"`}${line === undefined ? '' : ` (line ${line})`}`;
    const asWrittenIn = (key: string): CredentialReading => readCredential(pairs[index]?.get(key), content);
    const checked = checkEntry(entry, env, rules, asWrittenIn);
    if (name !== undefined && seen.has(name)) checked.problems.unshift(`name: "${name}" is already the name of providers[${seen.get(name)}]`);
    if (name !== undefined && !seen.has(name)) seen.set(name, index);
    problems.push(...checked.problems.map((problem) => `${label}: ${problem}`));
    if (checked.instance && checked.problems.length === 0) instances.push(checked.instance);
  });
  return { instances, problems, variables: [...content.matchAll(REFERENCE)].map((reference) => reference[1]!) };
}

/**
 * yaml's message for a syntax error without the file's text: only its first line (the rest quotes the file), and
 * in it no word of the lines at fault. Some first lines quote a token too ("Could not resolve tag: !ab!…", "Block
 * scalar header includes extra characters: |…", "Invalid escape sequence \U…"), which is a credential's start
 * or the whole of it when the credential starts with `!`, `|` or `>`, or holds a backslash in double quotes.
 */
function syntaxProblem(error: YAMLError, content: string): string {
  const firstLine = error.message.split(':\n')[0]!;
  const position = / at line \d+, column \d+$/.exec(firstLine);
  const words = position ? firstLine.slice(0, position.index) : firstLine;
  const lineStart = content.lastIndexOf('\n', error.pos[0] - 1) + 1;
  const lineEnd = content.indexOf('\n', error.pos[1]);
  const atFault = content.slice(lineStart, lineEnd === -1 ? content.length : lineEnd);
  const shown = words
    .split(' ')
    .map((word) => (word.length >= HIDDEN_FROM_LENGTH && atFault.includes(word) ? '…' : word))
    .join(' ');
  return `${shown}${position?.[0] ?? ''}`;
}

/** Which entry's value a syntax error is in, and that quoting it may be the fix: yaml's words do not say so. */
function inValue(document: Document, lines: LineCounter, error: YAMLError): string {
  const value = valueNamed(document, lines, error.pos[0]);
  return value ? `, in ${value}; if that value is a credential or other text, quote it ("…") to have it read as written` : '';
}

/**
 * The core schema's tags less its numbers: an unquoted number is then read as the text it is written as. Every
 * value is checked from text, as its variable is, and a credential is text: read as a number, a key of digits
 * lost its tail (24 digits), its leading zeros (0123), or became Infinity (12e45678), and failed only upstream.
 */
function withoutNumbers(tags: Tags): Tags {
  return tags.filter((tag) => typeof tag === 'string' || !/:(int|float)$/.test(tag.tag));
}

/**
 * The document as plain data, or why it has none. yaml throws, rather than reports, an alias whose anchor is not
 * set before it and aliases that multiply past its limit; its message repeats the alias, which may be a
 * credential that starts with `*`. The problem says where instead.
 */
function documentData(document: Document, lines: LineCounter): { value: unknown } | { problem: string } {
  try {
    return { value: document.toJS() };
  } catch (error) {
    let first: Alias | undefined;
    let unresolved: Alias | undefined;
    visit(document, {
      Alias(_key, alias) {
        first ??= alias;
        if (alias.resolve(document) !== undefined) return undefined;
        unresolved = alias;
        return visit.BREAK;
      },
    });
    const at = (alias: Alias | undefined): string => {
      if (!alias?.range) return '';
      const { line, col } = lines.linePos(alias.range[0]);
      return ` at line ${line}, column ${col}`;
    };
    if (unresolved) {
      const where = unresolved.range ? valueNamed(document, lines, unresolved.range[0]) : undefined;
      const value = where ? ` (here ${where})` : '';
      return { problem: `an alias (*…) names no anchor (&…) set before it${at(unresolved)}; quote a value that starts with *${value}` };
    }
    if (error instanceof Error && /excessive alias count/i.test(error.message)) return { problem: `too many aliases (*…)${at(first)}` };
    return { problem: first ? `its aliases (*…) cannot be resolved${at(first)}` : 'it cannot be read as data' };
  }
}

/** The `providers` list, or what is wrong with the document's shape. */
function readList(data: unknown): unknown[] | string {
  const expected = 'expected a mapping with a `providers` list';
  if (data === null || data === undefined) return `${expected}, got an empty file`;
  if (!isRecord(data)) return expected;
  const stray = Object.keys(data).filter((key) => key !== 'providers');
  if (stray.length > 0) return `${stray.join(', ')}: unknown key (allowed: providers)`;
  if (!Array.isArray(data.providers)) return `providers: expected a list of instances`;
  return data.providers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One entry's instance, or what is wrong with it (each problem starts with the key). */
function checkEntry(
  entry: unknown,
  env: Environment,
  rules: InstanceRules,
  asWrittenIn: (key: string) => CredentialReading,
): { instance?: InstanceEntry; problems: string[] } {
  if (!isRecord(entry)) return { problems: ['expected a mapping with at least name and use'] };
  const problems: string[] = [];
  const name = checkName(entry.name, rules, problems);
  const settings = checkDefinition(entry.use, rules, problems);
  if (!settings) return { problems };
  const builtIn = rules.definitions.find((definition) => builtInName(definition) === name);
  if (builtIn && builtIn !== settings) {
    problems.push(`use: "${name}" is the built-in ${builtIn.name} instance; an entry of that name replaces it and must use ${builtIn.name}`);
  }
  const keys = entryKeys(settings);
  const allowed = ['name', 'use', ...keys.tuning.keys(), ...keys.credentials.keys()];
  for (const key of Object.keys(entry).filter((key) => !allowed.includes(key))) {
    problems.push(`${key}: unknown key for a ${settings.name} instance (allowed: ${allowed.join(', ')})`);
  }
  const tuning = readTuning(entry, keys.tuning, env, problems);
  const credentials = readCredentials(entry, keys.credentials, settings, env, problems, asWrittenIn);
  // Wikipedia replaced by an entry keeps its own site unless the entry names another one.
  const hasDefaultSite = name === builtInName(settings) && settings.baseUrl !== '';
  const baseUrlKey = tuningKey('baseUrl');
  if (settings.baseUrlRequired && !hasDefaultSite && tuning.baseUrl === undefined && !problems.some((problem) => problem.startsWith(`${baseUrlKey}:`))) {
    problems.push(`${baseUrlKey}: required for a ${settings.name} instance`);
  }
  if (name === undefined) return { problems };
  return { instance: { name, settings, tuning, credentials }, problems };
}

/** The tuning settings an entry sets, each checked as its variable is. */
function readTuning(entry: Record<string, unknown>, keys: Map<string, keyof Tuning>, env: Environment, problems: string[]): Partial<Tuning> {
  const tuning: Partial<Record<keyof Tuning, unknown>> = {};
  for (const [key, field] of keys) {
    const value = resolveValue(entry[key], env);
    if (value.problem) problems.push(`${key}: ${value.problem}`);
    if (value.text === undefined) continue;
    const parsed = PROVIDER_TUNING[field].schema.safeParse(value.text);
    if (parsed.success) tuning[field] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => `${key}: ${asWritten(issue.message, value.references)}`));
  }
  return tuning as Partial<Tuning>;
}

/** The credentials an entry sets, by variable name; a required one that is missing is a problem. */
function readCredentials(
  entry: Record<string, unknown>,
  keys: Map<string, CredentialSetting>,
  settings: ProviderSettings,
  env: Environment,
  problems: string[],
  asWrittenIn: (key: string) => CredentialReading,
): Record<string, string | undefined> {
  const credentials: Record<string, string | undefined> = {};
  for (const [key, credential] of keys) {
    const written = asWrittenIn(key);
    if (written && 'problem' in written) {
      problems.push(`${key}: ${written.problem}`);
      continue;
    }
    const value = resolveValue(written ? written.text : entry[key], env);
    if (value.problem) problems.push(`${key}: ${value.problem}`);
    credentials[credential.env] = value.text?.trim() || undefined;
    if (credential.required && !credentials[credential.env] && !value.problem) problems.push(`${key}: required for a ${settings.name} instance`);
    const given = credentials[credential.env];
    const secretRefusal = credential.secret && given !== undefined ? secretProblem(given) : undefined;
    if (secretRefusal) {
      problems.push(`${key}: ${secretRefusal}`);
      credentials[credential.env] = undefined;
    }
    if (credential.folder && given !== undefined) {
      // Checked now, as LOCAL_INDEX_DIR is: a folder that is not there would otherwise fail the first search.
      const folder = readableFolderPath(given);
      if (folder === undefined) problems.push(`${key}: expected ${READABLE_FOLDER}, got ${JSON.stringify(given)}`);
      else credentials[credential.env] = folder;
    }
    if (credential.format && given !== undefined) {
      // Checked now, as its variable is; only plain settings have a format, so the value may be repeated.
      const read = credential.format.read(given);
      if (read === undefined) problems.push(`${key}: expected ${credential.format.allowed}, got ${JSON.stringify(given)}`);
      else credentials[credential.env] = read;
    }
  }
  return credentials;
}

function checkName(value: unknown, rules: InstanceRules, problems: string[]): string | undefined {
  if (value === undefined) {
    problems.push('name: required: the instance name callers use in providers=');
    return undefined;
  }
  if (typeof value !== 'string' || !NAME.test(value)) {
    problems.push(`name: expected lower-case letters, digits, _ and -, starting with a letter (at most 64), got ${JSON.stringify(value)}`);
    return undefined;
  }
  if (Object.hasOwn(rules.reservedNames, value)) {
    problems.push(`name: "${value}" is reserved (${rules.reservedNames[value]}); choose another`);
    return undefined;
  }
  return value;
}

function checkDefinition(value: unknown, rules: InstanceRules, problems: string[]): ProviderSettings | undefined {
  const names = rules.definitions.map((definition) => definition.name);
  const settings = rules.definitions.find((definition) => definition.name === value);
  if (!settings) problems.push(`use: ${value === undefined ? 'required' : `expected one of ${names.join(', ')}, got ${JSON.stringify(value)}`}`);
  return settings;
}

/** The file keys of a definition: every tuning setting, and each declared credential but the one base_url sets. */
function entryKeys(settings: ProviderSettings) {
  return {
    tuning: new Map(TUNING_FIELDS.map((field) => [tuningKey(field), field])),
    credentials: new Map(
      settings.credentials.filter((credential) => credential.env !== settings.baseUrlEnv).map((credential) => [credentialKey(settings, credential), credential]),
    ),
  };
}

/** A scalar as text, with `${VARIABLE}` references filled in from the environment; blank and null count as unset. */
function resolveValue(value: unknown, env: Environment): { text?: string; problem?: string; references?: Map<string, string> } {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object') return { problem: 'expected a single value, not a list or mapping' };
  const unset: string[] = [];
  const references = new Map<string, string>();
  const text = String(value).replace(REFERENCE, (_reference, variable: string) => {
    const found = env[variable];
    if (found === undefined || found === '') unset.push(variable);
    else references.set(variable, found);
    return found ?? '';
  });
  if (unset.length > 0) return { problem: `${unset.map((variable) => `\${${variable}}`).join(', ')}: not set in the environment` };
  return text.trim() === '' ? {} : { text, references };
}

/** Values shorter than this are not hidden in a message: too short to be a secret, and too likely to match its words. */
const HIDDEN_FROM_LENGTH = 4;

/**
 * A refusal of a value with its `${VARIABLE}`s written back in: a variable put in the wrong key (`weight:
 * ${TEAM_BRAVE_KEY}`) may hold a credential, which the message would otherwise repeat into the log, whole or,
 * past the length a message shows, cut before its `…`.
 */
function asWritten(message: string, references: ReadonlyMap<string, string> | undefined): string {
  let written = message;
  for (const [variable, value] of references ?? []) {
    if (value.length < HIDDEN_FROM_LENGTH) continue;
    written = written.split(value).join(`\${${variable}}`);
    for (let length = value.length - 1; length >= HIDDEN_FROM_LENGTH; length -= 1) {
      written = written.split(`${value.slice(0, length)}…`).join(`\${${variable}}…`);
    }
  }
  return written;
}
