import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FilterName, SearchFilters } from '../../src/domain/query.js';
import { postFilters, unsupportedFilters, upstreamFilters } from '../../src/engine/filters.js';
import { filterParamsOf, webFilterParams } from '../../src/operations/search-params.js';
import { builtInName, credentialKey } from '../../src/providers/provider-config.js';
import type { ProviderSettings } from '../../src/providers/provider.js';
import { PROVIDER_CLASSES, PROVIDER_DEFINITIONS } from '../../src/providers/registry.js';
import { tableRows } from '../support/markdown-table.js';

/**
 * The provider tables of README.md and docs/providers.md are written by hand; these checks hold them to the
 * registry (each adapter's declared settings), so adding, renaming or re-keying a provider fails here until
 * the docs say the same.
 */

const SETTINGS = PROVIDER_CLASSES.map((ProviderType) => ProviderType.settings);

function read(file: string): string {
  return readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
}


const unquoted = (cell: string): string => cell.replace(/^`|`$/g, '');

function byName(rows: string[][]): Map<string, string[]> {
  return new Map(rows.map((row) => [unquoted(row[0]!), row]));
}

function expectSameProviders(rows: Map<string, string[]>): void {
  expect([...rows.keys()].sort()).toEqual(SETTINGS.map(builtInName).sort());
}

/** How docs/providers.md writes an outbound rate-limit default. */
function rateLimitCell(settings: ProviderSettings): string {
  const limit = settings.rateLimit;
  if (limit === undefined) return 'off';
  if (typeof limit === 'string') return `\`${limit}\``;
  return `\`${limit.rate}\`; \`${limit.withCredential.rate}\` with \`${limit.withCredential.env}\``;
}

describe('README.md provider table', () => {
  const rows = byName(tableRows(read('README.md'), '| provider | kind | credentials and settings |'));

  it('lists every provider of the registry, and no other', () => {
    expectSameProviders(rows);
  });

  it.each(SETTINGS.map((settings) => [builtInName(settings), settings] as const))('%s: its kind and every credential, each required one marked so', (name, settings) => {
    const [, kind, credentials] = rows.get(name)!;
    expect(kind).toBe(settings.kind);
    if (settings.credentials.length === 0) expect(credentials).toMatch(/^none\b/);
    for (const credential of settings.credentials) {
      const after = credentials!.split(`\`${credential.env}\``)[1];
      expect(after, `${credential.env} is named`).toBeDefined();
      expect(after!.startsWith(' (required'), `${credential.env} is marked required exactly when it is`).toBe(credential.required);
    }
  });
});

