import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { isRecord } from '../../src/providers/parse-helpers.js';
import type { PaperIdentifier } from '../../src/providers/provider.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, rejection, response, runLookup, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/semanticscholar/${name}`, import.meta.url), 'utf8');
const SEARCH = '/s2/graph/v1/paper/search';
const FIELDS = 'title,url,abstract,authors,year,venue,publicationVenue,publicationDate,externalIds,citationCount,openAccessPdf,journal';

describe('semanticscholar adapter', () => {
  const upstream = useFakeUpstream();

  it('calls /graph/v1/paper/search without a key header when no key is set and parses every paper', async () => {
    upstream.json(`GET ${SEARCH}`, fixture('search.json'));
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    const items = await runProvider(provider, makeQuery('rank fusion', 'papers', 2));
    const request = upstream.requestsTo(SEARCH).at(-1)!;
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ query: 'rank fusion', offset: '0', limit: '2', fields: FIELDS });
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(items).toEqual([
      {
        title: 'Reciprocal Rank Fusion Revisited',
        url: 'https://www.semanticscholar.org/paper/aaaa000000000000000000000000000000000001',
        snippet: 'We revisit RRF. Effects held for p<0.05 and k>60 & beyond.',
        published_at: '2021-07-11',
        authors: ['Gordon Cormack', 'Charles Clarke'],
        year: 2021,
        venue: 'International ACM SIGIR Conference',
        abstract: 'We revisit RRF. Effects held for p<0.05 and k>60 & beyond.',
        doi: '10.1145/abc.123',
        arxiv_id: '2105.00001',
        pmid: '34000001',
        pdf_url: 'https://arxiv.org/pdf/2105.00001.pdf',
        citation_count: 42,
      },
      {
        title: 'A Paper Without Extras',
        url: 'https://www.semanticscholar.org/paper/bbbb000000000000000000000000000000000002',
        published_at: '2019',
        year: 2019,
        citation_count: 0,
      },
    ]);
  });

  it('sends x-api-key when configured, also through the SEMANTIC_SCHOLAR_ alias for the base URL', async () => {
    upstream.json(`GET ${SEARCH}`, fixture('search.json'));
    const provider = makeProvider(SemanticScholarProvider, {
      SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2`,
      SEMANTIC_SCHOLAR_API_KEY: 's2-key-5678',
    });
    await runProvider(provider, makeQuery('rank fusion', 'papers', 2));
    expect(upstream.requestsTo(SEARCH).at(-1)!.headers['x-api-key']).toBe('s2-key-5678');
    expect(provider.missingSettings()).toEqual([]);
  });

  it('passes year and openAccessPdf filters natively, caps the limit and unhyphenates the query', () => {
    const provider = makeProvider(SemanticScholarProvider);
    const url = new URL(provider.buildRequest(makeQuery('self-attention nets', 'papers', 500, { year_from: 2016, year_to: 2020, open_access: true })).url);
    expect(url.searchParams.get('query')).toBe('self attention nets');
    expect(url.searchParams.get('limit')).toBe('100');
    expect(url.searchParams.get('year')).toBe('2016-2020');
    expect(url.search.endsWith('&openAccessPdf')).toBe(true);
    const single = new URL(provider.buildRequest(makeQuery('x', 'papers', 5, { year_from: 2020, year_to: 2020 })).url);
    expect(single.searchParams.get('year')).toBe('2020');
    const openEnded = new URL(provider.buildRequest(makeQuery('x', 'papers', 5, { year_to: 2015 })).url);
    expect(openEnded.searchParams.get('year')).toBe('-2015');
    expect(openEnded.searchParams.has('openAccessPdf')).toBe(false);
  });

  it('leaves excluded terms out of the query rather than searching for them once their hyphen is gone', async () => {
    upstream.json(`GET ${SEARCH}`, { total: 0, offset: 0 });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    await runProvider(provider, makeQuery('transformer -vision self-attention -"image patches" at -40 degrees', 'papers', 2));
    // -40 is a number, not an excluded term: it stays, as 40 once hyphens are spaces.
    expect(upstream.requestsTo(SEARCH).at(-1)!.url.searchParams.get('query')).toBe('transformer self attention at 40 degrees');
  });

  it('leaves a term after an upper-case NOT out too, wherever it is, and keeps a lower-case not and a quoted NOT', async () => {
    upstream.json(`GET ${SEARCH}`, { total: 0, offset: 0 });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    await runProvider(provider, makeQuery('transformer NOT vision AND NOT "image patches" "NOT attention" why not', 'papers', 2));
    expect(upstream.requestsTo(SEARCH).at(-1)!.url.searchParams.get('query')).toBe('transformer "NOT attention" why not');
  });

  it('leaves the words of NOT (a OR b) out', async () => {
    upstream.json(`GET ${SEARCH}`, { total: 0, offset: 0 });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    await runProvider(provider, makeQuery('transformer NOT (vision OR "image patches") attention', 'papers', 2));
    expect(upstream.requestsTo(SEARCH).at(-1)!.url.searchParams.get('query')).toBe('transformer attention');
  });

  it('searches a query written in capitals for all its words, its NOT too', async () => {
    upstream.json(`GET ${SEARCH}`, { total: 0, offset: 0 });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    // Not skipped as a query of excluded terms alone.
    expect(provider.queryProblem!('NOT FOUND')).toBeUndefined();
    await runProvider(provider, makeQuery('NOT FOUND', 'papers', 2));
    expect(upstream.requestsTo(SEARCH).at(-1)!.url.searchParams.get('query')).toBe('NOT FOUND');
  });

  it('finds nothing to search for in excluded terms alone, and sends no request for them', async () => {
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    expect(provider.queryProblem!('-vision -"image patches"')).toBe(
      'the query has no words Semantic Scholar can search for (it cannot exclude words: -word terms are left out)',
    );
    expect(provider.queryProblem!('self-attention')).toBeUndefined();
    const before = upstream.requestsTo(SEARCH).length;
    expect((await rejection(runProvider(provider, makeQuery('-vision', 'papers')))).code).toBe('QUERY_INVALID');
    expect(upstream.requestsTo(SEARCH).length).toBe(before);
  });

  it('reads a single-paper body (GET /graph/v1/paper/{id}) as one item', () => {
    const outcome = makeProvider(SemanticScholarProvider).parseResponse(response(fixture('paper.json')), makeQuery('q', 'papers'));
    expect(outcome).toEqual({
      items: [
        {
          title: 'Computing Machinery and Intelligence',
          url: 'https://www.semanticscholar.org/paper/cccc000000000000000000000000000000000003',
          published_at: '1950-10-01',
          authors: ['A. Turing'],
          year: 1950,
          venue: 'Mind',
          doi: '10.1093/mind/lix.236.433',
          citation_count: 9000,
        },
      ],
    });
  });

  it('lists an author the graph repeats under one authorId once, and keeps namesakes with other ids', () => {
    const outcome = makeProvider(SemanticScholarProvider).parseResponse(response(fixture('paper-repeated-author.json')), makeQuery('x', 'papers'));
    expect('items' in outcome && outcome.items.map((item) => item.authors)).toEqual([['D. Example', 'J. Smith', 'J. Smith', 'A. Nobody', 'A. Nobody']]);
  });

  it('reads an empty search without data as no results', async () => {
    upstream.json(`GET ${SEARCH}`, { total: 0, offset: 0 });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    expect(await runProvider(provider, makeQuery('n0 r3sult', 'papers'))).toEqual([]);
  });

  it('throws an upstream error for an error body sent with HTTP 200, and describes error bodies', async () => {
    upstream.json(`GET ${SEARCH}`, { message: 'Internal Server Error' });
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    const error = await rejection(runProvider(provider, makeQuery('q', 'papers')));
    expect(error.code).toBe('PROVIDER_UPSTREAM');
    expect(error.message).toBe('Semantic Scholar: Internal Server Error');
    expect(provider.describeError(response('{"error":"Unrecognized or unsupported fields: [tldr]"}', 400))).toBe(
      'Unrecognized or unsupported fields: [tldr]',
    );
    expect(provider.describeError(response('<html>502</html>', 502))).toBeUndefined();
  });

  it('puts the described message of a 429 into the rate-limit error', async () => {
    upstream.json(`GET ${SEARCH}`, { message: 'Too Many Requests. Please wait and try again or apply for a key.' }, 429);
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    const error = await rejection(runProvider(provider, makeQuery('q', 'papers')));
    expect(error.code).toBe('PROVIDER_RATE_LIMITED');
    expect(error.message).toContain('Too Many Requests');
  });

  it('turns truncated JSON and an HTML page into parse errors', async () => {
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    upstream.json(`GET ${SEARCH}`, '{"total": 2, "data": [{"paperId": "a", "title": "Cut');
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
    upstream.on(`GET ${SEARCH}`, { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<!doctype html><html><body>Gateway</body></html>' });
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
  });

  describe('lookup', () => {
    const PAPER = '/s2/graph/v1/paper';
    const pathOf = (identifier: PaperIdentifier): string | undefined => {
      const request = makeProvider(SemanticScholarProvider).buildLookupRequest(identifier);
      return request && new URL(request.url).pathname;
    };

    it('gets /graph/v1/paper/{paper_id} with the search fields for every identifier type and parses the one paper', async () => {
      const provider = makeProvider(SemanticScholarProvider, {
        SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2`,
        SEMANTIC_SCHOLAR_API_KEY: 's2-key-5678',
      });
      const cases: Array<[PaperIdentifier, string]> = [
        [{ type: 'doi', value: '10.5555/lookup.2020.3' }, 'DOI:10.5555/lookup.2020.3'],
        [{ type: 'arxiv', value: '2401.00007' }, 'ARXIV:2401.00007'],
        [{ type: 'pmid', value: '32000003' }, 'PMID:32000003'],
        // The API's form is PMCID:<digits>, without `PMC` (its example: PMCID:2323736).
        [{ type: 'pmcid', value: 'PMC7000003' }, 'PMCID:7000003'],
        [{ type: 's2', value: 'dddd000000000000000000000000000000000004' }, 'dddd000000000000000000000000000000000004'],
        [{ type: 's2', value: 'CorpusId:215416146' }, 'CorpusId:215416146'],
      ];
      for (const [identifier, paperId] of cases) {
        upstream.json(`GET ${PAPER}/${paperId}`, fixture('paper-lookup.json'));
        const items = await runLookup(provider, identifier);
        const request = upstream.requestsTo(`${PAPER}/${paperId}`).at(-1)!;
        expect(Object.fromEntries(request.url.searchParams)).toEqual({ fields: FIELDS });
        expect(request.headers['x-api-key']).toBe('s2-key-5678');
        expect(items).toEqual([
          {
            title: 'Looking Papers Up by Identifier',
            url: 'https://www.semanticscholar.org/paper/dddd000000000000000000000000000000000004',
            snippet: 'One paper, found by its id.',
            published_at: '2020-07-14',
            authors: ['Grace Hopper'],
            year: 2020,
            venue: 'Journal of Lookups',
            abstract: 'One paper, found by its id.',
            doi: '10.5555/lookup.2020.3',
            arxiv_id: '2401.00007',
            pmid: '32000003',
            pdf_url: 'https://arxiv.org/pdf/2401.00007',
            citation_count: 12,
          },
        ]);
      }
    });

    it('gives an arXiv paper without openAccessPdf the PDF arXiv serves for its id', async () => {
      const path = `${PAPER}/ARXIV:2201.00005`;
      upstream.json(`GET ${path}`, fixture('paper-arxiv-only.json'));
      const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
      const [item] = await runLookup(provider, { type: 'arxiv', value: '2201.00005' });
      expect(upstream.requestsTo(path)).toHaveLength(1);
      expect([item?.arxiv_id, item?.pdf_url]).toEqual(['2201.00005', 'https://arxiv.org/pdf/2201.00005']);
    });

    it('keeps the slashes of a DOI or old-style arXiv id and percent-encodes reserved characters', () => {
      expect(pathOf({ type: 'doi', value: '10.1002/(sici)1097-4636(199706)35:4<437::aid-jbm4>3.0.co;2-x' })).toBe(
        '/graph/v1/paper/DOI:10.1002/(sici)1097-4636(199706)35%3A4%3C437%3A%3Aaid-jbm4%3E3.0.co%3B2-x',
      );
      expect(pathOf({ type: 'arxiv', value: 'hep-th/9901001v2' })).toBe('/graph/v1/paper/ARXIV:hep-th/9901001');
      expect(pathOf({ type: 's2', value: '215416146' })).toBe('/graph/v1/paper/CorpusId:215416146');
    });

    it('reads the 404 for an unknown paper as no result, but still reports other errors', async () => {
      const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
      upstream.json(`GET ${PAPER}/DOI:10.5555/none`, { error: 'Paper with id DOI:10.5555/none not found' }, 404);
      expect(await runLookup(provider, { type: 'doi', value: '10.5555/none' })).toEqual([]);
      upstream.json(`GET ${PAPER}/DOI:10.5555/none`, { error: 'Unrecognized or unsupported fields: [tldr]' }, 400);
      const error = await rejection(runLookup(provider, { type: 'doi', value: '10.5555/none' }));
      expect(error.code).toBe('PROVIDER_HTTP');
      expect(error.message).toContain('Unrecognized or unsupported fields');
    });

    it('builds no request for a value that is not an id of its type', () => {
      expect(pathOf({ type: 's2', value: 'not-a-paper-id' })).toBeUndefined();
      expect(pathOf({ type: 'pmid', value: 'PMC6400001' })).toBeUndefined();
      expect(pathOf({ type: 'pmcid', value: '6400001' })).toBeUndefined();
      expect(pathOf({ type: 'doi', value: 'no doi' })).toBeUndefined();
    });
  });
});

