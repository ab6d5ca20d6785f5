import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const settingsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docker', 'searxng');

/** Whether a Docker (or compatible) engine answers here; CI machines of this project have none. */
const engine = await getContainerRuntimeClient().then(
  () => ({ available: true, reason: '' }),
  (error: unknown) => ({ available: false, reason: error instanceof Error ? error.message : String(error) }),
);

describe('the real SearXNG image through the service', () => {
  if (!engine.available) {
    it.skip(`skipped: no container engine (${engine.reason})`, () => undefined);
    return;
  }

  let container: StartedTestContainer;
  let service: RunningService;

  beforeAll(async () => {
    // The same settings docker-compose mounts: JSON output enabled, limiter off.
    container = await new GenericContainer('searxng/searxng:latest')
      .withCopyDirectoriesToContainer([{ source: settingsDir, target: '/etc/searxng' }])
      .withEnvironment({ SEARXNG_SECRET: 'testcontainers-secret-value' })
      .withExposedPorts(8080)
      .withWaitStrategy(Wait.forHttp('/healthz', 8080).forStatusCode(200))
      .withStartupTimeout(120_000)
      .start();
    const searxngUrl = `http://${container.getHost()}:${container.getMappedPort(8080)}`;
    service = await startService({ SEARXNG_URL: searxngUrl, LOG_LEVEL: 'silent' });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await container?.stop();
  });

  it('answers format=json and reports searxng ok', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=wikipedia&providers=searxng&timeout_ms=15000')).json();
    expect(body.providers[0]).toMatchObject({ provider: 'searxng' });
    // SearXNG's own engines need the internet; the adapter must read its JSON either way.
    expect(['ok', 'error']).toContain(body.providers[0].status);
    if (body.providers[0].status === 'error') expect(body.providers[0].code).toBe('PROVIDER_UPSTREAM');
    for (const result of body.results) expect(result.url).toMatch(/^https?:\/\//);
  });
});
