import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { secretProblem } from './secret-text.js';

/**
 * Schemas for one environment variable each. Every refusal says what is allowed and what was given, so the
 * start-up message ("FETCH_MAX_BYTES: expected a whole number ≥ 1024, got "abc"") is enough to fix it.
 * A secret's value is never repeated in a message: it would end up in the logs.
 */

type Options = {
  /** Never repeat the value (keys, tokens). */
  secret?: boolean;
  /** How to show the value in a message, e.g. a URL without its password. */
  show?: (raw: string) => string;
};

function refusal(allowed: string, raw: string, options: Options = {}): string {
  if (options.secret) return `expected ${allowed} (value not shown)`;
  const visible = options.show ? options.show(raw) : raw;
  const shown = visible.length > 80 ? `${visible.slice(0, 80)}…` : visible;
  return `expected ${allowed}, got ${JSON.stringify(shown)}`;
}

/** A string variable turned into T by `convert`, which returns undefined when the value is not allowed. */
export function envValue<T>(allowed: string, convert: (raw: string) => T | undefined, options: Options = {}) {
  return z.string().transform((raw, context): T => {
    const value = convert(raw);
    if (value === undefined) {
      context.addIssue({ code: 'custom', message: refusal(allowed, raw, options) });
      return z.NEVER;
    }
    return value;
  });
}

function range(min: number, max: number | undefined): string {
  return max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
}

/**
 * A number as written in decimal (`1e3` too), or NaN. Number() alone also reads `0x10`, `0b11` and `0o17`, which in a
 * port, a timeout or a size are slips (a value copied from code, or meant as digits), not numbers anyone means.
 */
function decimal(raw: string): number {
  return /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(raw) ? Number(raw) : Number.NaN;
}

/** A whole number within bounds; `1e3` is accepted as it always was. */
export function wholeNumber(min: number, max?: number) {
  return envValue(`a whole number ${range(min, max)}`, (raw) => {
    const value = decimal(raw);
    return Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max) ? value : undefined;
  });
}

const MEBIBYTE = 1024 * 1024;

/** A size in bytes, 0 for off, else at least 1 MiB: a smaller one is a unit slip (512 meant as MiB). Defaults to 0. */
export function byteLimit() {
  return envValue(`0 (off) or a number of bytes ≥ ${MEBIBYTE} (1 MiB; 512 MiB is ${512 * MEBIBYTE})`, (raw) => {
    const value = decimal(raw);
    return Number.isSafeInteger(value) && (value === 0 || value >= MEBIBYTE) ? value : undefined;
  }).default(0);
}

/** Any finite number within bounds (weights, the RRF k). */
export function decimalNumber(min: number, max?: number) {
  return envValue(`a number ${range(min, max)}`, (raw) => {
    const value = decimal(raw);
    return Number.isFinite(value) && value >= min && (max === undefined || value <= max) ? value : undefined;
  });
}

const TRUE_WORDS = ['true', '1', 'yes'];
const FALSE_WORDS = ['false', '0', 'no'];

export function booleanFlag() {
  return envValue(`one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}`, (raw) => {
    const word = raw.trim().toLowerCase();
    return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : undefined;
  });
}

/**
 * How many proxies in front to believe about the caller's address: a boolean word (`true` for the one proxy
 * in front, `false` for none) or a whole number of hops, for a chain (a CDN before CapRover's nginx: 2).
 */
export function proxyHops(max = 10) {
  return envValue(`true (one proxy in front), false (none) or a whole number of proxies, 0–${max}`, (raw) => {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return 1;
    if (FALSE_WORDS.includes(word)) return 0;
    return /^\d+$/.test(word) && Number(word) <= max ? Number(word) : undefined;
  });
}

/**
 * One of a list of words, in any letter case (`LOG_LEVEL=INFO` was refused at start-up, where every other word here,
 * `true`, `off`, is read so), and given to the service in the list's own spelling. Only for a list no two of whose
 * words differ by case alone, which would make a spelling ambiguous.
 */
export function oneOf<const Choices extends readonly [string, ...string[]]>(choices: Choices) {
  const folded = choices.map((choice) => choice.toLowerCase());
  if (new Set(folded).size !== choices.length) throw new Error(`oneOf: ${choices.join(', ')} differ only by letter case`);
  return envValue(`one of ${choices.join(', ')}`, (raw) => {
    const word = raw.trim().toLowerCase();
    return choices.find((choice, index): choice is Choices[number] => folded[index] === word);
  });
}

// user:password@ in a URL (redis://:secret@host) must not reach the logs through a start-up message. Everything
// up to the last `@` goes: a password written unencoded may hold `/`, `?`, `#` or spaces (base64 holds `/`), and
// such a URL is refused precisely because it does not parse, so no parser can say where its user part ends.
function withoutUserInfo(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at === -1) return raw;
  const authority = raw.indexOf('//');
  return `${authority !== -1 && authority < at ? raw.slice(0, authority + 2) : ''}…@${raw.slice(at + 1)}`;
}

/**
 * A URL as a start-up message may show it: without user info, and without what follows `?` or `#`, where a token
 * is as often written (`…/?token=…`, `redis://host?password=…`, which ioredis reads) and which a provider's base
 * URL is refused for holding. The `?…` left in its place still shows why.
 */
