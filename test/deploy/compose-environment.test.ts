import { describe, expect, it } from 'vitest';
import { SERVICE_VARIABLES } from '../../src/config.js';
import { CONFIGURED_PROVIDER_SETTINGS } from '../../src/providers/registry.js';
import { readCompose } from './compose-file.js';

describe("docker-compose.yml's environment for fedsearch", () => {
  it('names only variables the service reads: a misspelt one would be ignored without a word', () => {
    const providerVariables = CONFIGURED_PROVIDER_SETTINGS.flatMap((settings) => settings.credentials.map((credential) => credential.env));
    const known = new Set([...SERVICE_VARIABLES, ...providerVariables]);
    const environment = Object.keys(readCompose().services.fedsearch!.environment ?? {});
    expect(environment).toContain('REDIS_URL');
    expect(environment.filter((name) => !known.has(name))).toEqual([]);
  });
});