describe('docs/providers.md', () => {
  const markdown = read('docs/providers.md');

  describe('provider table', () => {
    const rows = byName(tableRows(markdown, '| provider | kind | needs |'));

    it('lists every provider of the registry, and no other', () => {
      expectSameProviders(rows);
    });

    it.each(SETTINGS.map((settings) => [builtInName(settings), settings] as const))('%s: its kind, and what it needs before it can run', (name, settings) => {
      const [, kind, needs] = rows.get(name)!;
      expect(kind).toBe(settings.kind);
      const required = settings.credentials.filter((credential) => credential.required);
      if (required.length === 0) expect(needs).toMatch(/^nothing\b/);
      for (const credential of required) expect(needs!.startsWith(`\`${credential.env}\``), `${credential.env} comes first`).toBe(true);
    });
  });

  describe('instances table', () => {
    const rows = byName(tableRows(markdown, '| definition | built-in instance | credential keys | `base_url` |'));

    it('lists every definition a PROVIDERS_FILE entry may use, and no other', () => {
      expect([...rows.keys()].sort()).toEqual(PROVIDER_DEFINITIONS.map((settings) => settings.name).sort());
    });

    it.each(PROVIDER_DEFINITIONS.map((settings) => [settings.name, settings] as const))(
      '%s: its built-in instance, every credential key (each required one marked so) and whether base_url is required',
      (name, settings) => {
        const [, instance, keys, baseUrl] = rows.get(name)!;
        expect(unquoted(instance!)).toBe(builtInName(settings));
        // The base URL's own variable (SEARXNG_URL) is written base_url in a file, not a credential key.
        const credentials = settings.credentials.filter((credential) => credential.env !== settings.baseUrlEnv);
        if (credentials.length === 0) expect(keys).toBe('none');
        for (const credential of credentials) {
          const after = keys!.split(`\`${credentialKey(settings, credential)}\``)[1];
          expect(after, `${credential.env} is named by its key`).toBeDefined();
          expect(after!.startsWith(' (required'), `${credential.env} is marked required exactly when it is`).toBe(credential.required);
        }
        expect(baseUrl!.startsWith('required'), 'base_url is marked required exactly when it is').toBe(settings.baseUrlRequired === true);
      },
    );
  });

  describe('filters table', () => {
    const rows = byName(tableRows(markdown, '| provider | applied upstream | applied by fedsearch to its results | not applied: the provider is skipped |'));
    /** A value of each filter that narrows the results; domain entries with a path, which not every API takes. */
    const NARROWING: Required<Pick<SearchFilters, FilterName>> = {
      time_range: 'day',
      language: 'de',
      include_domains: ['docs.example.org/guide'],
      exclude_domains: ['docs.example.org/private'],
      safesearch: 'strict',
      year_from: 2000,
      year_to: 2010,
      open_access: true,
    };
    const FILTER_NAMES = new Set(Object.keys(NARROWING));
    /** The filters a cell names, in backquotes (`time_range`, not `time_range=day`). */
    const filtersIn = (cell: string): FilterName[] =>
      [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((name): name is FilterName => FILTER_NAMES.has(name));
    const one = (name: FilterName): SearchFilters => ({ [name]: NARROWING[name] });

    it('lists every provider of the registry, and no other', () => {
      expectSameProviders(rows);
    });

    it.each(SETTINGS.map((settings) => [builtInName(settings), settings] as const))(
      '%s: applied upstream exactly what its adapter passes on; the rest where fedsearch applies it or skips the provider',
      (name, settings) => {
        const [, upstream, after, skipped] = rows.get(name)!;
        const native = settings.filters ?? [];
        expect(new Set(filtersIn(upstream!))).toEqual(new Set(native));
        for (const filter of filtersIn(after!)) {
          expect(postFilters(one(filter), upstreamFilters(one(filter), settings)), `${filter} is applied by fedsearch`).toContain(filter);
        }
        for (const filter of filtersIn(skipped!)) {
          expect(unsupportedFilters(one(filter), native, settings.undated), `${filter} skips the provider`).toContain(filter);
        }
        // A value that asks for nothing (safesearch=off) skips no provider: the cell names the values that do.
        if (filtersIn(skipped!).includes('safesearch')) {
          const skipping = webFilterParams.safesearch
            .unwrap()
            .options.filter((value) => unsupportedFilters({ safesearch: value }, native, settings.undated).length > 0);
          expect(skipped, 'safesearch names the values that skip the provider').toContain(`\`safesearch\` (${skipping.map((value) => `\`${value}\``).join(', ')})`);
        }
        // Every filter a search of its kind takes is in one column or another.
        const taken = settings.kind === 'web' || settings.kind === 'papers' ? Object.keys(filterParamsOf[settings.kind]) : [];
        const named = new Set([upstream!, after!, skipped!].flatMap(filtersIn));
        for (const filter of taken) expect(named.has(filter as FilterName), `${filter} is named`).toBe(true);
      },
    );
  });

  describe('outbound rate-limit table', () => {
    const rows = byName(tableRows(markdown, '| provider | default | source |'));

    it('lists every provider of the registry, and no other', () => {
      expectSameProviders(rows);
    });

    it.each(SETTINGS.map((settings) => [builtInName(settings), settings] as const))('%s: the default the adapter declares', (name, settings) => {
      expect(rows.get(name)![1]).toBe(rateLimitCell(settings));
    });
  });
});
