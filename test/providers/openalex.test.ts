import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runLookup, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/openalex/${name}`, import.meta.url), 'utf8');

describe('openalex adapter', () => {
  const upstream = useFakeUpstream();

  it('calls /works with search, per_page, filters and mailto, and parses every work', async () => {
    upstream.json('GET /openalex/works', fixture('works-search.json'));
    const provider = makeProvider(OpenAlexProvider, {
      OPENALEX_MAILTO: 'team@example.org',
      OPENALEX_BASE_URL: `${upstream.origin}/openalex`,
    });
    const query = makeQuery('rank fusion', 'papers', 3, { year_from: 2020, year_to: 2023, open_access: true });
    const items = await runProvider(provider, query);
    const request = upstream.requestsTo('/openalex/works').at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url.searchParams.get('search')).toBe('rank fusion');
    expect(request.url.searchParams.get('per_page')).toBe('3');
    expect(request.url.searchParams.get('filter')).toBe('publication_year:>2019,publication_year:<2024,is_oa:true');
    expect(request.url.searchParams.get('mailto')).toBe('team@example.org');
    expect(request.url.searchParams.get('select')?.split(',')).toContain('abstract_inverted_index');
    expect(items).toEqual([
      {
        title: 'Rank fusion at scale',
        url: 'https://doi.org/10.1234/fusion.2022.7',
        authors: ['Ada Lovelace', 'Charles Babbage'],
        year: 2022,
        published_at: '2022-03-14',
        venue: 'Journal of Fusion',
        abstract: 'Rank fusion beats single rankers, and fusion is cheap.',
        snippet: 'Rank fusion beats single rankers, and fusion is cheap.',
        doi: '10.1234/fusion.2022.7',
        pmid: '35000001',
        pdf_url: 'https://repository.example/fusion-oa.pdf',
        citation_count: 17,
        extra: { openalex_id: 'W1000000001', type: 'article', open_access: true },
      },
      {
        // oa_url is the arXiv landing page, not a PDF, and no location names one: the PDF is arXiv's own for the id.
        // Posted in April 2023, dated 2023-01-01 by OpenAlex (its stand-in for "year only"): the year is all the date says.
        title: 'A preprint about fusion',
        url: 'https://doi.org/10.48550/arxiv.2304.05376',
        year: 2023,
        published_at: '2023',
        venue: 'arXiv (Cornell University)',
        doi: '10.48550/arxiv.2304.05376',
        arxiv_id: '2304.05376',
        pdf_url: 'https://arxiv.org/pdf/2304.05376',
        citation_count: 0,
        extra: { openalex_id: 'W1000000002', type: 'preprint', open_access: true },
      },
      {
        title: 'OpenAlex work W1000000003',
        url: 'https://openalex.org/W1000000003',
        citation_count: 0,
        extra: { openalex_id: 'W1000000003', type: 'dataset', open_access: false },
      },
    ]);
  });

  it('sends an excluded -term after NOT, as OpenAlex documents boolean search, and leaves -40 and covid-19 as they are', async () => {
    upstream.json('GET /openalex/works', { meta: { count: 0 }, results: [] });
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    await runProvider(provider, makeQuery('covid-19 vaccine -mice -"case report" at -40', 'papers', 3));
    const request = upstream.requestsTo('/openalex/works').at(-1)!;
    expect(request.url.searchParams.get('search')).toBe('(covid-19 vaccine at -40) NOT (mice OR "case report")');
    expect(request.url.search).toContain('search=%28covid-19+vaccine+at+-40%29+NOT+%28mice+OR+%22case+report%22%29&');
    expect(provider.queryProblem!('-mice')).toBe('the query has no word to search for besides its excluded terms (-word)');
  });

  it('excludes the term of a NOT that an excluded term leaves first, leaving no NOT before the words', async () => {
    upstream.json('GET /openalex/works', { meta: { count: 0 }, results: [] });
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    await runProvider(provider, makeQuery('-mice NOT rats vaccine', 'papers', 3));
    // Not `(NOT rats vaccine) NOT mice`: OpenAlex's NOT joins the words before it to those after.
    expect(upstream.requestsTo('/openalex/works').at(-1)!.url.searchParams.get('search')).toBe('(vaccine) NOT (mice OR rats)');
    expect(provider.queryProblem!('-mice NOT rats')).toBe('the query has no word to search for besides its excluded terms (-word)');
  });

  it('leaves out * and ?, which its search answers with 400 (wildcards need search.exact), and skips a text of them alone', async () => {
    upstream.json('GET /openalex/works', { meta: { count: 0 }, results: [] });
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    await runProvider(provider, makeQuery('what is 1/2? C*-algebra -why?', 'papers', 3));
    const request = upstream.requestsTo('/openalex/works').at(-1)!;
    // The bytes on the wire: no %3F and no * left for OpenAlex to read as a wildcard, and NOT's rewrite intact.
    expect(request.url.search).toContain('?search=%28what+is+1%2F2+C-algebra%29+NOT+why&');
    expect(provider.queryProblem!('what is 1/2?')).toBeUndefined();
    expect(provider.queryProblem!(' * ?? ')).toBe('the query has no words OpenAlex can search for (it refuses the wildcards * and ?, which are left out)');
    expect(provider.queryProblem!('* -mice')).toBe('the query has no word to search for besides its excluded terms (-word)');
  });

  /** The search OpenAlex is sent for a text. */
  const searchSent = async (text: string): Promise<string | null> => {
    upstream.json('GET /openalex/works', { meta: { count: 0 }, results: [] });
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    await runProvider(provider, makeQuery(text, 'papers', 3));
    return upstream.requestsTo('/openalex/works').at(-1)!.url.searchParams.get('search');
  };

  it('is not asked a query of operators, quotes or parentheses alone, and sends a NOT opening a group before it', async () => {
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    const before = upstream.requestsTo('/openalex/works').length;
    for (const text of ['(', 'AND "', '( OR )']) {
      expect(provider.queryProblem!(text), text).toBe('the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation');
    }
    await expect(runProvider(provider, makeQuery('AND (', 'papers', 3))).rejects.toMatchObject({ code: 'QUERY_INVALID' });
    expect(upstream.requestsTo('/openalex/works').length).toBe(before);
    expect(await searchSent('vaccine (NOT mice)')).toBe('vaccine NOT (mice)');
  });

  /**
   * Deleting a wildcard that starts a term before a `-` (`*-algebra`, the involutive algebras of operator theory) left
   * `-algebra`, which was then sent as `NOT algebra`: the one word searched for excluded.
   */
  it('never turns a wildcard before a dash into an exclusion', async () => {
    expect(await searchSent('*-algebra representations')).toBe('algebra representations');
    expect(await searchSent('representations of ?-algebras')).toBe('representations of algebras');
    // A `-` typed at a term's start still excludes, and one inside a word (C*-algebra) is still no exclusion.
    expect(await searchSent('-*mice C*-algebra')).toBe('(C-algebra) NOT mice');
  });

  /** A text whose wildcards were all it had besides quotes or dashes (`"*"`) was sent as what they left (`""`). */
  it('skips a text with no letter or digit once its wildcards are out, as one of wildcards alone', () => {
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    const onlyWildcards = 'the query has no words OpenAlex can search for (it refuses the wildcards * and ?, which are left out)';
    expect(provider.queryProblem!('"*"')).toBe(onlyWildcards);
    expect(provider.queryProblem!('(?) -*')).toBe(onlyWildcards);
    expect(provider.queryProblem!('"?" 42')).toBeUndefined();
  });

  /**
   * Its rule asked for a letter or digit, where every provider's asks for a word (noWordProblem): `€` alone was sent,
   * `€?` skipped as wildcards alone.
   */
  it('sends what its wildcards leave when that is a word to every provider, a symbol past ASCII too', async () => {
    expect(await searchSent('€?')).toBe('€');
    expect(await searchSent('→* 🦀')).toBe('→ 🦀');
    expect(await searchSent('€')).toBe('€');
    // Punctuation or ASCII symbols alone are still no word.
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    expect(provider.queryProblem!('?!')).toBe('the query has no words OpenAlex can search for (it refuses the wildcards * and ?, which are left out)');
    expect(provider.queryProblem!('+*')).toBe('the query has no words OpenAlex can search for (it refuses the wildcards * and ?, which are left out)');
  });

  it('sends a NOT (a OR b) typed first after the words, as OpenAlex documents NOT between them', async () => {
    // Not `NOT (mice OR rats) vaccine`: a NOT with nothing before it.
    expect(await searchSent('NOT (mice OR rats) vaccine')).toBe('(vaccine) NOT (mice OR rats)');
    expect(await searchSent('vaccine NOT (mice OR rats)')).toBe('vaccine NOT (mice OR rats)');
  });

  it('sends AND NOT and -(a OR b) as the NOT OpenAlex documents between terms', async () => {
    // Its documented form: `(elmo AND "sesame street") NOT (cookie OR monster)`.
    expect(await searchSent('vaccine AND NOT mice')).toBe('(vaccine) NOT mice');
    expect(await searchSent('vaccine -(mice OR "case report")')).toBe('(vaccine) NOT (mice OR "case report")');
  });

  it('closes an unclosed group, and an unclosed phrase, rather than send OpenAlex unbalanced syntax', async () => {
    expect(await searchSent('vaccine NOT (mice OR rats')).toBe('vaccine NOT (mice OR rats)');
    expect(await searchSent('"mrna vaccine')).toBe('"mrna vaccine"');
    expect(await searchSent('vaccine OR')).toBe('vaccine');
  });

  it('sends the NOT of a query written in capitals as the word not', async () => {
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    // OpenAlex's operators are upper case: a lower-case not is a word to it.
    expect(await searchSent('NOT INVENTED HERE')).toBe('not INVENTED HERE');
    expect(provider.queryProblem!('NOT FOUND')).toBeUndefined();
  });

  it('asks for locations and takes the PDF of an open one, never of a closed one', async () => {
    upstream.json('GET /openalex/works', fixture('works-locations.json'));
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    const items = await runProvider(provider, makeQuery('green copies', 'papers', 3));
    expect(upstream.requestsTo('/openalex/works').at(-1)!.url.searchParams.get('select')?.split(',')).toContain('locations');
    // The publisher's PDF (first location, and primary) is closed: the open archive's copy is the one a reader gets.
    // The preprint's best location is arXiv's abstract page; the next location is that copy's PDF.
    expect(items.map((item) => [item.doi, item.pdf_url])).toEqual([
      ['10.5555/green.2021.4', 'https://archive.example/record/7/files/accepted.pdf'],
      ['10.48550/arxiv.2305.00001', 'http://arxiv.org/pdf/2305.00001'],
      // Closed everywhere: its publisher's PDF is a paywall, not a link to read.
      ['10.5555/closed.2019.8', undefined],
    ]);
  });

  it('sends neither mailto nor filter when they are not set', async () => {
    upstream.json('GET /openalex/works', fixture('works-search.json'));
    const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
    await runProvider(provider, makeQuery('rank fusion', 'papers', 10));
    const request = upstream.requestsTo('/openalex/works').at(-1)!;
    expect(request.url.searchParams.has('mailto')).toBe(false);
    expect(request.url.searchParams.has('filter')).toBe(false);
  });

  it('shows the start of a long abstract as the snippet, cut at a word break, the abstract kept whole', () => {
    // 40 × "ranking " then "lists.": 326 characters. The 300th falls inside the 38th "ranking"; the cut goes back
    // to the space before it, as arXiv, PubMed and Semantic Scholar snippets are cut.
    const positions = Array.from({ length: 40 }, (_, index) => index);
    const body = JSON.stringify({
      meta: { count: 1 },
      results: [{ id: 'https://openalex.org/W4000000001', title: 'Long abstract', abstract_inverted_index: { ranking: positions, 'lists.': [40] } }],
    });
    const outcome = makeProvider(OpenAlexProvider).parseResponse(response(body), makeQuery('ranking', 'papers'));
    const [item] = 'items' in outcome ? outcome.items : [];
    expect(item?.abstract).toBe(`${'ranking '.repeat(40)}lists.`);
    expect(item?.snippet).toBe(`${'ranking '.repeat(36)}ranking…`);
  });

  it('reads a single-work body (GET /works/{id})', () => {
    const outcome = makeProvider(OpenAlexProvider).parseResponse(response(fixture('work.json')), makeQuery('x', 'papers'));
    expect(outcome).toEqual({
      items: [
        {
          title: 'One work by id',
          url: 'https://doi.org/10.5555/one.work',
          authors: ['Grace Hopper'],
          year: 1999,
          published_at: '1999-10-01',
          // The heading word OpenAlex indexed with the abstract is not part of it.
          abstract: 'One short abstract.',
          snippet: 'One short abstract.',
          doi: '10.5555/one.work',
          citation_count: 3,
          extra: { openalex_id: 'W2000000009', type: 'book', open_access: false },
        },
      ],
    });
  });

  it('needs no setting to run', () => {
    expect(makeProvider(OpenAlexProvider).missingSettings()).toEqual([]);
  });

  it('describes a JSON error body, stays silent on the HTML 404 page, and throws on an error in a 200', () => {
    const provider = makeProvider(OpenAlexProvider);
    const error = fixture('error-400.json');
    expect(provider.describeError(response(error, 400))).toBe(
      'per_pag is not a valid parameter. Valid parameters are: per_page, page, search, filter, select.',
    );
    expect(provider.describeError(response('<!doctype html><html><title>404 Not Found</title></html>', 404))).toBeUndefined();
    expect(() => provider.parseResponse(response(error), makeQuery('x', 'papers'))).toThrow(FedsearchError);
  });

  describe('lookup', () => {
    const lookedUp = {
      title: 'Looking papers up by identifier',
      url: 'https://doi.org/10.5555/lookup.2020.3',
      authors: ['Grace Hopper'],
      year: 2020,
      published_at: '2020-07-14',
      venue: 'Journal of Lookups',
      abstract: 'One paper, found by its id.',
      snippet: 'One paper, found by its id.',
      doi: '10.5555/lookup.2020.3',
      pmid: '32000003',
      citation_count: 12,
      extra: { openalex_id: 'W3000000004', type: 'article', open_access: false },
    };

    it('gets /works/doi:<doi> with select and mailto and parses the one work', async () => {
      const path = '/openalex/works/doi:10.5555/lookup.2020.3';
      upstream.json(`GET ${path}`, fixture('work-lookup.json'));
      const provider = makeProvider(OpenAlexProvider, {
        OPENALEX_MAILTO: 'team@example.org',
        OPENALEX_BASE_URL: `${upstream.origin}/openalex`,
      });
      const items = await runLookup(provider, { type: 'doi', value: '10.5555/lookup.2020.3' });
      const request = upstream.requestsTo(path).at(-1)!;
      expect(request.method).toBe('GET');
      expect(request.url.searchParams.get('mailto')).toBe('team@example.org');
      expect(request.url.searchParams.get('select')?.split(',')).toEqual(expect.arrayContaining(['id', 'doi', 'ids', 'abstract_inverted_index']));
      expect(items).toEqual([lookedUp]);
    });

    it('gets /works/pmid:<pmid> for a PubMed id', async () => {
      const path = '/openalex/works/pmid:32000003';
      upstream.json(`GET ${path}`, fixture('work-lookup.json'));
      const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
      expect(await runLookup(provider, { type: 'pmid', value: '32000003' })).toEqual([lookedUp]);
      expect(upstream.requestsTo(path).at(-1)!.url.searchParams.has('mailto')).toBe(false);
    });

    it('reads the HTML 404 page for an unknown id as no result', async () => {
      upstream.on('GET /openalex/works/doi:10.5555/none', {
        kind: 'respond',
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n',
      });
      const provider = makeProvider(OpenAlexProvider, { OPENALEX_BASE_URL: `${upstream.origin}/openalex` });
      expect(await runLookup(provider, { type: 'doi', value: '10.5555/none' })).toEqual([]);
      expect(upstream.requestsTo('/openalex/works/doi:10.5555/none')).toHaveLength(1);
    });

    it('percent-encodes reserved characters of a DOI, keeping its slashes', () => {
      const url = new URL(makeProvider(OpenAlexProvider).buildLookupRequest({ type: 'doi', value: '10.5555/a#b?c' })!.url);
      expect([url.pathname, url.hash]).toEqual(['/works/doi:10.5555/a%23b%3Fc', '']);
    });

    it('builds no request for arXiv or Semantic Scholar ids, nor for a PMCID (how OpenAlex takes one is not documented)', () => {
      const provider = makeProvider(OpenAlexProvider);
      expect(provider.buildLookupRequest({ type: 'pmcid', value: 'PMC7000003' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 'arxiv', value: '2401.00007' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 's2', value: 'dddd000000000000000000000000000000000004' })).toBeUndefined();
    });
  });
});

/** The parts of a recorded work this conformance check compares with the parsed item. */
interface RecordedWork {
  doi?: string | null;
  best_oa_location?: RecordedLocation | null;
  locations?: Array<RecordedLocation | null>;
}
interface RecordedLocation {
  is_oa?: boolean;
  pdf_url?: string | null;
}

const openalex = makeProvider(OpenAlexProvider);
// OpenAlex answers JSON (and an HTML page for an unknown id): a list for /works, one work for /works/{id}.
const openalexSends = {
  sent: [openalex.buildRequest(makeQuery('q', 'papers')), openalex.buildLookupRequest({ type: 'doi', value: '10.1000/xyz' })!],
  formatOf: (request: RequestLine) => endpointOf(request).replace(/^(\w+ \/works)\/.+$/, '$1/{id}'),
};

describeSharedFixtures('openalex', openalexSends, (fixtures) => {
  const provider = openalex;
  // A body recorded for GET /works/https://doi.org/<doi> answers a DOI lookup (sent as /works/doi:<doi>).
  for (const shared of fixtures) {
    const path = decodeURIComponent(shared.answers.url.pathname);
    const doi = /^\/works\/(?:https:\/\/doi\.org\/|doi:)(10\..+)$/.exec(path)?.[1];
    if (!doi) continue;
    it(`${shared.file}: answers the lookup of DOI ${doi} (HTTP ${shared.status}) with that work or nothing`, () => {
      const request = provider.buildLookupRequest({ type: 'doi', value: doi })!;
      expect(new URL(request.url).pathname).toBe(`/works/doi:${doi}`);
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
    if (shared.status === 404) continue;
    if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every work is parsed with title, url, its DOI and the PDF of an open location`, () => {
        const body = JSON.parse(shared.body) as { results?: RecordedWork[] };
        const works = body.results ?? [body as RecordedWork];
        const outcome = provider.parseResponse(response(shared.body, shared.status), makeQuery('q', 'papers'));
        const items = 'items' in outcome ? outcome.items : [];
        expect(items).toHaveLength(works.length);
        items.forEach((item, index) => {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https?:\/\//);
          const doi = works[index]!.doi;
          if (doi) expect(item.doi).toBe(doi.replace('https://doi.org/', '').toLowerCase());
          // A recorded arXiv preprint names its PDF only in its second location (best_oa_location has none).
          const openPdfs = [works[index]!.best_oa_location, ...(works[index]!.locations ?? [])]
            .filter((location) => location?.is_oa === true && typeof location.pdf_url === 'string')
            .map((location) => location!.pdf_url);
          if (openPdfs.length > 0) expect(openPdfs).toContain(item.pdf_url);
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
