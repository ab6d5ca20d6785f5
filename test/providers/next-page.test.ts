import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { SearchKind } from '../../src/domain/result.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { MORE_NOT_READ, numberParameter, type PageRead, type Provider, type UpstreamRequest, type UpstreamResponse } from '../../src/providers/provider.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { TavilyProvider } from '../../src/providers/tavily.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery, response } from '../support/run-provider.js';
import { urlsParsedBy } from '../support/url-parses.js';

const KEYS = { BRAVE_API_KEY: 'k', TAVILY_API_KEY: 'k', EXA_API_KEY: 'k', YOUTUBE_API_KEY: 'k', SEARXNG_URL: 'http://searx.test' };

/** `count` items with distinct URLs, as a parsed page would hold. */
function items(count: number, from = 0): PageRead['items'] {
  return Array.from({ length: count }, (_, index) => ({ title: `r${from + index}`, url: `https://r.example/${from + index}` }));
}

/** What an adapter is told about the page it just read. */
function pageRead(request: UpstreamRequest, body: unknown, itemCount: number, collected = itemCount): PageRead {
  return { request, response: response(JSON.stringify(body)), items: items(itemCount), collected };
}

/** A next request's parameters; only an adapter that may stop early (SearXNG) answers MORE_NOT_READ. */
function parameters(request: UpstreamRequest | typeof MORE_NOT_READ | undefined): Record<string, string> {
  expect(request).toBeDefined();
  expect(request).not.toBe(MORE_NOT_READ);
  return Object.fromEntries(new URL((request as UpstreamRequest).url).searchParams);
}

/** A next request that is one (not undefined, not MORE_NOT_READ). */
function requestOf(request: UpstreamRequest | typeof MORE_NOT_READ | undefined): UpstreamRequest {
  parameters(request);
  return request as UpstreamRequest;
}

/** The request an adapter sends first for a search that wants `limit` results. */
function first(provider: Provider, kind: SearchKind, limit: number): UpstreamRequest {
  return provider.buildRequest(makeQuery('paging', kind, limit));
}

