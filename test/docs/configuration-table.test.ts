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

  it.each(
    [...documented].flatMap(([name, row]) => {
      // A row of one variable: a range in a row of several would not say whose it is.
      const range = row.alone ? /\((\d+)–(\d+)[;)]/.exec(row.meaning) : null;
      return range ? [[name, Number(range[1]), Number(range[2])] as const] : [];
    }),
  )('%s: the documented range %d–%d is the accepted one', (name, min, max) => {
    expect(() => loadConfig({ [name]: String(min) })).not.toThrow();
    expect(() => loadConfig({ [name]: String(max) })).not.toThrow();
    expect(() => loadConfig({ [name]: String(min - 1) })).toThrow(name);
    expect(() => loadConfig({ [name]: String(max + 1) })).toThrow(name);
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
