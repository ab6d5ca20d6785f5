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

  // The file says provider keys come from the shell or an .env file: one left out of `environment` never reaches the
  // container, and its provider stays not_configured with the key set beside the compose file.
  it.each(
    CONFIGURED_PROVIDER_SETTINGS.flatMap((settings) => settings.credentials.map((credential) => credential.env)).filter(
      // Not the operator's to pass: compose points SEARXNG_URL at its own SearXNG, and LOCAL_INDEX_DIR names a folder
      // inside the image, which a host path would not be.
      (name) => name !== 'SEARXNG_URL' && name !== 'LOCAL_INDEX_DIR',
    ),
  )('passes %s from the shell or .env to fedsearch', (name) => {
    const value = `${name.toLowerCase()}-from-the-shell`;
    expect(readCompose({ [name]: value }).services.fedsearch!.environment?.[name]).toBe(value);
  });
});