describe('Brave: count up to 20, offset counts pages of count from 0 to 9', () => {
  const brave = makeProvider(BraveProvider, KEYS);
  const query = makeQuery('paging', 'web', 31);
  const web = (count: number, more?: boolean) => ({ query: more === undefined ? {} : { more_results_available: more }, web: { results: items(count) } });

  it('asks for offset 1 after a full page of 20, with the same count and everything else unchanged', () => {
    const request = first(brave, 'web', 31);
    expect(parameters(request)).toMatchObject({ count: '20', offset: '0' });
    const next = brave.nextPageRequest!(query, pageRead(request, web(20, true), 20));
    expect(parameters(next)).toEqual({ ...parameters(request), offset: '1' });
    expect(requestOf(next).headers).toEqual(request.headers);
  });

  it('stops after a short page, or when Brave says it has no more', () => {
    const request = first(brave, 'web', 31);
    expect(brave.nextPageRequest!(query, pageRead(request, web(12), 12))).toBeUndefined();
    expect(brave.nextPageRequest!(query, pageRead(request, web(20, false), 20))).toBeUndefined();
    expect(brave.nextPageRequest!(query, pageRead(request, web(0, true), 0))).toBeUndefined();
  });

  it('reads on after a short page when Brave says more results are available', () => {
    const request = first(brave, 'web', 31);
    expect(parameters(brave.nextPageRequest!(query, pageRead(request, web(18, true), 18)))).toEqual({ ...parameters(request), offset: '1' });
  });

  it('reads the page parseResponse parsed: a body is parsed once, whether or not a next page is asked for', () => {
    const request = first(brave, 'web', 31);
    const page = response(JSON.stringify(web(12)));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const parsed = brave.parseResponse(page, query);
      expect('items' in parsed && parsed.items).toHaveLength(12);
      expect(brave.nextPageRequest!(query, { request, response: page, items: items(12), collected: 12 })).toBeUndefined();
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('stops at offset 9, the deepest Brave serves', () => {
    const ninth = { ...first(brave, 'web', 301), url: first(brave, 'web', 301).url.replace('offset=0', 'offset=8') };
    expect(parameters(brave.nextPageRequest!(makeQuery('paging', 'web', 301), pageRead(ninth, web(20, true), 20, 180)))).toMatchObject({ offset: '9' });
    const tenth = { ...ninth, url: ninth.url.replace('offset=8', 'offset=9') };
    expect(brave.nextPageRequest!(makeQuery('paging', 'web', 301), pageRead(tenth, web(20, true), 20, 200))).toBeUndefined();
  });
});

describe('SearXNG: pageno, no page size', () => {
  const searxng = makeProvider(SearxngProvider, KEYS);
  const query = makeQuery('paging', 'web', 31);

  it('asks for the next pageno while a page has results', () => {
    const request = first(searxng, 'web', 31);
    expect(parameters(searxng.nextPageRequest!(query, pageRead(request, {}, 12)))).toEqual({ ...parameters(request), pageno: '2' });
  });

  it('stops after an empty page, and after page 10', () => {
    const request = first(searxng, 'web', 31);
    expect(searxng.nextPageRequest!(query, pageRead(request, {}, 0))).toBeUndefined();
    const tenth = { ...request, url: request.url.replace('pageno=1', 'pageno=10') };
    expect(searxng.nextPageRequest!(query, pageRead(tenth, {}, 12))).toBeUndefined();
  });

  it('reads no second page for the look-ahead result alone, but says there may be more: a first page of 10 serves limit 10', () => {
    const ordinary = makeQuery('paging', 'web', 11);
    expect(searxng.nextPageRequest!(ordinary, pageRead(first(searxng, 'web', 11), {}, 10))).toBe(MORE_NOT_READ);
    expect(parameters(searxng.nextPageRequest!(ordinary, pageRead(first(searxng, 'web', 11), {}, 9)))).toMatchObject({ pageno: '2' });
  });
});

describe('Semantic Scholar: offset from `next`, limit up to 100, within the first 1,000', () => {
  const s2 = makeProvider(SemanticScholarProvider);

  it('asks from `next` for what the search still wants', () => {
    const request = first(s2, 'papers', 151);
    expect(parameters(request)).toMatchObject({ offset: '0', limit: '100' });
    const next = s2.nextPageRequest!(makeQuery('paging', 'papers', 151), pageRead(request, { offset: 0, next: 100, data: items(100) }, 100));
    expect(parameters(next)).toEqual({ ...parameters(request), offset: '100', limit: '51' });
  });

  it('keeps the open-access flag on later pages', () => {
    const query = makeQuery('paging', 'papers', 151, { open_access: true });
    const next = s2.nextPageRequest!(query, pageRead(s2.buildRequest(query), { next: 100, data: items(100) }, 100));
    expect(requestOf(next).url).toMatch(/&openAccessPdf$/);
  });

  it('stops when there is no `next`, after a short page, and at offset + limit = 1,000', () => {
    const query = makeQuery('paging', 'papers', 501);
    const request = first(s2, 'papers', 501);
    expect(s2.nextPageRequest!(query, pageRead(request, { offset: 0 }, 100))).toBeUndefined();
    expect(s2.nextPageRequest!(query, pageRead(request, { next: 60, data: items(60) }, 60))).toBeUndefined();
    const deep = makeQuery('paging', 'papers', 2000);
    expect(parameters(s2.nextPageRequest!(deep, pageRead(request, { next: 950, data: items(100) }, 100, 950)))).toMatchObject({ offset: '950', limit: '50' });
    expect(s2.nextPageRequest!(deep, pageRead(request, { next: 1000, data: items(100) }, 100, 1000))).toBeUndefined();
  });
});

describe('GitHub: page from 1, per_page up to 100, within the first 1,000', () => {
  const github = makeProvider(GithubProvider);
  const query = makeQuery('paging', 'code', 201);

  it('asks for the next page of the same size', () => {
    const request = first(github, 'code', 201);
    expect(parameters(request)).toMatchObject({ per_page: '100', page: '1' });
    const next = github.nextPageRequest!(query, pageRead(request, { items: items(100) }, 100));
    expect(parameters(next)).toEqual({ ...parameters(request), page: '2' });
  });

  it('stops after a short page, and where the next page would pass the first 1,000', () => {
    const request = first(github, 'code', 201);
    expect(github.nextPageRequest!(query, pageRead(request, { items: items(99) }, 99))).toBeUndefined();
    const tenth = { ...request, url: request.url.replace('page=1', 'page=10') };
    expect(github.nextPageRequest!(makeQuery('paging', 'code', 2000), pageRead(tenth, { items: items(100) }, 100, 1000))).toBeUndefined();
  });
});

describe('YouTube: pageToken from nextPageToken, maxResults up to 50', () => {
  const youtube = makeProvider(YoutubeProvider, KEYS);
  const query = makeQuery('paging', 'video', 101);

  it('asks for the page the token names, with the same maxResults', () => {
    const request = first(youtube, 'video', 101);
    expect(parameters(request)).toMatchObject({ maxResults: '50' });
    const next = youtube.nextPageRequest!(query, pageRead(request, { nextPageToken: 'CDIQAA', items: items(50) }, 50));
    expect(parameters(next)).toEqual({ ...parameters(request), pageToken: 'CDIQAA' });
  });

  it('stops without a token, and after a short page', () => {
    const request = first(youtube, 'video', 101);
    expect(youtube.nextPageRequest!(query, pageRead(request, { items: items(50) }, 50))).toBeUndefined();
    expect(youtube.nextPageRequest!(query, pageRead(request, { nextPageToken: 'CDIQAA', items: items(30) }, 30))).toBeUndefined();
  });
});

describe('MediaWiki: sroffset from continue, srlimit up to 500', () => {
  const wikipedia = makeProvider(WikipediaProvider);
  const query = makeQuery('paging', 'web', 501);

  it('passes the whole continue object on and asks only for what is still wanted', () => {
    const request = first(wikipedia, 'web', 501);
    expect(parameters(request)).toMatchObject({ srlimit: '500' });
    const next = wikipedia.nextPageRequest!(query, pageRead(request, { continue: { sroffset: 500, continue: '-||' }, query: { search: [] } }, 500));
    expect(parameters(next)).toEqual({ ...parameters(request), sroffset: '500', continue: '-||', srlimit: '1' });
  });

  it('stops when MediaWiki sends no continue (the last page, or its own depth limit)', () => {
    expect(wikipedia.nextPageRequest!(query, pageRead(first(wikipedia, 'web', 501), { batchcomplete: true, query: { search: [] } }, 500))).toBeUndefined();
  });
});

describe('PubMed: esearch retstart, retmax up to 200, within the first 10,000', () => {
  const pubmed = makeProvider(PubmedProvider);
  const query = makeQuery('paging', 'papers', 301);

  it('asks esearch from past this page for what the search still wants', () => {
    const request = first(pubmed, 'papers', 301);
    expect(parameters(request)).toMatchObject({ retmax: '200' });
    expect(parameters(request).retstart).toBeUndefined();
    const next = pubmed.nextPageRequest!(query, pageRead(request, {}, 200));
    expect(parameters(next)).toEqual({ ...parameters(request), retstart: '200', retmax: '101' });
  });

  it('stops after a short page, and at retstart + retmax = 10,000', () => {
    const request = first(pubmed, 'papers', 301);
    expect(pubmed.nextPageRequest!(query, pageRead(request, {}, 150))).toBeUndefined();
    const last = { ...request, url: `${request.url}&retstart=9800` };
    expect(pubmed.nextPageRequest!(makeQuery('paging', 'papers', 20_000), pageRead(last, {}, 200, 10_000))).toBeUndefined();
  });
});

describe('Crossref: offset, rows up to 100 (fedsearch\'s own page), within the first 10,000', () => {
  const crossref = makeProvider(CrossrefProvider);
  const query = makeQuery('paging', 'papers', 151);

  it('asks from past this page for what the search still wants', () => {
    const request = first(crossref, 'papers', 151);
    const next = crossref.nextPageRequest!(query, pageRead(request, { message: { items: items(100) } }, 100));
    expect(parameters(next)).toEqual({ ...parameters(request), offset: '100', rows: '51' });
  });

  it('stops after a short page, and at offset 10,000', () => {
    const request = first(crossref, 'papers', 151);
    expect(crossref.nextPageRequest!(query, pageRead(request, { message: { items: items(99) } }, 99))).toBeUndefined();
    const last = { ...request, url: `${request.url}&offset=9900` };
    expect(crossref.nextPageRequest!(makeQuery('paging', 'papers', 20_000), pageRead(last, { message: { items: items(100) } }, 100, 10_000))).toBeUndefined();
  });
});

describe('OpenAlex: page from 1, per_page up to 200, within the first 10,000', () => {
  const openalex = makeProvider(OpenAlexProvider);
  const query = makeQuery('paging', 'papers', 301);

  it('asks for the next page of the same size', () => {
    const request = first(openalex, 'papers', 301);
    expect(parameters(openalex.nextPageRequest!(query, pageRead(request, { results: items(200) }, 200)))).toEqual({ ...parameters(request), page: '2' });
  });

  it('stops after a short page, and where the next page would pass the first 10,000', () => {
    const request = first(openalex, 'papers', 301);
    expect(openalex.nextPageRequest!(query, pageRead(request, { results: items(150) }, 150))).toBeUndefined();
    const fiftieth = { ...request, url: `${request.url}&page=50` };
    expect(openalex.nextPageRequest!(makeQuery('paging', 'papers', 20_000), pageRead(fiftieth, { results: items(200) }, 200, 10_000))).toBeUndefined();
  });
});

describe('HN Search: page from 0, hitsPerPage up to 100, within nbPages and the first 1,000', () => {
  const hackernews = makeProvider(HackerNewsProvider);
  const query = makeQuery('paging', 'web', 151);

  it('asks for the next page of the same size', () => {
    const request = first(hackernews, 'web', 151);
    expect(parameters(hackernews.nextPageRequest!(query, pageRead(request, { nbPages: 5, hits: items(100) }, 100)))).toEqual({ ...parameters(request), page: '1' });
  });

  it('stops after a short page, on the last of nbPages, and at the first 1,000 hits', () => {
    const request = first(hackernews, 'web', 151);
    expect(hackernews.nextPageRequest!(query, pageRead(request, { nbPages: 5, hits: items(80) }, 80))).toBeUndefined();
    expect(hackernews.nextPageRequest!(query, pageRead(request, { nbPages: 1, hits: items(100) }, 100))).toBeUndefined();
    const tenth = { ...request, url: `${request.url}&page=9` };
    expect(hackernews.nextPageRequest!(makeQuery('paging', 'web', 2000), pageRead(tenth, { nbPages: 50, hits: items(100) }, 100, 1000))).toBeUndefined();
  });
});

describe('APIs without an offset stay one request deep', () => {
  it.each([TavilyProvider, ExaProvider])('$settings.name', (Provider) => {
    expect(makeProvider(Provider, KEYS).nextPageRequest).toBeUndefined();
  });
});

describe('reading a page parameter', () => {
  it('reads a request\'s parameter exactly as the URL parser would', () => {
    const piece = fc.constantFrom('count', 'page', '=', '&', '1', '20', '-3', ' ', '+', '%20', '%3D', '%2', '%', '#', '?', '/', 'é', 'x', '\t', '\n', '\u0001');
    const url = fc
      .tuple(fc.constantFrom('https://api.example/v1/search', 'http://127.0.0.1:9100/a/b', 'https://h.example/p#frag'), fc.array(piece, { maxLength: 12 }))
      .map(([base, pieces]) => `${base}?${pieces.join('')}`);
    // Adapters build URLs without spaces around them, but the parser's reading holds for those too.
    const spaced = fc.tuple(fc.constantFrom('', ' ', '\n '), url, fc.constantFrom('', ' ', '\t')).map(([before, address, after]) => `${before}${address}${after}`);
    fc.assert(
      fc.property(spaced, fc.constantFrom('count', 'page'), (address, name) => {
        const parsed = new URL(address).searchParams.get(name);
        expect(numberParameter({ url: address }, name, -1)).toBe(parsed === null ? -1 : Number(parsed));
      }),
      { numRuns: 2000 },
    );
  });

  it('tells an ordinary last page of Brave, and an ordinary first one of SearXNG, without parsing a URL', () => {
    const brave = makeProvider(BraveProvider, KEYS);
    const searxng = makeProvider(SearxngProvider, KEYS);
    const ordinary = makeQuery('paging', 'web', 11);
    const braveFirst = first(brave, 'web', 11);
    const searxngFirst = first(searxng, 'web', 11);
    const { parsed } = urlsParsedBy(() => {
      expect(brave.nextPageRequest!(ordinary, pageRead(braveFirst, { web: { results: items(10) } }, 10))).toBeUndefined();
      expect(searxng.nextPageRequest!(ordinary, pageRead(searxngFirst, {}, 10))).toBe(MORE_NOT_READ);
    });
    expect(parsed).toBe(0);
  });
});

/** The next request an adapter asks for after the page `body` is, read as parseResponse reads it. */
function afterParsedPage(provider: Provider, query: ReturnType<typeof makeQuery>, request: UpstreamRequest, page: UpstreamResponse): UpstreamRequest | typeof MORE_NOT_READ | undefined {
  const outcome = provider.parseResponse(page, query);
  if (!('items' in outcome)) throw new Error('expected items, not a follow-up');
  return provider.nextPageRequest!(query, { request, response: page, items: outcome.items, collected: outcome.items.length });
}

describe('a full page with an entry skipped when read is not taken for the last: paging counts what the upstream listed', () => {
  /** `count` entries, the first of them `skipped` (one the adapter does not make a result), the rest made by `entry`. */
  const listed = (count: number, skipped: unknown, entry: (index: number) => unknown): unknown[] => [skipped, ...Array.from({ length: count - 1 }, (_, index) => entry(index))];

  it('Semantic Scholar: 100 papers listed, one without an id or a url', () => {
    const s2 = makeProvider(SemanticScholarProvider);
    const query = makeQuery('paging', 'papers', 151);
    const data = listed(100, { title: 'no id, no url' }, (index) => ({ paperId: `p${index}`, title: `Paper ${index}` }));
    expect(parameters(afterParsedPage(s2, query, s2.buildRequest(query), response(JSON.stringify({ offset: 0, next: 100, data }))))).toMatchObject({ offset: '100' });
  });

  it('GitHub: 100 repositories listed, one private', () => {
    const github = makeProvider(GithubProvider);
    const query = makeQuery('paging', 'code', 201);
    const repository = (index: number) => ({ full_name: `owner/repo-${index}`, html_url: `https://github.com/owner/repo-${index}`, private: false });
    const body = { total_count: 5000, items: listed(100, { ...repository(999), private: true }, repository) };
    expect(parameters(afterParsedPage(github, query, github.buildRequest(query), response(JSON.stringify(body))))).toMatchObject({ page: '2' });
  });

  it('Hacker News: 100 hits listed, one a null', () => {
    const hackernews = makeProvider(HackerNewsProvider);
    const query = makeQuery('paging', 'web', 151);
    const hits = listed(100, null, (index) => ({ objectID: String(index), title: `Story ${index}`, url: `https://news.example/${index}` }));
    expect(parameters(afterParsedPage(hackernews, query, hackernews.buildRequest(query), response(JSON.stringify({ nbPages: 5, hits }))))).toMatchObject({ page: '1' });
  });

  it('YouTube: 50 results listed, one a null', () => {
    const youtube = makeProvider(YoutubeProvider, KEYS);
    const query = makeQuery('paging', 'video', 101);
    const entries = listed(50, null, (index) => ({ id: { kind: 'youtube#video', videoId: `video${String(index).padStart(6, '0')}` }, snippet: { title: `Video ${index}` } }));
    const body = { nextPageToken: 'CDIQAA', items: entries };
    expect(parameters(afterParsedPage(youtube, query, youtube.buildRequest(query), response(JSON.stringify(body))))).toMatchObject({ pageToken: 'CDIQAA' });
  });

  it('Crossref: 100 works listed, one a null', () => {
    const crossref = makeProvider(CrossrefProvider);
    const query = makeQuery('paging', 'papers', 151);
    const works = listed(100, null, (index) => ({ DOI: `10.1234/work.${index}`, title: [`Work ${index}`] }));
    const body = { status: 'ok', 'message-type': 'work-list', message: { 'total-results': 5000, items: works } };
    // 99 works read: the search still wants 151 - 99.
    expect(parameters(afterParsedPage(crossref, query, crossref.buildRequest(query), response(JSON.stringify(body))))).toMatchObject({ offset: '100', rows: '52' });
  });

  it('OpenAlex: 200 works listed, one a null', () => {
    const openalex = makeProvider(OpenAlexProvider);
    const query = makeQuery('paging', 'papers', 301);
    const works = listed(200, null, (index) => ({ id: `https://openalex.org/W${1000 + index}`, display_name: `Work ${index}` }));
    const body = { meta: { count: 5000, page: 1, per_page: 200 }, results: works };
    expect(parameters(afterParsedPage(openalex, query, openalex.buildRequest(query), response(JSON.stringify(body))))).toMatchObject({ page: '2' });
  });

  it('PubMed: efetch asked for the 200 PMIDs esearch listed and gave back fewer records', () => {
    const pubmed = makeProvider(PubmedProvider);
    const query = makeQuery('paging', 'papers', 301);
    const request = pubmed.buildRequest(query);
    const pmids = Array.from({ length: 200 }, (_, index) => String(10_000_000 + index));
    const articles = pmids
      .slice(1)
      .map((pmid) => `<PubmedArticle><MedlineCitation><PMID>${pmid}</PMID><Article><ArticleTitle>Article ${pmid}</ArticleTitle></Article></MedlineCitation></PubmedArticle>`)
      .join('');
    const efetch = { ...response(`<?xml version="1.0"?><PubmedArticleSet>${articles}</PubmedArticleSet>`), url: `https://eutils.example/entrez/eutils/efetch.fcgi?db=pubmed&id=${pmids.join(',')}` };
    // 199 records read: the search still wants 301 - 199.
    expect(parameters(afterParsedPage(pubmed, query, request, efetch))).toMatchObject({ retstart: '200', retmax: '102' });
  });
});
