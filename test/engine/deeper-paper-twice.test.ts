import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const TITLE = 'Federated ranking of scholarly search results across heterogeneous indexes';

/** OpenAlex works, as many as `per_page` asks for: y1 … y5, then the paper Semantic Scholar has first. */
function openalexWorks(perPage: number) {
  const subjects = ['Coral reef acoustics', 'Glacier melt modelling', 'Bee colony collapse', 'Soil carbon flux', 'Urban heat islands'];
  const works = subjects.map((subject, index) => ({ id: `https://openalex.org/W${index + 1}`, display_name: subject, publication_year: 2020 }));
  works.push({ id: 'https://openalex.org/W99', display_name: TITLE, publication_year: 2020 });
  return { meta: { count: works.length }, results: works.slice(0, perPage) };
}

describe('a paper page after a kept list', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/semanticscholar/graph/v1/paper/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      // Known by its Semantic Scholar id only: no DOI, arXiv id or PMID to match it by.
      body: JSON.stringify({ total: 1, offset: 0, data: [{ paperId: 'a'.repeat(40), title: TITLE, year: 2020 }] }),
    });
    upstream.on('/openalex/works', {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response: ServerResponse) => {
        const perPage = Number(recorded.url.searchParams.get('per_page'));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openalexWorks(perPage)));
      },
    });
    // OpenAlex weighs more: where it lists the paper too, its link leads the merged result.
    service = await startService({ ...providerEnv(upstream.origin), OPENALEX_WEIGHT: '2', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('never shows a paper again that an earlier page of the list showed, found deeper under another link', async () => {
    const base = `/v1/search/papers?q=federated+ranking&providers=semanticscholar,openalex&limit=3`;
    const first = await (await request(service.origin, `${base}&page=1`)).json();
    expect(first.results).toHaveLength(3);
    // Page 2 needs a deeper list: OpenAlex gave all 4 it was asked for. Its 6th work is Semantic Scholar's paper.
    const second = await (await request(service.origin, `${base}&page=2`)).json();
    const shown = [...first.results, ...second.results].map((result: { title: string }) => result.title);
    expect(shown.filter((title) => title === TITLE)).toHaveLength(1);
  });
});