function withoutSecrets(raw: string): string {
  const shown = withoutUserInfo(raw);
  const cut = shown.search(/[?#]/);
  return cut === -1 ? shown : `${shown.slice(0, cut + 1)}…`;
}

/** `raw` trimmed and parsed, when it is an absolute URL with one of the schemes and a host. */
function parsedAbsoluteUrl(raw: string, schemes: readonly string[]): { text: string; url: URL } | undefined {
  const text = raw.trim();
  try {
    const url = new URL(text);
    return schemes.includes(url.protocol.slice(0, -1)) && url.hostname !== '' ? { text, url } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where Redis is: a redis(s) URL as ioredis reads it. Its user info is percent-decoded there, so a password holding
 * a bare `%` (one not followed by two hex digits) stopped start-up with a bare "URI malformed" naming no variable;
 * and its path (or `?db=`) is the database number, where anything else made SELECT fail once and ioredis then went
 * on in database 0, with a "Redis is back" line, sharing it with whatever else lives there.
 */
export function redisUrl() {
  const allowed = 'an absolute redis or rediss URL (redis://[:password@]host[:port][/database number], a password\'s % written %25)';
  const convert = (raw: string) => {
    const parsed = parsedAbsoluteUrl(raw, ['redis', 'rediss']);
    if (!parsed) return undefined;
    const { text, url } = parsed;
    const database = url.pathname.replace(/^\//, '') || (url.searchParams.get('db') ?? '');
    return decodes(url.username) && decodes(url.password) && /^\d*$/.test(database) ? text : undefined;
  };
  return envValue(allowed, convert, { show: withoutSecrets });
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A provider's base URL: an absolute http(s) URL the adapter appends its API path and query to, so it may have a
 * path but nothing after it or before the host. A query or fragment swallowed the appended path (…/?token=1 asked
 * `/` with `token=1/search`), and user:password@ never left (requests go to the URL's origin and path): both were
 * accepted and failed every search instead of refusing start-up.
 */
export function providerBaseUrl() {
  const allowed = 'an absolute http or https URL with no user info, query or fragment (http://host[:port][/path]: the adapter appends its own path and query)';
  const convert = (raw: string) => {
    const parsed = parsedAbsoluteUrl(raw, ['http', 'https']);
    if (!parsed) return undefined;
    const { text, url } = parsed;
    return url.username === '' && url.password === '' && !text.includes('?') && !text.includes('#') ? text : undefined;
  };
  return envValue(allowed, convert, { show: withoutSecrets });
}

// RFC 1123 host names: letters, digits and hyphens per label, and a last label that is not all digits
// (so 999.1.1.1 is a bad address, not a name to look up).
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An address to listen on: an IPv4 or IPv6 address, or a host name. */
export function listenHost() {
  return envValue('an IPv4 address (0.0.0.0), an IPv6 address (::) or a host name', (raw) => {
    const text = raw.trim();
    if (isIP(text) !== 0) return text;
    const lastLabel = text.split('.').pop() ?? '';
    return HOST_NAME.test(text) && !/^\d+$/.test(lastLabel) ? text : undefined;
  });
}

/** What a folder setting must name, as messages say it. */
export const READABLE_FOLDER = 'an existing folder this process can read';

/** `raw` as an absolute path when it names a folder that exists and this process can list and read. */
export function readableFolderPath(raw: string): string | undefined {
  const folder = path.resolve(raw.trim());
  try {
    if (!statSync(folder).isDirectory()) return undefined;
    accessSync(folder, constants.R_OK | constants.X_OK);
    return folder;
  } catch {
    return undefined;
  }
}

/** A folder that exists and this process can list and read, resolved to an absolute path. */
export function readableFolder() {
  return envValue(READABLE_FOLDER, readableFolderPath);
}

/** Free text of at least `minLength` characters; secrets are never echoed back. */
export function text(minLength = 1, options: Options = {}) {
  return envValue(`at least ${minLength} character${minLength === 1 ? '' : 's'}`, (raw) => (raw.length >= minLength ? raw : undefined), options);
}

/** A token of at least `minLength` characters that a client must send back (METRICS_TOKEN); never echoed back. */
export function secretToken(minLength: number) {
  return z.string().transform((raw, context) => {
    const problem = raw.length < minLength ? `expected at least ${minLength} characters (value not shown)` : secretProblem(raw);
    if (problem === undefined) return raw;
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });
}

/**
 * REDIS_KEY_PREFIX: what every key this service writes to Redis starts with, so deployments sharing one Redis
 * (staging beside production, two services) neither serve each other's answers nor spend each other's limits.
 * Letters, digits and `:._-{}` (braces for a Redis Cluster hash tag), at most 64: a prefix is written into
 * every key of every request, and one with spaces or control characters is a slip, not a namespace.
 */
export function redisKeyPrefix() {
  return envValue('1 to 64 letters, digits or :._-{} (e.g. staging:)', (raw) => (/^[A-Za-z0-9:._{}-]{1,64}$/.test(raw) ? raw : undefined));
}

/** zod's issues as one line: `NAME: what is allowed; NAME: …`. */
export function describeProblems(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

/** Comma-separated list from the environment, trimmed, empties dropped. */
export function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
