import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runLookup, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/crossref/${name}`, import.meta.url), 'utf8');

describe('crossref adapter', () => {
  const upstream = useFakeUpstream();

  it('calls /works with query, rows, year filter and mailto, and parses every work', async () => {
    upstream.json('GET /crossref/works', fixture('works-query.json'));
    const provider = makeProvider(CrossrefProvider, {
      CROSSREF_MAILTO: 'team@example.org',
      CROSSREF_BASE_URL: `${upstream.origin}/crossref`,
    });
    const items = await runProvider(provider, makeQuery('rank fusion', 'papers', 3, { year_from: 2018, year_to: 2020 }));
    const request = upstream.requestsTo('/crossref/works').at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url.searchParams.get('query')).toBe('rank fusion');
    expect(request.url.searchParams.get('rows')).toBe('3');
    expect(request.url.searchParams.get('filter')).toBe('from-pub-date:2018,until-pub-date:2020');
    expect(request.url.searchParams.get('mailto')).toBe('team@example.org');
    expect(request.headers.authorization).toBeUndefined();
    expect(items).toEqual([
      {
        title: 'Rank fusion for federated search',
        url: 'http://dx.doi.org/10.1234/fedsearch.2019.001',
        authors: ['Ada Lovelace', 'Fusion Working Group'],
        year: 2019,
        published_at: '2019-06-03',
        venue: 'Journal of Search',
        abstract: 'We fuse & rank many lists.',
        snippet: 'We fuse & rank many lists.',
        // Its only PDF link is for text mining and the work names no open license: no pdf_url (see works-pdf-links.json).
        doi: '10.1234/fedsearch.2019.001',
        citation_count: 42,
        extra: { type: 'journal-article' },
      },
      {
        // No title: shown by its container and DOI rather than dropped.
        title: 'Search Data Archive (10.5555/dataset.77)',
        url: 'https://doi.org/10.5555/dataset.77',
        year: 2021,
        published_at: '2021',
        venue: 'Search Data Archive',
        doi: '10.5555/dataset.77',
        citation_count: 0,
        extra: { type: 'dataset' },
      },
      {
        title: 'A preprint without an issue date',
        url: 'https://doi.org/10.5555/preprint.9',
        year: 2020,
        published_at: '2020-02',
        doi: '10.5555/preprint.9',
        extra: { type: 'posted-content' },
      },
    ]);
  });

  it('leaves excluded terms out of the query, which scores works by any word it is given, and keeps -40 and covid-19', async () => {
    upstream.json('GET /crossref/works', { status: 'ok', 'message-type': 'work-list', message: { items: [] } });
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    await runProvider(provider, makeQuery('covid-19 vaccine -mice -"case report" at -40', 'papers', 3));
    expect(upstream.requestsTo('/crossref/works').at(-1)!.url.searchParams.get('query')).toBe('covid-19 vaccine at -40');
    expect(provider.queryProblem!('-mice')).toBe('the query has no words Crossref can search for (it cannot exclude words: -word terms are left out)');
  });

  it('leaves a term after an upper-case NOT out too, wherever it is, and keeps a lower-case not', async () => {
    upstream.json('GET /crossref/works', { status: 'ok', 'message-type': 'work-list', message: { items: [] } });
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    await runProvider(provider, makeQuery('covid-19 vaccine NOT mice OR NOT "case report" not effective', 'papers', 3));
    expect(upstream.requestsTo('/crossref/works').at(-1)!.url.searchParams.get('query')).toBe('covid-19 vaccine not effective');
  });

  it('leaves the words of NOT (a OR b) out', async () => {
    upstream.json('GET /crossref/works', { status: 'ok', 'message-type': 'work-list', message: { items: [] } });
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    await runProvider(provider, makeQuery('covid-19 vaccine NOT (mice OR "case report")', 'papers', 3));
    expect(upstream.requestsTo('/crossref/works').at(-1)!.url.searchParams.get('query')).toBe('covid-19 vaccine');
  });

  it('searches a query written in capitals for all its words, its NOT too', async () => {
    upstream.json('GET /crossref/works', { status: 'ok', 'message-type': 'work-list', message: { items: [] } });
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    await runProvider(provider, makeQuery('NOT INVENTED HERE', 'papers', 3));
    expect(upstream.requestsTo('/crossref/works').at(-1)!.url.searchParams.get('query')).toBe('NOT INVENTED HERE');
  });

  it('gives a PDF link a reader can open: general ones, and text-mining ones of Creative Commons works only', async () => {
    upstream.json('GET /crossref/works', fixture('works-pdf-links.json'));
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    const items = await runProvider(provider, makeQuery('pdf links', 'papers', 5));
    expect(items.map((item) => [item.doi, item.pdf_url])).toEqual([
      ['10.5555/open.1', 'https://publisher.example/content/open.1.pdf'],
      // A publisher's own text-mining license opens nothing to a reader.
      ['10.5555/closed.2', undefined],
      // Deposited for Crossref's Similarity Check crawler, whatever the license.
      ['10.5555/crawler.3', undefined],
      ['10.5555/general.4', 'https://publisher.example/full/general.4.pdf'],
      // The license covers the accepted manuscript, the link is the published version.
      ['10.5555/accepted.5', undefined],
    ]);
  });
  it('sends neither mailto nor filter when they are not set', async () => {
    upstream.json('GET /crossref/works', fixture('works-query.json'));
    const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
    await runProvider(provider, makeQuery('rank fusion', 'papers', 250));
    const request = upstream.requestsTo('/crossref/works').at(-1)!;
    expect(request.url.searchParams.has('mailto')).toBe(false);
    expect(request.url.searchParams.has('filter')).toBe(false);
    expect(request.url.searchParams.get('rows')).toBe('100');
  });

  it('shows the start of a long abstract as the snippet, cut at a word break, the abstract kept whole', () => {
    // 40 × "ranking " then "lists.": 326 characters. The 300th falls inside the 38th "ranking"; the cut goes back
    // to the space before it, as arXiv, PubMed and Semantic Scholar snippets are cut.
    const abstract = `${'ranking '.repeat(40)}lists.`;
    const body = JSON.stringify({
      status: 'ok',
      'message-type': 'work-list',
      message: { items: [{ DOI: '10.5555/long.abstract', title: ['Long abstract'], abstract: `<jats:title>Abstract</jats:title><jats:p>${abstract}</jats:p>` }] },
    });
    const outcome = makeProvider(CrossrefProvider).parseResponse(response(body), makeQuery('ranking', 'papers'));
    const [item] = 'items' in outcome ? outcome.items : [];
    expect(item?.abstract).toBe(abstract);
    expect(item?.snippet).toBe(`${'ranking '.repeat(36)}ranking…`);
  });

  it('reads a single-work body (GET /works/{doi})', () => {
    const provider = makeProvider(CrossrefProvider);
    const outcome = provider.parseResponse(response(fixture('work.json')), makeQuery('x', 'papers'));
    expect(outcome).toEqual({
      items: [
        {
          title: 'One work by DOI',
          url: 'https://doi.org/10.1234/single.5',
          authors: ['Grace Hopper'],
          year: 2001,
          published_at: '2001-12-09',
          doi: '10.1234/single.5',
          extra: { type: 'book-chapter' },
        },
      ],
    });
  });

  it('needs no setting to run', () => {
    expect(makeProvider(CrossrefProvider).missingSettings()).toEqual([]);
  });

  it('describes error bodies briefly and throws on a failure body', () => {
    const provider = makeProvider(CrossrefProvider);
    const failure = fixture('error-validation.json');
    expect(provider.describeError(response(failure, 400))).toBe('This route does not support bogus');
    expect(provider.describeError(response('Resource not found.', 404))).toBe('Resource not found.');
    expect(provider.describeError(response('<html><body>Bad gateway</body></html>', 502))).toBeUndefined();
    expect(() => provider.parseResponse(response(failure), makeQuery('x', 'papers'))).toThrow(FedsearchError);
  });

  describe('lookup', () => {
    it('gets /works/{doi} with mailto and parses the one work', async () => {
      upstream.json('GET /crossref/works/10.5555/lookup.2020.3', fixture('work-lookup.json'));
      const provider = makeProvider(CrossrefProvider, {
        CROSSREF_MAILTO: 'team@example.org',
        CROSSREF_BASE_URL: `${upstream.origin}/crossref`,
      });
      const items = await runLookup(provider, { type: 'doi', value: '10.5555/lookup.2020.3' });
      const request = upstream.requestsTo('/crossref/works/10.5555/lookup.2020.3').at(-1)!;
      expect(request.method).toBe('GET');
      expect(Object.fromEntries(request.url.searchParams)).toEqual({ mailto: 'team@example.org' });
      expect(items).toEqual([
        {
          title: 'Looking papers up by identifier',
          url: 'https://doi.org/10.5555/lookup.2020.3',
          authors: ['Grace Hopper'],
          year: 2020,
          published_at: '2020-07-14',
          venue: 'Journal of Lookups',
          doi: '10.5555/lookup.2020.3',
          citation_count: 12,
          extra: { type: 'journal-article' },
        },
      ]);
    });

    it('keeps the slashes of a DOI in the path and percent-encodes its reserved characters', async () => {
      const doi = '10.1002/(sici)1097-4636(199706)35:4<437::aid-jbm4>3.0.co;2-x';
      const path = '/crossref/works/10.1002/(sici)1097-4636(199706)35%3A4%3C437%3A%3Aaid-jbm4%3E3.0.co%3B2-x';
      upstream.json(`GET ${path}`, fixture('work-lookup.json'));
      const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
      expect(await runLookup(provider, { type: 'doi', value: doi })).toHaveLength(1);
      const request = upstream.requestsTo(path).at(-1)!;
      expect(request.url.search).toBe('');
      expect(decodeURIComponent(request.path.slice('/crossref/works/'.length))).toBe(doi);
      // A '#' or '?' in a DOI must not end the path.
      const url = new URL(provider.buildLookupRequest({ type: 'doi', value: '10.5555/a#b?c' })!.url);
      expect([url.pathname, url.search, url.hash]).toEqual(['/crossref/works/10.5555/a%23b%3Fc', '', '']);
    });

    it('reads the plain-text 404 for an unknown DOI as no result', async () => {
      upstream.on('GET /crossref/works/10.5555/none', {
        kind: 'respond',
        status: 404,
        headers: { 'content-type': 'text/plain' },
        body: 'Resource not found.',
      });
      const provider = makeProvider(CrossrefProvider, { CROSSREF_BASE_URL: `${upstream.origin}/crossref` });
      expect(await runLookup(provider, { type: 'doi', value: '10.5555/none' })).toEqual([]);
      expect(upstream.requestsTo('/crossref/works/10.5555/none')).toHaveLength(1);
    });

    it('builds no request for arXiv ids, PMIDs or Semantic Scholar ids', () => {
      const provider = makeProvider(CrossrefProvider);
      expect(provider.buildLookupRequest({ type: 'arxiv', value: '2401.00007' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 'pmid', value: '32000003' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 's2', value: 'dddd000000000000000000000000000000000004' })).toBeUndefined();
    });
  });
});

const crossref = makeProvider(CrossrefProvider);
// Crossref answers JSON only: a list for /works, one work for /works/{doi}.
const crossrefSends = {
  sent: [crossref.buildRequest(makeQuery('q', 'papers')), crossref.buildLookupRequest({ type: 'doi', value: '10.1000/xyz' })!],
  formatOf: (request: RequestLine) => endpointOf(request).replace(/^(\w+ \/works)\/.+$/, '$1/{doi}'),
};

describeSharedFixtures('crossref', crossrefSends, (fixtures) => {
  const provider = crossref;
  // A body recorded for GET /works/<doi> answers a DOI lookup: the work, or a 404 for a DOI Crossref lacks.
  for (const shared of fixtures) {
    const path = shared.answers.url.pathname;
    const doi = /^\/works\/(10\..+)$/.exec(path)?.[1];
    if (!doi) continue;
    it(`${shared.file}: answers the lookup of DOI ${doi} (HTTP ${shared.status}) with that work or nothing`, () => {
      const request = provider.buildLookupRequest({ type: 'doi', value: doi })!;
      expect(new URL(request.url).pathname).toBe(path);
      expect(request.acceptStatuses).toContain(404);
      const outcome = provider.parseResponse(response(shared.body, shared.status), makeQuery(doi, 'papers', 1));
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(shared.status === 404 ? 0 : 1);
      for (const item of items) {
        expect(item.doi).toBe(doi.toLowerCase());
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.url).toMatch(/^https?:\/\//);
      }
    });
  }
  for (const shared of fixtures) {
    if (shared.status === 404) {
      it(`${shared.file}: outside a lookup the 404 body is described for the HTTP error`, () => {
        const described = provider.describeError(response(shared.body, shared.status));
        expect(described).toBe(shared.body.trim());
      });
    } else if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every work is parsed with title, url and DOI`, () => {
        const message = (JSON.parse(shared.body) as { message: { items?: Array<{ DOI?: string }>; DOI?: string } }).message;
        const works = message.items ?? [message];
        const outcome = provider.parseResponse(response(shared.body, shared.status), makeQuery('q', 'papers'));
        const items = 'items' in outcome ? outcome.items : [];
        expect(items).toHaveLength(works.length);
        items.forEach((item, index) => {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https?:\/\//);
          if (works[index]!.DOI) expect(item.doi).toBe(works[index]!.DOI!.toLowerCase());
          for (const value of Object.values(item)) expect(value).not.toBe('');
        });
      });
    } else {
      it(`${shared.file}: the error body is described or rejected as a FedsearchError`, () => {
        const described = provider.describeError(response(shared.body, shared.status));
        expect(described === undefined || (described.length > 0 && described.length <= 160)).toBe(true);
        expect(() => provider.parseResponse(response(shared.body, shared.status), makeQuery('q', 'papers'))).toThrow(FedsearchError);
      });
    }
  }
});
