import { readFileSync } from 'node:fs';
import { decode } from 'html-entities';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import type { ProviderItem } from '../../src/domain/result.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import type { UpstreamRequest } from '../../src/providers/provider.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, rejection, response, runLookup, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, type RequestLine } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/pubmed/${name}`, import.meta.url), 'utf8');
const ESEARCH = '/pubmed/entrez/eutils/esearch.fcgi';
const EFETCH = '/pubmed/entrez/eutils/efetch.fcgi';
/** esearch finding nothing. */
const EMPTY_SEARCH = '<?xml version="1.0"?><eSearchResult><Count>0</Count><RetMax>0</RetMax><IdList/></eSearchResult>';

function xml(body: string, status = 200) {
  return { kind: 'respond' as const, status, headers: { 'content-type': 'text/xml; charset=UTF-8' }, body };
}

const expectedArticles: ProviderItem[] = [
  {
    title: 'Rank fusion in vivo: a trial.',
    url: 'https://pubmed.ncbi.nlm.nih.gov/31000002/',
    snippet: 'BACKGROUND: Lists were fused. RESULTS: Recall rose (I2 = 0%, P < 0.01).',
    published_at: '2019-03-05',
    authors: ['Marie Curie', 'L Pasteur', 'Fusion Trial Group'],
    year: 2019,
    venue: 'Journal of Fusion Medicine',
    abstract: 'BACKGROUND: Lists were fused. RESULTS: Recall rose (I2 = 0%, P < 0.01).',
    doi: '10.5555/jfm.2019.007',
    pmid: '31000002',
    extra: { pmcid: 'PMC6400001' },
  },
  {
    title: 'An old study without abstract.',
    url: 'https://pubmed.ncbi.nlm.nih.gov/31000001/',
    // MedlineDate "1998 Dec-1999 Jan": the first month.
    published_at: '1998-12',
    year: 1998,
    venue: 'Archives of Old Studies',
    pmid: '31000001',
  },
];

describe('pubmed adapter', () => {
  const upstream = useFakeUpstream();

  /** A search's text as the `term` esearch is sent, against an esearch that finds nothing (no efetch follows). */
  const termSentFor = (): ((text: string) => Promise<string | null>) => {
    upstream.on(`GET ${ESEARCH}`, xml(EMPTY_SEARCH));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    return async (text) => {
      await runProvider(provider, makeQuery(text, 'papers', 5));
      return upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams.get('term');
    };
  };

  it('runs esearch then efetch for the found PMIDs, in esearch order, and parses every article', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch.xml'))).on(`GET ${EFETCH}`, xml(fixture('efetch.xml')));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const before = upstream.requests.length;
    const items = await runProvider(provider, makeQuery('rank fusion', 'papers', 2));
    expect(upstream.requests.slice(before).map((request) => request.path)).toEqual([ESEARCH, EFETCH]);
    const search = upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams;
    expect(Object.fromEntries(search)).toEqual({ db: 'pubmed', term: 'rank fusion', retmax: '2', retmode: 'xml', sort: 'relevance', tool: 'fedsearch' });
    const fetch = upstream.requestsTo(EFETCH).at(-1)!.url.searchParams;
    expect(Object.fromEntries(fetch)).toEqual({ db: 'pubmed', id: '31000002,31000001', retmode: 'xml', tool: 'fedsearch' });
    expect(items).toEqual(expectedArticles);
  });

  it('sends email and api_key on both steps only when they are configured', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch.xml'))).on(`GET ${EFETCH}`, xml(fixture('efetch.xml')));
    const provider = makeProvider(PubmedProvider, {
      PUBMED_BASE_URL: `${upstream.origin}/pubmed`,
      PUBMED_API_KEY: 'ncbi-key-1234',
      PUBMED_EMAIL: 'ops@example.org',
    });
    await runProvider(provider, makeQuery('rank fusion', 'papers', 2));
    for (const path of [ESEARCH, EFETCH]) {
      const parameters = upstream.requestsTo(path).at(-1)!.url.searchParams;
      expect(parameters.get('api_key')).toBe('ncbi-key-1234');
      expect(parameters.get('email')).toBe('ops@example.org');
      expect(parameters.get('tool')).toBe('fedsearch');
    }
    expect(provider.missingSettings()).toEqual([]);
    expect(PubmedProvider.settings.credentials.find((credential) => credential.env === 'PUBMED_EMAIL')).toEqual({
      env: 'PUBMED_EMAIL',
      required: false,
      secret: false,
    });
  });

  it('passes a year range as publication dates and open_access as the free full text filter', () => {
    const provider = makeProvider(PubmedProvider);
    const ranged = new URL(provider.buildRequest(makeQuery('crispr', 'papers', 5, { year_from: 2015, year_to: 2020 })).url).searchParams;
    expect([ranged.get('datetype'), ranged.get('mindate'), ranged.get('maxdate')]).toEqual(['pdat', '2015', '2020']);
    const open = new URL(provider.buildRequest(makeQuery('crispr', 'papers', 5, { year_from: 2015, open_access: true })).url).searchParams;
    expect([open.get('mindate'), open.get('maxdate')]).toEqual(['2015', '3000']);
    expect(open.get('term')).toBe('(crispr) AND free full text[sb]');
    const plain = new URL(provider.buildRequest(makeQuery('crispr', 'papers', 5)).url).searchParams;
    expect(plain.has('mindate') || plain.has('datetype')).toBe(false);
  });

  it('sends an excluded -term after NOT, also within the open-access filter, and leaves -40 and covid-19 as they are', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(EMPTY_SEARCH));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    await runProvider(provider, makeQuery('covid-19 vaccine -mice -"case report" at -40', 'papers', 5));
    expect(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams.get('term')).toBe('(covid-19 vaccine at -40) NOT (mice OR "case report")');
    await runProvider(provider, makeQuery('crispr -mice', 'papers', 5, { open_access: true }));
    expect(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams.get('term')).toBe('((crispr) NOT mice) AND free full text[sb]');
  });

  it('keeps a quoted phrase whole, its - included, and takes an AND or OR just before an excluded term with it', async () => {
    const termSent = termSentFor();
    // Not `("e" use AND) NOT (cigarette OR smoking)`: the phrase lost a word, and AND was left with nothing after it.
    expect(await termSent('"e -cigarette" use AND -smoking')).toBe('("e -cigarette" use) NOT smoking');
    expect(await termSent('asthma OR -"case report"')).toBe('(asthma) NOT "case report"');
    // An unclosed phrase runs to the end, as arXiv reads one: its `-` excludes nothing, and the text goes closed.
    expect(await termSent('"smoking -cessation trials')).toBe('"smoking -cessation trials"');
    // One after the excluded term is closed inside the parentheses, which it would otherwise take into the phrase.
    expect(await termSent('asthma -mice "case report')).toBe('(asthma "case report") NOT mice');
  });

  it('leaves no operator first in the words when the text starts with an excluded term joined by AND or OR', async () => {
    const termSent = termSentFor();
    // Not `(OR asthma) NOT mice`: an OR with nothing before it.
    expect(await termSent('-mice OR asthma')).toBe('(asthma) NOT mice');
    expect(await termSent('-mice AND -rats OR asthma')).toBe('(asthma) NOT (mice OR rats)');
    // Between two words, the OR joins them still.
    expect(await termSent('asthma -mice OR copd')).toBe('(asthma OR copd) NOT mice');
  });

  it('excludes the term of a NOT that an excluded term leaves first, as arXiv does, with no NOT left before the words', async () => {
    const termSent = termSentFor();
    // Not `(NOT rats asthma) NOT mice`: a NOT with nothing before it, which PubMed does not read as meant.
    expect(await termSent('-mice NOT rats asthma')).toBe('(asthma) NOT (mice OR rats)');
    expect(await termSent('NOT "case report" -mice asthma')).toBe('(asthma) NOT (mice OR "case report")');
    expect(await termSent('-mice AND NOT rats NOT dogs OR asthma')).toBe('(asthma) NOT (mice OR rats OR dogs)');
    // Typed first without any -term, a NOT has nothing before it either.
    expect(await termSent('NOT rats asthma')).toBe('(asthma) NOT rats');
    // A NOT after a word joins the two, and stays: PubMed reads it, so it is sent as typed.
    expect(await termSent('-mice asthma NOT rats')).toBe('(asthma NOT rats) NOT mice');
    expect(await termSent('asthma NOT rats OR mice')).toBe('asthma NOT rats OR mice');
    // Nothing but excluded terms: no word for NOT to leave results out of, so no request.
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const before = upstream.requests.length;
    expect(provider.queryProblem!('-mice NOT rats')).toBe('the query has no word to search for besides its excluded terms (-word)');
    expect((await rejection(runProvider(provider, makeQuery('-mice NOT rats', 'papers')))).code).toBe('QUERY_INVALID');
    expect(upstream.requests.length).toBe(before);
  });

  it('sends NOT (a OR b) after words as typed, its own syntax, and one typed first after the words, not first', async () => {
    const termSent = termSentFor();
    expect(await termSent('asthma NOT (mice OR rats)')).toBe('asthma NOT (mice OR rats)');
    // Not `NOT (mice OR rats) asthma`, a NOT with nothing before it.
    expect(await termSent('NOT (mice OR "case report") asthma')).toBe('(asthma) NOT (mice OR "case report")');
    expect(await termSent('-dogs NOT (mice OR rats) asthma')).toBe('(asthma) NOT (dogs OR mice OR rats)');
    expect(await termSent('-dogs asthma NOT (mice OR rats)')).toBe('(asthma NOT (mice OR rats)) NOT dogs');
  });

  it('sends AND NOT and -(a OR b) as the binary NOT PubMed reads, after the words', async () => {
    const termSent = termSentFor();
    // PubMed's NOT joins two terms; after AND it has nothing of its own before it.
    expect(await termSent('asthma AND NOT mice')).toBe('(asthma) NOT mice');
    expect(await termSent('asthma children AND NOT (mice OR rats)')).toBe('(asthma children) NOT (mice OR rats)');
    // Not searched for as the words mice and rats.
    expect(await termSent('asthma -(mice OR "case report")')).toBe('(asthma) NOT (mice OR "case report")');
  });

  it('closes an unclosed group, unbalanced syntax esearch may refuse, and leaves out an operator that joins nothing', async () => {
    const termSent = termSentFor();
    expect(await termSent('asthma NOT (mice OR rats')).toBe('asthma NOT (mice OR rats)');
    expect(await termSent('asthma AND (children OR (infants')).toBe('asthma AND (children OR (infants))');
    expect(await termSent('asthma (')).toBe('asthma');
    expect(await termSent('asthma) OR copd')).toBe('asthma OR copd');
    expect(await termSent('asthma NOT')).toBe('asthma');
  });

  it('sends balanced syntax for a group or phrase holding what would break it: operators at the ends of a group, parentheses in a phrase', async () => {
    const termSent = termSentFor();
    expect(await termSent('asthma (mice OR) rats')).toBe('asthma (mice) rats');
    expect(await termSent('asthma (AND children)')).toBe('asthma (children)');
    // An excluded phrase holding a parenthesis stays a phrase: unquoted, it opened a group that nothing closed.
    expect(await termSent('asthma -"(mice"')).toBe('(asthma) NOT "(mice"');
    // The group ends at its own `)`, not at one inside its phrase: asthma is searched for, not excluded.
    expect(await termSent('NOT ("f(x" OR rats) asthma')).toBe('(asthma) NOT ("f(x" OR rats)');
    expect(await termSent('NOT "case report"s asthma')).toBe('(s asthma) NOT "case report"');
  });

  it('sends the NOT of a query written in capitals as the word not, which PubMed searches rather than reads', async () => {
    const termSent = termSentFor();
    // Read as the operator, NOT INVENTED HERE excluded what it searched for, and NOT FOUND was not sent at all.
    expect(await termSent('NOT INVENTED HERE')).toBe('not INVENTED HERE');
    expect(await termSent('NOT FOUND')).toBe('not FOUND');
    expect(await termSent('NOT FOUND HTTP -NGINX')).toBe('(not FOUND HTTP) NOT NGINX');
    // Between words, in capitals too, NOT is the operator: acronyms are how such searches are typed.
    expect(await termSent('HIV NOT AIDS')).toBe('HIV NOT AIDS');
    // A NOT inside a phrase is left as typed; among lower-case words, NOT is the operator still.
    expect(await termSent('"NOT FOUND" HTTP')).toBe('"NOT FOUND" HTTP');
    expect(await termSent('NOT BRCA1 breast cancer')).toBe('(breast cancer) NOT BRCA1');
  });

  it('sends a NOT that opens a group before it, where it joins the words before the group, not a NOT with nothing before it', async () => {
    const termSent = termSentFor();
    // Sent as typed, `asthma (NOT mice)` gave PubMed's binary NOT nothing before it inside the group.
    expect(await termSent('asthma (NOT mice)')).toBe('asthma NOT (mice)');
    expect(await termSent('asthma (AND NOT (mice OR rats))')).toBe('asthma NOT ((mice OR rats))');
    expect(await termSent('(NOT mice) asthma')).toBe('(asthma) NOT mice');
    // After a word inside the group, NOT joins the two, as typed.
    expect(await termSent('asthma (children NOT mice)')).toBe('asthma (children NOT mice)');
  });

  it('sends a - before a formula in parentheses as typed, not as the exclusion of a term', async () => {
    const termSent = termSentFor();
    // Read as an excluded group, `-(x+1)` was sent `(f) NOT x+1`: the search left out what it asked about.
    expect(await termSent('f -(x+1)')).toBe('f -(x+1)');
    expect(await termSent('polynomial -(a^2)')).toBe('polynomial -(a^2)');
    expect(await termSent('asthma -(mice OR rats)')).toBe('(asthma) NOT (mice OR rats)');
  });

  it('finds nothing to search for in operators, quotes and parentheses alone, and sends no request for them', async () => {
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const before = upstream.requests.length;
    for (const text of ['(', '"', 'AND (', ')', '(OR)', 'NOT ""']) {
      expect(provider.queryProblem!(text), text).toBe('the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation');
      const refused = await rejection(runProvider(provider, makeQuery(text, 'papers')));
      expect([refused.code, refused.message]).toEqual(['QUERY_INVALID', 'the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation']);
    }
    expect(upstream.requests.length).toBe(before);
    // A quoted operator is a word to search for.
    expect(provider.queryProblem!('"AND" (')).toBeUndefined();
  });

  it('finds nothing to search for in excluded terms alone, and sends no request for them', async () => {
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    expect(provider.queryProblem!('-mice -"case report"')).toBe('the query has no word to search for besides its excluded terms (-word)');
    expect(provider.queryProblem!('covid-19')).toBeUndefined();
    const before = upstream.requests.length;
    expect((await rejection(runProvider(provider, makeQuery('-mice', 'papers')))).code).toBe('QUERY_INVALID');
    expect(upstream.requests.length).toBe(before);
  });

  it("asks esearch for PubMed's Best Match order (sort=relevance) on every page, not ESearch's default of most recent first", () => {
    // NCBI, "The E-utilities In-Depth": for PubMed, relevance is the Best Match order of web PubMed, and ESearch's
    // default may differ from the web's. Without it a search for "crispr" gives the newest papers that mention it.
    const provider = makeProvider(PubmedProvider);
    const query = makeQuery('crispr', 'papers', 300, { year_from: 2015, open_access: true });
    const first = provider.buildRequest(query);
    expect(new URL(first.url).searchParams.get('sort')).toBe('relevance');
    const page = { request: first, response: response('<eSearchResult/>'), items: Array.from({ length: 200 }, (_, index) => ({ title: `t${index}`, url: `https://p.example/${index}` })), collected: 200 };
    const next = provider.nextPageRequest!(query, page) as UpstreamRequest;
    const nextParameters = new URL(next.url).searchParams;
    expect([nextParameters.get('retstart'), nextParameters.get('sort')]).toEqual(['200', 'relevance']);
  });

  it('stops after esearch when nothing is found', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(EMPTY_SEARCH));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const fetchesBefore = upstream.requestsTo(EFETCH).length;
    expect(await runProvider(provider, makeQuery('zzzz', 'papers'))).toEqual([]);
    expect(upstream.requestsTo(EFETCH).length).toBe(fetchesBefore);
  });

  it('reads the XML it asks for and no other answer: a JSON esearch or an esummary is a parse error', () => {
    const provider = makeProvider(PubmedProvider);
    const json = JSON.stringify({ esearchresult: { count: '1', idlist: ['31000001'] } });
    const summary = '<eSummaryResult><DocSum><Id>31000001</Id><Item Name="Title" Type="String">A title.</Item></DocSum></eSummaryResult>';
    for (const body of [json, summary]) {
      expect(() => provider.parseResponse(response(body), makeQuery('q', 'papers'))).toThrow(expect.objectContaining({ code: 'PROVIDER_PARSE' }));
    }
  });

  it('reports an efetch that answers 404 as an HTTP error and asks nothing else', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch.xml'))).on(`GET ${EFETCH}`, xml('<html>Not Found</html>', 404));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const before = upstream.requests.length;
    expect((await rejection(runProvider(provider, makeQuery('rank fusion', 'papers', 2)))).code).toBe('PROVIDER_HTTP');
    expect(upstream.requests.slice(before).map((request) => request.path)).toEqual([ESEARCH, EFETCH]);
  });

  it('reads a MedlineDate as its year and first month, never as a day, whatever the time zone', () => {
    const article = (medlineDate: string, articleDate = '') => `<PubmedArticle><MedlineCitation><PMID Version="1">1</PMID><Article>
      <Journal><JournalIssue><PubDate><MedlineDate>${medlineDate}</MedlineDate></PubDate></JournalIssue><Title>J</Title></Journal>
      <ArticleTitle>A title.</ArticleTitle>${articleDate}</Article></MedlineCitation></PubmedArticle>`;
    const dates = (...articles: string[]) => {
      const outcome = makeProvider(PubmedProvider).parseResponse(response(`<PubmedArticleSet>${articles.join('')}</PubmedArticleSet>`), makeQuery('q', 'papers'));
      return ('items' in outcome ? outcome.items : []).map((item) => [item.published_at, item.year]);
    };
    expect(dates(article('2018 Jun-Jul'), article('1998 Dec-1999 Jan'), article('2000 Spring'), article('2000 Dec 23-30'), article('Summer 2001'))).toEqual([
      ['2018-06', 2018],
      ['1998-12', 1998],
      ['2000', 2000],
      ['2000-12', 2000],
      ['2001', 2001],
    ]);
    // An exact electronic date is still preferred to an issue date without a day.
    const exact = '<ArticleDate DateType="Electronic"><Year>2018</Year><Month>06</Month><Day>04</Day></ArticleDate>';
    expect(dates(article('2018 Jun-Jul', exact))).toEqual([['2018-06-04', 2018]]);
  });

  it('keeps book records (PubmedBookArticle) that esearch also returns', () => {
    const body = `<PubmedArticleSet><PubmedBookArticle><BookDocument><PMID Version="1">20301295</PMID>
      <ArticleIdList><ArticleId IdType="bookaccession">NBK1116</ArticleId></ArticleIdList>
      <Book><Publisher><PublisherName>University of Washington, Seattle</PublisherName></Publisher>
      <BookTitle book="gene">GeneReviews<sup>®</sup></BookTitle><PubDate><Year>1993</Year></PubDate></Book>
      <ArticleTitle book="gene" part="cf">Cystic Fibrosis</ArticleTitle>
      <AuthorList Type="authors"><Author><LastName>Ong</LastName><ForeName>Thida</ForeName></Author></AuthorList>
      <Abstract><AbstractText Label="CLINICAL CHARACTERISTICS">CF affects the lungs.</AbstractText></Abstract>
      </BookDocument></PubmedBookArticle></PubmedArticleSet>`;
    expect(makeProvider(PubmedProvider).parseResponse(response(body), makeQuery('q', 'papers'))).toEqual({
      items: [
        {
          title: 'Cystic Fibrosis',
          url: 'https://pubmed.ncbi.nlm.nih.gov/20301295/',
          snippet: 'CLINICAL CHARACTERISTICS: CF affects the lungs.',
          published_at: '1993',
          authors: ['Thida Ong'],
          year: 1993,
          venue: 'GeneReviews®',
          abstract: 'CLINICAL CHARACTERISTICS: CF affects the lungs.',
          pmid: '20301295',
        },
      ],
    });
  });

  it('throws an upstream error for an esearch ERROR body sent with HTTP 200, and describes it', async () => {
    upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch-error.xml')));
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    const error = await rejection(runProvider(provider, makeQuery('x', 'papers')));
    expect(error.code).toBe('PROVIDER_UPSTREAM');
    expect(error.message).toBe('PubMed: Empty term and query_key - nothing todo');
    expect(provider.describeError(response(fixture('esearch-error.xml'), 400))).toBe('Empty term and query_key - nothing todo');
  });

  it('describes the JSON rate-limit body NCBI sends with 429', async () => {
    const body = '{"error":"API rate limit exceeded","api-key":"203.0.113.9","count":"11","limit":"10"}';
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    expect(provider.describeError(response(body, 429))).toBe('API rate limit exceeded');
    upstream.json(`GET ${ESEARCH}`, body, 429);
    const error = await rejection(runProvider(provider, makeQuery('x', 'papers')));
    expect(error.code).toBe('PROVIDER_RATE_LIMITED');
    expect(error.message).toContain('API rate limit exceeded');
  });

  it('turns malformed XML and an HTML page from efetch into parse errors', async () => {
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch.xml')));
    upstream.on(`GET ${EFETCH}`, xml('<PubmedArticleSet><PubmedArticle><MedlineCitation></PubmedArticleSet>'));
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
    upstream.on(`GET ${EFETCH}`, { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<html><head><title>Bad Gateway</title></head></html>' });
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
  });

  describe('lookup', () => {
    const lookedUp: ProviderItem = {
      title: 'Looking papers up by identifier.',
      url: 'https://pubmed.ncbi.nlm.nih.gov/32000003/',
      snippet: 'One paper, found by its id.',
      published_at: '2020-07-14',
      authors: ['Grace Hopper'],
      year: 2020,
      venue: 'Journal of Lookups',
      abstract: 'One paper, found by its id.',
      doi: '10.5555/lookup.2020.3',
      pmid: '32000003',
    };

    it('fetches a PMID straight from efetch, without a search, and parses the one article', async () => {
      upstream.on(`GET ${EFETCH}`, xml(fixture('efetch-lookup.xml')));
      const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
      const before = upstream.requests.length;
      const items = await runLookup(provider, { type: 'pmid', value: '32000003' });
      expect(upstream.requests.slice(before).map((request) => request.path)).toEqual([EFETCH]);
      const fetch = upstream.requestsTo(EFETCH).at(-1)!.url.searchParams;
      expect(Object.fromEntries(fetch)).toEqual({ db: 'pubmed', id: '32000003', retmode: 'xml', tool: 'fedsearch' });
      expect(items).toEqual([lookedUp]);
    });

    it('searches a DOI in the [doi] field, then fetches the PMID found, with email and api_key when set', async () => {
      upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch-doi.xml'))).on(`GET ${EFETCH}`, xml(fixture('efetch-lookup.xml')));
      const provider = makeProvider(PubmedProvider, {
        PUBMED_BASE_URL: `${upstream.origin}/pubmed`,
        PUBMED_API_KEY: 'ncbi-key-1234',
        PUBMED_EMAIL: 'ops@example.org',
      });
      const before = upstream.requests.length;
      const items = await runLookup(provider, { type: 'doi', value: '10.5555/lookup.2020.3' });
      expect(upstream.requests.slice(before).map((request) => request.path)).toEqual([ESEARCH, EFETCH]);
      const credentials = { tool: 'fedsearch', email: 'ops@example.org', api_key: 'ncbi-key-1234' };
      expect(Object.fromEntries(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams)).toEqual({
        db: 'pubmed', term: '"10.5555/lookup.2020.3"[doi]', retmax: '1', retmode: 'xml', ...credentials,
      });
      expect(Object.fromEntries(upstream.requestsTo(EFETCH).at(-1)!.url.searchParams)).toEqual({
        db: 'pubmed', id: '32000003', retmode: 'xml', ...credentials,
      });
      expect(items).toEqual([lookedUp]);
    });

    it('quotes a DOI in the [doi] field, so the parentheses, brackets and colons of a SICI DOI reach esearch as one phrase', async () => {
      upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch-doi.xml'))).on(`GET ${EFETCH}`, xml(fixture('efetch-lookup.xml')));
      const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
      await runLookup(provider, { type: 'doi', value: '10.1002/(SICI)1097-4636(199909)47:3<335::AID-JBM6>3.0.CO;2-8' });
      expect(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams.get('term')).toBe('"10.1002/(sici)1097-4636(199909)47:3<335::aid-jbm6>3.0.co;2-8"[doi]');
    });

    it('does not ask about a DOI holding a double quote, which no E-utilities phrase can hold', () => {
      const provider = makeProvider(PubmedProvider);
      expect(provider.buildLookupRequest({ type: 'doi', value: '10.5555/a"b' })).toBeUndefined();
    });

    it('searches a PMCID in the [pmcid] field, then fetches the PMID found', async () => {
      upstream.on(`GET ${ESEARCH}`, xml(fixture('esearch-doi.xml'))).on(`GET ${EFETCH}`, xml(fixture('efetch-lookup.xml')));
      const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
      const before = upstream.requests.length;
      const items = await runLookup(provider, { type: 'pmcid', value: 'PMC7000003' });
      expect(upstream.requests.slice(before).map((request) => request.path)).toEqual([ESEARCH, EFETCH]);
      expect(Object.fromEntries(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams)).toEqual({
        db: 'pubmed', term: 'PMC7000003[pmcid]', retmax: '1', retmode: 'xml', tool: 'fedsearch',
      });
      expect(upstream.requestsTo(EFETCH).at(-1)!.url.searchParams.get('id')).toBe('32000003');
      expect(items).toEqual([lookedUp]);
    });

    it('finds nothing for an unknown PMID, which efetch answers with an empty PubmedArticleSet', async () => {
      // The body NCBI sent for a PMID it does not have (PathwayCommons/semantic-search#100).
      const empty = `<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">
<PubmedArticleSet></PubmedArticleSet>`;
      upstream.on(`GET ${EFETCH}`, xml(empty));
      const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
      expect(await runLookup(provider, { type: 'pmid', value: '99999999' })).toEqual([]);
    });

    it('finds nothing for an unknown DOI and then fetches nothing', async () => {
      const none = `<?xml version="1.0" encoding="UTF-8" ?>
<eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/><TranslationSet/>
<QueryTranslation>(10.5555/none[doi])</QueryTranslation><ErrorList><PhraseNotFound>10.5555/none[doi]</PhraseNotFound></ErrorList>
<WarningList><OutputMessage>No items found.</OutputMessage></WarningList></eSearchResult>`;
      upstream.on(`GET ${ESEARCH}`, xml(none));
      const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
      const fetchesBefore = upstream.requestsTo(EFETCH).length;
      expect(await runLookup(provider, { type: 'doi', value: '10.5555/none' })).toEqual([]);
      expect(upstream.requestsTo(EFETCH).length).toBe(fetchesBefore);
    });

    it('builds no request for arXiv or Semantic Scholar ids, nor for a PMID that is not one', () => {
      const provider = makeProvider(PubmedProvider);
      expect(provider.buildLookupRequest({ type: 'arxiv', value: '2401.00007' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 's2', value: 'dddd000000000000000000000000000000000004' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 'pmid', value: 'PMC6400001' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 'pmcid', value: '6400001' })).toBeUndefined();
    });
  });
});

