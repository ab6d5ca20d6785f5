import { describe, expect, it } from 'vitest';
import type { SearchKind } from '../../src/domain/result.js';
import { TOPIC_PROVIDERS } from '../../src/operations/routing.js';
import { PROVIDER_CLASSES } from '../../src/providers/registry.js';

/** `providers=auto` routes by topic lists kept in routing.ts: held here to the registry's names and kinds. */
describe('routing topics', () => {
  const kindOf = new Map(PROVIDER_CLASSES.map((ProviderType) => [ProviderType.settings.name, ProviderType.settings.kind]));
  const routedKinds = Object.entries(TOPIC_PROVIDERS) as Array<[SearchKind, Record<string, string[]>]>;

  it.each(routedKinds)('%s topics name only providers of that kind in the registry', (kind, topics) => {
    for (const [topic, names] of Object.entries(topics)) {
      for (const name of names) expect(kindOf.get(name), `${kind} topic ${topic}: ${name}`).toBe(kind);
    }
  });

  it.each(routedKinds)('every %s provider of the registry belongs to at least one topic', (kind, topics) => {
    const placed = new Set(Object.values(topics).flat());
    const unplaced = [...kindOf].filter(([name, providerKind]) => providerKind === kind && !placed.has(name)).map(([name]) => name);
    expect(unplaced, `add them to a ${kind} topic in src/operations/routing.ts`).toEqual([]);
  });
});
