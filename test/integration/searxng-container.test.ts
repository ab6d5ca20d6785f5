import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GenericContainer, getContainerRuntimeClient, ImageName, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const settingsDir = path.join(projectRoot, 'docker', 'searxng');

/** The same pinned image docker-compose runs, read from there so the two never drift apart. */
const image = /image:\s*(searxng\/searxng:\S+)/.exec(readFileSync(path.join(projectRoot, 'docker-compose.yml'), 'utf8'))?.[1];

/**
 * Whether the test can run here: an engine must answer AND the image must be present or pullable. An engine
 * without registry access (a machine with Docker but no Docker Hub) is a reason to skip, not a failure.
 */
async function containerReadiness(): Promise<{ available: boolean; reason: string }> {
  if (!image || image.endsWith(':latest')) return { available: false, reason: 'docker-compose.yml names no pinned searxng image' };
  let client;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    return { available: false, reason: `no container engine (${error instanceof Error ? error.message : String(error)})` };
  }
  const imageName = ImageName.fromString(image);
  try {
    if (!(await client.image.exists(imageName))) await client.image.pull(imageName);
    return { available: true, reason: '' };
  } catch (error) {
    return { available: false, reason: `${image} cannot be pulled (${error instanceof Error ? error.message : String(error)})` };
  }
}

const readiness = await containerReadiness();

describe('the real SearXNG image through the service', () => {
  if (!readiness.available) {
    it.skip(`skipped: ${readiness.reason}`, () => undefined);
    return;
  }

  let container: StartedTestContainer;
  let service: RunningService;

  beforeAll(async () => {
    // The same settings docker-compose mounts: JSON output enabled, limiter off.
    container = await new GenericContainer(image!)
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
