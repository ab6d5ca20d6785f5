import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../src/operations/registry.js';
import { CONFIGURED_PROVIDER_SETTINGS } from '../../src/providers/registry.js';

/**
 * A provider's description is what callers read of it (`GET /v1/providers`, `list_providers`, the search page's
 * "What each provider searches", as README.md says). One that says how to ask it (`type=code`) must name a
 * parameter a caller can send: an adapter's own filter name there is answered 400 "not a known field".
 */

const parameters = new Set(
  OPERATIONS.flatMap((operation) => Object.keys((z.toJSONSchema(operation.input, { io: 'input' }) as { properties?: object }).properties ?? {})),
);

describe("providers' descriptions", () => {
  it.each(CONFIGURED_PROVIDER_SETTINGS.map((settings) => [settings.name, settings.description] as const))(
    '%s names only parameters an operation takes',
    (_name, description) => {
      const named = [...description.matchAll(/\b([a-z_]+)=/g)].map((match) => match[1]!);
      expect(named.filter((name) => !parameters.has(name))).toEqual([]);
    },
  );

  it('reads the parameters (github_search takes type)', () => {
    expect(parameters.has('type')).toBe(true);
  });
});
