import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/** A book whose chapters have no DOI of their own: OpenAlex gives each the book's landing page. */
const BOOK = 'https://www.taylorfrancis.com/books/edit/10.4324/9781003000000/climate-field-methods';
const TITLES = [
  'Soil carbon flux in boreal peatlands',
  'Coral reef acoustics',
  'Glacier melt modelling',
  'Bee colony collapse',
  'Urban heat islands and street canyon ventilation',
  'Permafrost thaw lakes',
];

/** OpenAlex works, as many as `per_page` asks for; the first and the fifth are chapters of one book. */
function openalexWorks(perPage: number) {
  const works = TITLES.map((title, index) => ({
    id: `https://openalex.org/W${index + 1}`,
    display_name: title,
    publication_year: 2020,
    type: 'book-chapter',
    primary_location: { landing_page_url: index === 0 || index === 4 ? BOOK : `https://journals.example/article/${index + 1}` },
  }));
  return { meta: { count: works.length }, results: works.slice(0, perPage) };
}

describe('a paper page after a kept list, under a link a listed paper has', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/openalex/works', {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response: ServerResponse) => {
        const perPage = Number(recorded.url.searchParams.get('per_page'));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openalexWorks(perPage)));
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('shows the other chapter of a book on a later page: one link, two works', async () => {
    const base = `/v1/search/papers?q=climate+field+methods&providers=openalex&limit=3`;
    const first = await (await request(service.origin, `${base}&page=1`)).json();
    // Page 2 needs a deeper list: OpenAlex gave all 4 it was asked for. Its 5th work shares the 1st one's link.
    const second = await (await request(service.origin, `${base}&page=2`)).json();
    const shown = [...first.results, ...second.results].map((result: { title: string }) => result.title);
    expect(shown.sort()).toEqual([...TITLES].sort());
    expect(second.results.map((result: { url: string }) => result.url)).toContain(BOOK);
  });
});
