import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoResearch } from '../../src/operations/auto-research.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const repositories = readFileSync(new URL('../fixtures/github/search-repositories.json', import.meta.url), 'utf8');

type Step = { operation: string };
type Section = { operation: string; code?: string };

/**
 * auto_research plans as providers=auto routes: a provider whose breaker is open is not given one of the depth + 1
 * slots only to come back a failed section; the slot goes to the next step, and the answer names who was passed over.
 * "what is rust" plans web_search (0.5), then wikipedia_search and github_search (0.35 each: "what is", "rust").
 */
describe('auto_research with suspended providers', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Every upstream is down (a 500, which the breaker counts) except GitHub, which fails only a search for "outage".
    upstream.json('*', { error: 'down' }, 500);
    upstream.on('/github/search/repositories', {
      kind: 'handler',
      handle: (recorded, response) => {
        const failing = recorded.url.searchParams.get('q')?.includes('outage') ?? false;
        response.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' }).end(failing ? '{"message":"down"}' : repositories);
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), BREAKER_FAILURES: '1', BREAKER_COOLDOWN_MS: '600000', LOG_LEVEL: 'silent' });
    // One failure suspends Wikipedia.
    const failed = await (await callOperation(service, 'wikipedia_search', { query: 'warm up' })).json();
    expect(failed.providers).toMatchObject([{ provider: 'wikipedia', status: 'error' }]);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it("gives a suspended Wikipedia's slot to the next step, and says it was passed over", async () => {
    const response = await callOperation(service, 'auto_research', { query: 'what is rust', depth: 1 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.plan.map((step: Step) => step.operation)).toEqual(['web_search', 'github_search']);
    expect(body.suspended).toEqual(['wikipedia']);
    expect(body.sections.map((section: Section) => section.code)).not.toContain('PROVIDER_SUSPENDED');
    const github = body.sections.find((section: Section) => section.operation === 'github_search');
    expect(github.output.providers).toMatchObject([{ provider: 'github', status: 'ok' }]);
    expect(github.output.results.length).toBeGreaterThan(0);
  });

  it('plans neither when both are suspended, and names both', async () => {
    const failed = await (await callOperation(service, 'github_search', { query: 'outage' })).json();
    expect(failed.providers).toMatchObject([{ provider: 'github', status: 'error' }]);
    const searchesBefore = upstream.requestsTo('/github/search/repositories').length;
    const body = await (await callOperation(service, 'auto_research', { query: 'what is rust', depth: 1 })).json();
    expect(body.plan.map((step: Step) => step.operation)).toEqual(['web_search']);
    expect(body.suspended).toEqual(['wikipedia', 'github']);
    expect(upstream.requestsTo('/github/search/repositories')).toHaveLength(searchesBefore);
    // A model reads the text: it says so under the plan, as routing's `suspended, not chosen` does.
    const text = autoResearch.render(body, { query: 'what is rust', depth: 1 });
    expect(text.split('\n').slice(0, 3)).toEqual([
      'Plan for "what is rust" (depth 1):',
      expect.stringMatching(/^1\. web_search /),
      'suspended, not planned: wikipedia, github',
    ]);
  });
});