const pubmed = makeProvider(PubmedProvider);
/**
 * Each E-utility answers in its own format, XML unless retmode asks for another; `db` does not change it.
 * E-utilities take POST like GET (for long id lists), so the method does not either.
 */
const pubmedSends = {
  sent: [
    pubmed.buildRequest(makeQuery('q', 'papers')),
    pubmed.buildLookupRequest({ type: 'pmid', value: '1' })!,
    pubmed.buildLookupRequest({ type: 'doi', value: '10.1000/xyz' })!,
  ],
  formatOf: (request: RequestLine) => `${request.url.pathname} retmode=${request.parameters.get('retmode') ?? 'xml'}`,
};

describeSharedFixtures('pubmed', pubmedSends, (fixtures) => {
  // An efetch recorded for one id is what a PMID lookup gets back.
  for (const fixture of fixtures) {
    const pmid = fixture.answers.url.pathname.endsWith('/efetch.fcgi') ? fixture.answers.parameters.get('id') : undefined;
    if (!pmid || !/^\d+$/.test(pmid)) continue;
    it(`${fixture.file}: answers the lookup of PMID ${pmid} with exactly that article`, () => {
      const provider = makeProvider(PubmedProvider);
      const request = new URL(provider.buildLookupRequest({ type: 'pmid', value: pmid })!.url);
      expect(request.pathname).toBe('/entrez/eutils/efetch.fcgi');
      expect(request.searchParams.get('id')).toBe(pmid);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery(pmid, 'papers', 1));
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(1);
      expect(items[0]!.pmid).toBe(pmid);
      expect(items[0]!.url).toBe(`https://pubmed.ncbi.nlm.nih.gov/${pmid}/`);
      expect(items[0]!.title.length).toBeGreaterThan(0);
    });
  }
  for (const fixture of fixtures) {
    it(`${fixture.file}: is read as a follow-up, items or an upstream error, never a TypeError`, () => {
      const provider = makeProvider(PubmedProvider);
      const parse = () => provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q', 'papers'));
      if (/<ERROR>/.test(fixture.body)) {
        expect(parse).toThrow(FedsearchError);
        expect(provider.describeError(response(fixture.body, fixture.status))).toBe(/<ERROR>([^<]+)<\/ERROR>/.exec(fixture.body)![1]);
        return;
      }
      const outcome = parse();
      if (fixture.body.includes('<eSearchResult>')) {
        const ids = [...fixture.body.matchAll(/<Id>(\d+)<\/Id>/g)].map((match) => match[1]);
        if (ids.length === 0) {
          expect(outcome).toEqual({ items: [] });
          return;
        }
        expect('followUp' in outcome).toBe(true);
        const followUp = new URL('followUp' in outcome ? outcome.followUp.url : 'http://missing');
        expect(followUp.pathname).toBe('/entrez/eutils/efetch.fcgi');
        expect(followUp.searchParams.get('id')).toBe(ids.join(','));
        return;
      }
      const records = [...fixture.body.matchAll(/<(PubmedArticle|PubmedBookArticle)>[\s\S]*?<\/\1>/g)].map((match) => match[0]);
      expect(records.length).toBeGreaterThan(0);
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(records.length);
      items.forEach((item, index) => {
        const record = records[index]!;
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.title).not.toMatch(/[<>]/);
        expect(item.pmid).toBe(/<PMID[^>]*>(\d+)<\/PMID>/.exec(record)![1]);
        expect(item.url).toBe(`https://pubmed.ncbi.nlm.nih.gov/${item.pmid}/`);
        const doi = /<ArticleId IdType="doi">([^<]+)<\/ArticleId>/.exec(record.replace(/<ReferenceList>[\s\S]*<\/ReferenceList>/, ''))?.[1];
        expect(item.doi).toBe(doi?.toLowerCase());
        expect(item.year).toBeGreaterThan(1800);
        // Inline markup (<b>, <i>, <sup>) must not cut an abstract into pieces: every part arrives whole.
        const parts = [...record.matchAll(/<AbstractText[^>]*>([\s\S]*?)<\/AbstractText>/g)].map((match) =>
          decode(match[1]!.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim(),
        );
        for (const part of parts) expect(item.abstract).toContain(part);
        expect(item.abstract === undefined).toBe(parts.length === 0);
      });
    });
  }
});
