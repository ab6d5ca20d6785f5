import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

describe('query parameters of /v1/providers and the probes', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ ...providerEnv('http://127.0.0.1:9'), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers an unknown parameter of /v1/providers with a 400 naming it, as the search routes do', async () => {
    const search = await request(service.origin, '/v1/search/web?q=x&kind=web');
    expect(search.status).toBe(400);
    const response = await request(service.origin, '/v1/providers?kind=web');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe((await search.json()).code);
    expect(body.message).toContain('kind: not a known field; allowed: none');
  });

  it('still lists the providers when asked without parameters', async () => {
    const response = await request(service.origin, '/v1/providers');
    expect(response.status).toBe(200);
    expect((await response.json()).providers.length).toBeGreaterThan(0);
  });

  it('leaves the probes lenient: load balancers add parameters of their own', async () => {
    expect((await request(service.origin, '/healthz?source=lb')).status).toBe(200);
    expect((await request(service.origin, '/readyz?source=lb')).status).toBe(200);
  });

  it('documents the 400 and the 503 (shed under load) of /v1/providers', async () => {
    const document = await (await request(service.origin, '/openapi.json')).json();
    expect(Object.keys(document.paths['/v1/providers'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '503']));
  });
});
