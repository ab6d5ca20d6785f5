import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import { BraveProvider } from '../../src/providers/brave.js';
import { CrossrefProvider } from '../../src/providers/crossref.js';
import { ExaProvider } from '../../src/providers/exa.js';
import { FirecrawlProvider } from '../../src/providers/firecrawl.js';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import type { Provider } from '../../src/providers/provider.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { SearxngProvider } from '../../src/providers/searxng.js';
import { SemanticScholarProvider } from '../../src/providers/semanticscholar.js';
import { TavilyProvider } from '../../src/providers/tavily.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, rejection, response, runProvider } from '../support/run-provider.js';

/**
 * One entry of an answer that cannot be a result (null, or no URL and nothing to make one from) is left out and the
 * others are still the answer; an answer whose every entry is like that is a parse error, not "nothing found".
 */

const urlsOf = (items: ProviderItem[]): string[] => items.map((item) => item.url);

function xml(body: string) {
  return { kind: 'respond' as const, status: 200, headers: { 'content-type': 'application/xml; charset=utf-8' }, body };
}

function parsed(provider: Provider, body: unknown): ProviderItem[] {
  const outcome = provider.parseResponse(response(JSON.stringify(body)), makeQuery('q'));
  if (!('items' in outcome)) throw new Error('expected items, not a follow-up');
  return outcome.items;
}

function expectParseError(provider: Provider, body: unknown): void {
  expect(() => provider.parseResponse(response(JSON.stringify(body)), makeQuery('q'))).toThrow(
    expect.objectContaining({ code: 'PROVIDER_PARSE', message: expect.stringContaining('could be read') }),
  );
}

/** An Atom entry as arXiv sends it (https://info.arxiv.org/help/api/user-manual.html, section 5.2). */
const arxivEntry = (id: string, title: string): string => `
  <entry>
    <id>http://arxiv.org/abs/${id}v1</id>
    <title>${title}</title>
    <summary>About ${title}.</summary>
    <published>2024-01-02T00:00:00Z</published>
    <link href="http://arxiv.org/abs/${id}v1" rel="alternate" type="text/html"/>
  </entry>`;