const semanticScholar = makeProvider(SemanticScholarProvider);
// The Graph API answers JSON only: a page of papers for /paper/search, one paper for /paper/{paper_id}.
const semanticScholarSends = {
  sent: [semanticScholar.buildRequest(makeQuery('q', 'papers')), semanticScholar.buildLookupRequest({ type: 'doi', value: '10.1000/xyz' })!],
  formatOf: (request: RequestLine) => endpointOf(request).replace(/^(\w+ \/graph\/v1\/paper)\/(?!search$).+$/, '$1/{paper_id}'),
};

describeSharedFixtures('semanticscholar', semanticScholarSends, (fixtures) => {
  // A body recorded for GET /graph/v1/paper/DOI:<doi> answers a DOI lookup: a 404 there means "no such paper".
  for (const fixture of fixtures) {
    const path = fixture.answers.url.pathname;
    const doi = /^\/graph\/v1\/paper\/DOI:(.+)$/.exec(path)?.[1];
    if (!doi) continue;
    it(`${fixture.file}: answers the lookup of DOI ${doi} (HTTP ${fixture.status}) with that paper or nothing`, () => {
      const provider = makeProvider(SemanticScholarProvider);
      const request = provider.buildLookupRequest({ type: 'doi', value: doi })!;
      expect(new URL(request.url).pathname).toBe(path);
      expect(request.acceptStatuses).toContain(404);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery(doi, 'papers', 1));
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(fixture.status === 404 ? 0 : 1);
      // Outside a lookup the same 404 is an HTTP error, described by its message.
      if (fixture.status === 404) expect(provider.describeError(response(fixture.body, 404))).toBe((JSON.parse(fixture.body) as { error: string }).error);
      for (const item of items) {
        expect(item.doi).toBe(doi.toLowerCase());
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
      }
    });
  }
  for (const fixture of fixtures) {
    if (fixture.status === 404) continue;
    it(`${fixture.file}: every paper is parsed, or the error body throws and is described`, () => {
      const provider = makeProvider(SemanticScholarProvider);
      const body = JSON.parse(fixture.body) as Record<string, unknown>;
      const parse = () => provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q', 'papers'));
      if (fixture.status >= 400 || typeof body.error === 'string') {
        expect(parse).toThrow(FedsearchError);
        expect(provider.describeError(response(fixture.body, fixture.status))).toBe(body.error ?? body.message);
        return;
      }
      const papers = Array.isArray(body.data) ? body.data.filter(isRecord) : [];
      const outcome = parse();
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(papers.length);
      items.forEach((item, index) => {
        const paper = papers[index]!;
        const ids = (isRecord(paper.externalIds) ? paper.externalIds : {}) as Record<string, unknown>;
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
        expect(item.doi).toBe(typeof ids.DOI === 'string' ? ids.DOI.toLowerCase() : undefined);
        expect(item.arxiv_id).toBe(ids.ArXiv);
        expect(item.pmid).toBe(ids.PubMed);
        expect(item.citation_count).toBe(paper.citationCount ?? undefined);
        const pdf = isRecord(paper.openAccessPdf) && paper.openAccessPdf.url ? String(paper.openAccessPdf.url) : undefined;
        // Addresses come back normalised: a space in a repository's PDF path is sent as %20. A recorded arXiv paper
        // without openAccessPdf (2201.11990, 1410.5401) gets the PDF arXiv serves for its id.
        const arxivPdf = typeof ids.ArXiv === 'string' ? `https://arxiv.org/pdf/${ids.ArXiv}` : undefined;
        expect(item.pdf_url).toBe(pdf === undefined ? arxivPdf : new URL(pdf).toString());
        // One author per authorId: the graph now and then lists an author twice under the same id.
        const authorIds = (Array.isArray(paper.authors) ? paper.authors : []).map((author, position) =>
          isRecord(author) && typeof author.authorId === 'string' ? author.authorId : `#${position}`,
        );
        expect(item.authors?.length ?? 0).toBe(new Set(authorIds).size);
        expect(item.abstract === undefined).toBe(!paper.abstract);
        expect(item.year).toBe(paper.year ?? undefined);
      });
    });
  }
});
