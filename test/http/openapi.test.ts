import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';

const committed = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));

describe('OpenAPI document', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('committed openapi/openapi.json is what the running service serves (run `npm run openapi` after changing routes)', async () => {
    const served = await (await fetch(`${service.origin}/openapi.json`)).json();
    expect(served).toEqual(committed);
  });

  it('documents every search route and operation with its parameters', () => {
    expect(Object.keys(committed.paths)).toEqual(
      expect.arrayContaining(['/v1/search/web', '/v1/search/papers', '/v1/providers', '/v1/ops/web_search', '/healthz', '/readyz']),
    );
    const parameters = committed.paths['/v1/search/web'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(parameters).toEqual(['q', 'providers', 'limit', 'timeout_ms', 'explain']);
  });
});