/** An entry with a title but neither an <id> nor a link: nothing to point a result at. */
const arxivEntryWithoutId = '<entry><title>Lost entry</title><summary>No id, no link.</summary></entry>';
const arxivFeed = (...entries: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"><title>arXiv Query</title>${entries.join('')}</feed>`;

/** A PubmedArticle as efetch sends it (https://www.nlm.nih.gov/bsd/licensee/elements_descriptions.html). */
const pubmedArticle = (pmid: string, title: string): string => `
  <PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">${pmid}</PMID>
      <Article><Journal><Title>Journal of Tests</Title><JournalIssue><PubDate><Year>2021</Year></PubDate></JournalIssue></Journal>
        <ArticleTitle>${title}</ArticleTitle></Article>
    </MedlineCitation>
    <PubmedData><ArticleIdList><ArticleId IdType="pubmed">${pmid}</ArticleId></ArticleIdList></PubmedData>
  </PubmedArticle>`;
/** A record with neither a PMID nor a DOI anywhere. */
const pubmedArticleWithoutIds = `
  <PubmedArticle><MedlineCitation><Article><ArticleTitle>Unnumbered</ArticleTitle></Article></MedlineCitation></PubmedArticle>`;
/** A record whose MedlineCitation lacks its PMID, which PubmedData still lists. */
const pubmedArticlePmidInDataOnly = `
  <PubmedArticle>
    <MedlineCitation><Article><ArticleTitle>Listed in PubmedData</ArticleTitle></Article></MedlineCitation>
    <PubmedData><ArticleIdList><ArticleId IdType="pubmed">31000003</ArticleId></ArticleIdList></PubmedData>
  </PubmedArticle>`;

describe('one malformed entry does not sink the answer', () => {
  const upstream = useFakeUpstream();

  it('arXiv: an entry without an id or a link is skipped, the others come back', async () => {
    const provider = makeProvider(ArxivProvider, { ARXIV_BASE_URL: `${upstream.origin}/arxiv` });
    upstream.on('GET /arxiv/api/query', xml(arxivFeed(arxivEntry('2401.00001', 'First'), arxivEntryWithoutId, arxivEntry('2401.00002', 'Second'))));
    const items = await runProvider(provider, makeQuery('anything', 'papers'));
    expect(items.map((item) => [item.title, item.url])).toEqual([
      ['First', 'https://arxiv.org/abs/2401.00001'],
      ['Second', 'https://arxiv.org/abs/2401.00002'],
    ]);
  });

  it('arXiv: a feed of entries none of which has an id or a link is a parse error', async () => {
    const provider = makeProvider(ArxivProvider, { ARXIV_BASE_URL: `${upstream.origin}/arxiv` });
    upstream.on('GET /arxiv/api/query', xml(arxivFeed(arxivEntryWithoutId, arxivEntryWithoutId)));
    const error = await rejection(runProvider(provider, makeQuery('anything', 'papers')));
    expect(error.code).toBe('PROVIDER_PARSE');
    expect(error.message).toContain('none of the 2 listed results could be read');
  });

  it('Semantic Scholar: a null paper and one with neither an id nor a url are skipped', async () => {
    const provider = makeProvider(SemanticScholarProvider, { SEMANTIC_SCHOLAR_BASE_URL: `${upstream.origin}/s2` });
    upstream.json('GET /s2/graph/v1/paper/search', {
      total: 4,
      offset: 0,
      data: [
        { paperId: 'a'.repeat(40), url: 'https://www.semanticscholar.org/paper/first', title: 'First' },
        null,
        { title: 'Nowhere', externalIds: {} },
        { title: 'By DOI', externalIds: { DOI: '10.1234/by-doi' } },
      ],
    });
    const items = await runProvider(provider, makeQuery('anything', 'papers'));
    expect(urlsOf(items)).toEqual(['https://www.semanticscholar.org/paper/first', 'https://doi.org/10.1234/by-doi']);
  });

  it('PubMed: a record without a PMID or a DOI is skipped; one whose PMID is only in PubmedData is kept', async () => {
    const provider = makeProvider(PubmedProvider, { PUBMED_BASE_URL: `${upstream.origin}/pubmed` });
    upstream
      .on('GET /pubmed/entrez/eutils/esearch.fcgi', xml('<eSearchResult><Count>3</Count><IdList><Id>31000001</Id><Id>31000002</Id><Id>31000003</Id></IdList></eSearchResult>'))
      .on('GET /pubmed/entrez/eutils/efetch.fcgi', xml(`<PubmedArticleSet>${pubmedArticle('31000001', 'First')}${pubmedArticleWithoutIds}${pubmedArticlePmidInDataOnly}${pubmedArticle('31000002', 'Second')}</PubmedArticleSet>`));
    const items = await runProvider(provider, makeQuery('anything', 'papers'));
    expect(items.map((item) => [item.title, item.url, item.pmid])).toEqual([
      ['First', 'https://pubmed.ncbi.nlm.nih.gov/31000001/', '31000001'],
      ['Listed in PubmedData', 'https://pubmed.ncbi.nlm.nih.gov/31000003/', '31000003'],
      ['Second', 'https://pubmed.ncbi.nlm.nih.gov/31000002/', '31000002'],
    ]);
  });

  it('PubMed: an article set none of whose records has a PMID or a DOI is a parse error', () => {
    const provider = makeProvider(PubmedProvider);
    const body = `<PubmedArticleSet>${pubmedArticleWithoutIds}</PubmedArticleSet>`;
    expect(() => provider.parseResponse(response(body), makeQuery('q', 'papers'))).toThrow(
      expect.objectContaining({ code: 'PROVIDER_PARSE', message: expect.stringContaining('none of the 1 listed results could be read') }),
    );
  });

  it('Firecrawl: a result without a URL and a null are skipped in any source, the others come back', async () => {
    const provider = makeProvider(FirecrawlProvider, { FIRECRAWL_API_KEY: 'fc-k', FIRECRAWL_BASE_URL: `${upstream.origin}/firecrawl` });
    upstream.json('POST /firecrawl/v2/search', {
      success: true,
      data: {
        web: [{ url: 'https://one.example/', title: 'One' }, { title: 'No link', description: 'Nothing to open.' }, null],
        news: [{ url: 'https://news.example/two', title: 'Two' }],
      },
    });
    const items = await runProvider(provider, makeQuery('anything', 'content'));
    expect(urlsOf(items)).toEqual(['https://one.example/', 'https://news.example/two']);
  });

  const youtube = makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'yt-k' }) as YoutubeProvider;
  const video = { kind: 'youtube#searchResult', id: { kind: 'youtube#video', videoId: 'abcdefghijk' }, snippet: { title: 'A video' } };

  /** Adapters that made a null entry (or one with no link, id or title) a result anyway: an "Untitled work" or a search for "". */
  it.each<[string, Provider, unknown, string]>([
    ['Crossref', makeProvider(CrossrefProvider), { status: 'ok', 'message-type': 'work-list', message: { items: [{ DOI: '10.1234/crossref', title: ['Crossref work'] }, null, {}] } }, 'https://doi.org/10.1234/crossref'],
    ['OpenAlex', makeProvider(OpenAlexProvider), { meta: { count: 3 }, results: [{ id: 'https://openalex.org/W1', display_name: 'OpenAlex work' }, null, {}] }, 'https://openalex.org/W1'],
    ['Hacker News', makeProvider(HackerNewsProvider), { hits: [{ objectID: '1', title: 'HN story', url: 'https://story.example/' }, null, {}] }, 'https://story.example/'],
    ['GitHub', makeProvider(GithubProvider), { total_count: 3, items: [{ full_name: 'owner/repo', html_url: 'https://github.com/owner/repo' }, null, {}] }, 'https://github.com/owner/repo'],
    ['YouTube search.list', youtube, { items: [video, null, { snippet: {} }] }, 'https://www.youtube.com/watch?v=abcdefghijk'],
  ])('%s: an entry that cannot be a result is skipped, not made one', (_name, provider, body, url) => {
    expect(urlsOf(parsed(provider, body))).toEqual([url]);
  });

  it('YouTube videos.list: a null video is skipped, not made an empty search', () => {
    const body = JSON.stringify({ items: [null, { id: 'abcdefghijk', snippet: { title: 'A video' } }] });
    expect(urlsOf(youtube.parseVideosResponse(response(body)))).toEqual(['https://www.youtube.com/watch?v=abcdefghijk']);
  });

  it.each<[string, Provider, unknown]>([
    ['Brave', makeProvider(BraveProvider, { BRAVE_API_KEY: 'k' }), { type: 'search', web: { results: [{ title: 'No link' }] }, news: { results: [null] } }],
    ['Exa', makeProvider(ExaProvider, { EXA_API_KEY: 'k' }), { results: [{ title: 'No link' }] }],
    ['Tavily', makeProvider(TavilyProvider, { TAVILY_API_KEY: 'k' }), { results: [{ title: 'No link', content: 'text' }] }],
    ['SearXNG', makeProvider(SearxngProvider, { SEARXNG_URL: 'http://searx.local/' }), { query: 'q', results: [{ title: 'No link' }], unresponsive_engines: [] }],
    ['Wikipedia', makeProvider(WikipediaProvider), { query: { search: [{ pageid: 1 }, null] } }],
    ['Semantic Scholar', makeProvider(SemanticScholarProvider), { total: 1, data: [null] }],
    ['Firecrawl', makeProvider(FirecrawlProvider, { FIRECRAWL_API_KEY: 'k' }), { success: true, data: { web: [{ title: 'No link' }] } }],
    ['Crossref', makeProvider(CrossrefProvider), { status: 'ok', message: { items: [null, {}] } }],
    ['OpenAlex', makeProvider(OpenAlexProvider), { results: [null] }],
    ['Hacker News', makeProvider(HackerNewsProvider), { hits: [null] }],
    ['GitHub', makeProvider(GithubProvider), { items: [null] }],
    ['YouTube', youtube, { items: [null] }],
  ])('%s: an answer whose every entry cannot be a result is a parse error, not an empty ok', (_name, provider, body) => {
    expectParseError(provider, body);
  });

  it('an empty list is still an empty answer, not a parse error', () => {
    expect(parsed(makeProvider(ExaProvider, { EXA_API_KEY: 'k' }), { results: [] })).toEqual([]);
    expect(parsed(makeProvider(SemanticScholarProvider), { total: 0, offset: 0, data: [] })).toEqual([]);
    expect(parsed(makeProvider(FirecrawlProvider, { FIRECRAWL_API_KEY: 'k' }), { success: true, data: { web: [] } })).toEqual([]);
    expect(parsed(makeProvider(GithubProvider), { total_count: 0, items: [] })).toEqual([]);
  });
});
