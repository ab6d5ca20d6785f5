import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROVIDER_CLASSES } from '../../src/providers/registry.js';
import type { RateLimitDefault } from '../../src/rate-limit/rate-limit-setting.js';

/** The "default" column of docs/providers.md's rate-limit table, by provider. */
function documentedDefaults(): Map<string, string> {
  const text = readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8');
  const table = text.slice(text.indexOf('| provider | default | source |'));
  const rows = table.split('\n').slice(2).filter((line) => line.startsWith('|'));
  return new Map(rows.map((row) => row.split('|').map((cell) => cell.trim())).map(([, provider, rate]) => [provider!, rate!]));
}

/** How the docs write a declared default. */
function asDocumented(declared: RateLimitDefault | undefined): string {
  if (declared === undefined) return 'off';
  if (typeof declared === 'string') return `\`${declared}\``;
  return `\`${declared.rate}\`; \`${declared.withCredential.rate}\` with \`${declared.withCredential.env}\``;
}

describe('docs/providers.md rate-limit table', () => {
  it('lists every provider with the default its adapter declares', () => {
    const documented = documentedDefaults();
    expect([...documented.keys()].sort()).toEqual(PROVIDER_CLASSES.map((type) => type.settings.name).sort());
    for (const type of PROVIDER_CLASSES) {
      expect(documented.get(type.settings.name), type.settings.name).toBe(asDocumented(type.settings.rateLimit));
    }
  });
});
