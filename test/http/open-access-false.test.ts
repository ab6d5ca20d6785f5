import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const CROSSREF_PATH = '/crossref/works';
const OPENALEX_PATH = '/openalex/works';

/**
 * `open_access: false` asks for every paper, open or not, as leaving it out does (only `true` narrows). Crossref has
 * no open-access filter, so a search with `true` skips it; one with `false` must ask it, and send no filter for it to
 * any provider.
 */
describe('open_access false, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Crossref's work list (https://api.crossref.org/swagger-ui/index.html): only the fields the adapter reads.
    upstream.json(CROSSREF_PATH, {
      status: 'ok',
      'message-type': 'work-list',
      message: {
        items: [{ DOI: '10.1038/nature14539', title: ['Deep learning'], URL: 'https://doi.org/10.1038/nature14539', issued: { 'date-parts': [[2015]] } }],
      },
    });
    // An OpenAlex work list (https://docs.openalex.org/api-entities/works): one closed-access work.
    upstream.json(OPENALEX_PATH, {
      meta: { count: 1, page: 1, per_page: 25 },
      results: [
        {
          id: 'https://openalex.org/W1',
          doi: 'https://doi.org/10.1000/closed.1',
          title: 'A closed-access paper',
          display_name: 'A closed-access paper',
          publication_year: 2021,
          type: 'article',
          open_access: { is_oa: false },
          authorships: [],
        },
      ],
    });
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('asks Crossref, which cannot tell open access, and sends no open-access filter anywhere', async () => {
    const response = await request(service.origin, '/v1/search/papers?q=deep+learning&providers=crossref,openalex&open_access=false');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers.map((outcome: { provider: string; status: string }) => [outcome.provider, outcome.status])).toEqual([
      ['crossref', 'ok'],
      ['openalex', 'ok'],
    ]);
    expect(body.results.map((result: { title: string }) => result.title).sort()).toEqual(['A closed-access paper', 'Deep learning']);
    const [crossref] = upstream.requestsTo(CROSSREF_PATH);
    expect(crossref?.url.searchParams.has('filter')).toBe(false);
    const [openalex] = upstream.requestsTo(OPENALEX_PATH);
    expect(openalex?.url.searchParams.has('filter')).toBe(false);
  });

  it('is answered as the same search without it, through the operation too', async () => {
    const asked = upstream.requestsTo(CROSSREF_PATH).length;
    const response = await callOperation(service, 'paper_search', { query: 'deep learning', providers: ['crossref'], open_access: false });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers).toMatchObject([{ provider: 'crossref', status: 'ok', count: 1 }]);
    expect(upstream.requestsTo(CROSSREF_PATH)).toHaveLength(asked + 1);
  });

  it('still skips Crossref when open-access papers alone are asked for', async () => {
    const body = await (await request(service.origin, '/v1/search/papers?q=deep+learning&providers=crossref&open_access=true')).json();
    expect(body.providers).toMatchObject([{ provider: 'crossref', status: 'skipped', message: 'cannot filter by open_access' }]);
  });
});

const CROSSREF = '/crossref/works';
const WORKS = readFileSync(new URL('../fixtures/crossref/works-query.json', import.meta.url), 'utf8');

type Answer = { cached: boolean; results: Array<{ url: string }>; providers: Array<{ provider: string; status: string }> };

/**
 * `open_access` asks for open-access papers only when true; no API has a closed-access filter. `false` is the search
 * without the filter: Crossref, which cannot tell open access, must not be skipped for it, and the answer is the one
 * kept for the same search without it.
 */
describe('open_access=false in the answer cache', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(CROSSREF, WORKS);
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('asks a provider that cannot filter by open access, and shares one cached answer with the search without it', async () => {
    const recorded = (JSON.parse(WORKS) as { message: { items: unknown[] } }).message.items.length;
    const withFalse = (await (await request(service.origin, '/v1/search/papers?q=graphene+sheets&providers=crossref&open_access=false')).json()) as Answer;
    expect(withFalse.providers).toEqual([expect.objectContaining({ provider: 'crossref', status: 'ok' })]);
    expect(withFalse.results).toHaveLength(recorded);

    const without = (await (await request(service.origin, '/v1/search/papers?q=graphene+sheets&providers=crossref')).json()) as Answer;
    expect(without.cached).toBe(true);
    expect(without.results).toEqual(withFalse.results);

    const viaOperation = (await (
      await callOperation(service, 'paper_search', { query: 'graphene sheets', providers: ['crossref'], open_access: false })
    ).json()) as Answer;
    expect(viaOperation.cached).toBe(true);
    expect(upstream.requestsTo(CROSSREF)).toHaveLength(1);
  });
});
