import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { listFromEnv } from './env-values.js';
import { secretProblem } from './secret-text.js';

/**
 * The API key sources. A source that is set but holds no key refuses start-up: read as "no keys", it would
 * silently turn authentication off for a deployment that meant to turn it on.
 */

/**
 * The shortest key accepted. A key is the only thing between a caller and the service's provider quotas, and
 * the per-address rate limit slows guessing but does not stop it: a short or word-like key (`test`, `admin`)
 * falls to a dictionary long before 16 random characters would.
 */
export const MIN_API_KEY_LENGTH = 16;
const MAKE_ONE = 'e.g. `openssl rand -hex 16`';

/**
 * Why a key is refused, by its place (never its value: keys are secrets), or undefined when it is one: long enough,
 * and visible ASCII without quotes kept from the way it was set (a caller could never send it to match).
 */
function keyRefusal(key: string, place: string): string | undefined {
  if (key.length < MIN_API_KEY_LENGTH) return `${place} has ${key.length} characters; a key needs at least ${MIN_API_KEY_LENGTH} (${MAKE_ONE})`;
  const problem = secretProblem(key);
  return problem === undefined ? undefined : `${place} ${problem}`;
}

/**
 * API_KEYS: a comma list of keys. Keys are secrets, so messages never repeat the value. Empty entries (`a,,b`, a
 * trailing comma) are ignored, but a refused key is named by its entry as written, empties counted, as a file's key
 * is by its line: the operator counts commas in what they wrote, not in what was kept.
 */
export function apiKeyList() {
  return z.string().transform((raw, context) => {
    const entries = raw.split(',').map((entry) => entry.trim());
    const keys = listFromEnv(raw);
    if (keys.length === 0) {
      context.addIssue({ code: 'custom', message: 'expected a comma list of keys, got none (unset it to run without keys)' });
      return z.NEVER;
    }
    const refusals = entries.flatMap((key, index) => (key === '' ? [] : (keyRefusal(key, `the key in entry ${index + 1} of ${entries.length}`) ?? [])));
    if (refusals.length > 0) {
      const empty = entries.length - keys.length;
      const counting = empty === 0 ? '' : ` (entries counted as written, the ${empty} empty one${empty === 1 ? '' : 's'} included; empty entries are ignored)`;
      context.addIssue({ code: 'custom', message: refusals.join('; ') + counting });
      return z.NEVER;
    }
    return keys;
  });
}

/** Why a file could not be read, in a few words. */
export function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

/**
 * API_KEYS_FILE: a readable file with one key a line. A `#` at the start of a line or after white space starts a
 * comment, as in a shell; one inside a key is part of it (`k3y#Xq9` is one key, not `k3y`). Read once, at start-up.
 */
export function apiKeyFile() {
  return z.string().transform((raw, context) => {
    const file = path.resolve(raw.trim());
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      context.addIssue({ code: 'custom', message: `expected a readable file of keys, cannot read ${file}: ${reason(error)}` });
      return z.NEVER;
    }
    const lines = content.split('\n').map((line, index) => ({ key: line.replace(/(^|\s)#.*/, '').trim(), number: index + 1 }));
    const keyed = lines.filter((line) => line.key !== '');
    if (keyed.length === 0) {
      context.addIssue({ code: 'custom', message: `expected one key a line, but ${file} holds none (unset it to run without keys)` });
      return z.NEVER;
    }
    const refusals = keyed.flatMap((line) => keyRefusal(line.key, `the key on line ${line.number} of ${file}`) ?? []);
    if (refusals.length > 0) {
      context.addIssue({ code: 'custom', message: refusals.join('; ') });
      return z.NEVER;
    }
    return keyed.map((line) => line.key);
  });
}
