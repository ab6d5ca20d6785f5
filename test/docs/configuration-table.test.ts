import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, SERVICE_VARIABLES } from '../../src/config.js';
import { PROVIDER_TUNING, variablePrefixes } from '../../src/providers/provider-config.js';
import { CONFIGURED_PROVIDER_SETTINGS } from '../../src/providers/registry.js';
import { tableRows } from '../support/markdown-table.js';

/**
 * README.md's configuration tables are written by hand; these checks hold them to what loadConfig reads, so a
 * variable added, renamed or re-defaulted in the code fails here until the README says the same.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const quoted = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/**
 * Each documented variable with its documented default: a literal (`off` is the `0` that turns a limit off), or
 * undefined for `unset` and prose; `unset` says whether the default was `unset`.
 */
const documented = new Map<string, { literal: string | undefined; unset: boolean; meaning: string; alone: boolean }>(
  tableRows(readme, '| variable | default | meaning |').flatMap(([names, defaults, meaning]) => {
    const variables = quoted(names!);
    const values = defaults!.split(',').map((value) => value.trim());
    return variables.map((name, index) => {
      const value = values[index] ?? '';
      const literal = /^`[^`]+`$/.test(value) ? value.slice(1, -1) : value === 'off' ? '0' : undefined;
      return [name, { literal, unset: value === 'unset', meaning: meaning!, alone: variables.length === 1 }] as const;
    });
  }),
);

/** The numbers a setting accepts: `max` undefined when only a minimum bounds it. */
interface Range {
  min: number;
  max: number | undefined;
}

/**
 * The range a variable accepts, as its start-up refusal states it ("a whole number from 100 to 30000", "≥ 1024",
 * "a whole number of proxies, 0–10"): config.ts says it there and nowhere else. Undefined for a variable that takes
 * no number, or any number not below 0, which a reader needs no range to be told.
 */
function statedRange(name: string): Range | undefined {
  let message = '';
  try {
    loadConfig({ [name]: 'not a number' });
  } catch (error) {
    message = (error as Error).message;
  }
  const expected = new RegExp(`${name}: expected (.*), got "not a number"$`).exec(message)?.[1];
  if (expected === undefined || !/\bnumber\b/.test(expected)) return undefined;
  const bounded = /from (\d+) to (\d+)|(\d+)–(\d+)/.exec(expected);
  if (bounded) return { min: Number(bounded[1] ?? bounded[3]), max: Number(bounded[2] ?? bounded[4]) };
  const minimum = /≥ (\d+)/.exec(expected);
  return minimum && Number(minimum[1]) > 0 ? { min: Number(minimum[1]), max: undefined } : undefined;
}

/**
 * The range a row documents for `name`: in a row of its own `(a–b` or `(at least a` (closed by `)`, `;` or `,`);
 * in a row of several, after its name, alone or first of a list sharing it (`` `A` 1–1000 ``, `` `A` and `B` at least 100 ``),
 * for a range in such a row would not otherwise say whose it is.
 */
function documentedRange(name: string, row: { meaning: string; alone: boolean }): Range | undefined {
  const range = String.raw`(?:(\d+)–(\d+)|at least (\d+))`;
  const pattern = row.alone ? new RegExp(String.raw`\(${range}[;,)]`) : new RegExp(String.raw`\`${name}\`(?: and \`[A-Z_]+\`)* ${range}`);
  const found = pattern.exec(row.meaning);
  if (!found) return undefined;
  return found[3] === undefined ? { min: Number(found[1]), max: Number(found[2]) } : { min: Number(found[3]), max: undefined };
}

/**
 * Whether `value` is within `name`'s own range: loadConfig reports no problem of that variable. A problem of another
 * one it sets off does not count (BREAKER_MAX_COOLDOWN_MS=100 is in range, below the default BREAKER_COOLDOWN_MS).
 */
function accepts(name: string, value: number): boolean {
  try {
    loadConfig({ [name]: String(value) });
    return true;
  } catch (error) {
    return !new RegExp(`(?:: |; )${name}: `).test((error as Error).message);
  }
}

/** The configuration without the providers' section, whose defaults depend on other settings. */
function serviceSettings(env: Record<string, string>): unknown {
  const { providers: _providers, ...rest } = loadConfig(env);
  return rest;
}

describe('README.md configuration table', () => {
  it('documents every variable the service reads, and no other', () => {
    expect([...documented.keys()].sort()).toEqual([...SERVICE_VARIABLES].sort());
  });

  it.each([...documented].filter(([, row]) => row.literal !== undefined))('%s: the documented default is the one used when unset', (name, row) => {
    expect(serviceSettings({ [name]: row.literal! })).toEqual(serviceSettings({}));
  });

  it.each([...documented].filter(([name, row]) => row.unset && name in (serviceSettings({}) as object)).map(([name]) => name))(
    '%s: documented unset, it has no value when unset',
    (name) => {
      expect((serviceSettings({}) as Record<string, unknown>)[name]).toBeUndefined();
    },
  );

  // A bound only start-up tells (MCP_HEARTBEAT_MS below 10) sends an operator from the README to the logs and back.
  it.each([...documented])('%s: the row documents the range start-up states, if any', (name, row) => {
    expect(documentedRange(name, row)).toEqual(statedRange(name));
  });

  it.each(
    [...documented].flatMap(([name, row]) => {
      const range = documentedRange(name, row);
      return range ? [[name, range] as const] : [];
    }),
  )('%s: the documented range is the accepted one', (name, { min, max }) => {
    expect(accepts(name, min)).toBe(true);
    expect(accepts(name, min - 1)).toBe(false);
    if (max === undefined) return;
    expect(accepts(name, max)).toBe(true);
    expect(accepts(name, max + 1)).toBe(false);
  });
});

describe('README.md timeouts', () => {
  // A provider that declares its own timeout keeps it whatever DEFAULT_TIMEOUT_MS says: the row must say so.
  it.each(CONFIGURED_PROVIDER_SETTINGS.filter((settings) => settings.timeoutMs !== undefined).map((settings) => [settings.name, settings.timeoutMs!] as const))(
    'DEFAULT_TIMEOUT_MS names %s\'s own default, %d',
    (name, timeoutMs) => {
      expect(documented.get('DEFAULT_TIMEOUT_MS')!.meaning).toContain(`${name} ${timeoutMs}`);
    },
  );
});

describe('README.md per-provider table', () => {
  const rows = tableRows(readme, '| variable | meaning |');
  const suffixes = rows.map(([name]) => /^`<NAME>_([A-Z_]+)`$/.exec(name!)?.[1]);

  it('documents every tuning setting a provider reads', () => {
    expect(suffixes.sort()).toEqual(Object.values(PROVIDER_TUNING).map((tuning) => tuning.suffix).sort());
  });

  it.each(rows.map(([name, meaning]) => [name!.slice(1, -1), meaning!] as const))('%s: the row documents the range start-up states, if any', (pattern, meaning) => {
    expect(documentedRange(pattern, { meaning, alone: true })).toEqual(statedRange(pattern.replace('<NAME>', 'BRAVE')));
  });

  it.each(
    rows.flatMap(([name, meaning]) => {
      const range = /\((\d+)–(\d+)/.exec(meaning!);
      return range ? [[name!.slice(1, -1), Number(range[1]), Number(range[2])] as const] : [];
    }),
  )('%s: the documented range %d–%d is the accepted one', (pattern, min, max) => {
    const name = pattern.replace('<NAME>', 'BRAVE');
    expect(() => loadConfig({ [name]: String(min) })).not.toThrow();
    expect(() => loadConfig({ [name]: String(max) })).not.toThrow();
    expect(() => loadConfig({ [name]: String(min - 1) })).toThrow(name);
    expect(() => loadConfig({ [name]: String(max + 1) })).toThrow(name);
  });

  it('names every other prefix a provider answers to', () => {
    const aliases = CONFIGURED_PROVIDER_SETTINGS.flatMap((settings) => variablePrefixes(settings).slice(1));
    for (const alias of aliases) expect(readme.includes(`\`${alias}_`), `${alias}_ is documented`).toBe(true);
  });
});
