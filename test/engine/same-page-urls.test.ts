import { describe, expect, it } from 'vitest';
import { canonicalUrl, domainOf, parsedUrlIdentity } from '../../src/engine/canonical-url.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { rankResults } from '../../src/engine/rank.js';

/**
 * Pairs of URLs as providers return them (many from the shared fixtures: Brave, SearXNG, Tavily, Exa, Wikipedia,
 * Hacker News, GitHub), each with why it is or is not one page. Merging two pages drops an answer the caller
 * should have seen, so the "different" table is the one that must never fail.
 */
const samePage: Array<[string, string, string]> = [
  ['https://zh.m.wikipedia.org/wiki/何世杰', 'https://zh.wikipedia.org/wiki/%E4%BD%95%E4%B8%96%E6%9D%B0', 'Wikipedia’s mobile site shows the same article (SearXNG returns the m. form)'],
  ["https://en.m.wikipedia.org/wiki/Fermat's_Last_Theorem", 'https://en.wikipedia.org/wiki/Fermat%27s_Last_Theorem', 'the REST summary’s mobile page link and the article'],
  ['https://en.wikipedia.org/wiki/Ada%20Lovelace', 'https://en.wikipedia.org/wiki/Ada_Lovelace', 'MediaWiki writes a title’s spaces as _'],
  ['https://en.m.wikipedia.org/wiki/Ada Lovelace', 'https://en.wikipedia.org/wiki/Ada_Lovelace', 'a raw space, through the parser'],
  ['https://en.wiktionary.org/wiki/ice%20cream', 'https://en.wiktionary.org/wiki/ice_cream', 'every Wikimedia project'],
  ['https://m.youtube.com/watch?v=OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'a mobile site’s m. host'],
  ['https://M.Example.com:443/a/', 'https://example.com/a', 'm. through the parser too'],
  ['https://example.com./a', 'https://example.com/a', 'a fully qualified host’s trailing dot names the same host'],
  ['https://www.example.com./a', 'https://example.com/a', 'trailing dot and www.'],
  ['http://example.com/a', 'https://example.com/a', 'http and https'],
  ['https://example.com:443/a', 'https://example.com/a', 'the default port'],
  ['https://example.com/a/', 'https://example.com/a', 'a trailing slash'],
  ['https://docs.python.org/3/library/index.html', 'https://docs.python.org/3/library/', 'a directory’s index file is the directory’s page'],
  ['https://example.com/index.htm', 'https://example.com', 'index.htm, at the root'],
  ['https://example.com/caf%C3%A9/index.html', 'https://example.com/café/', 'an index file after an encoded path'],
  ['https://Example.com/docs/index.html?b=1&a=2', 'https://example.com/docs/?a=2&b=1', 'an index file through the parser, before a query'],
  ['https://EXAMPLE.com/a', 'https://example.com/a', 'host letter case'],
  ['https://xn--mnchen-3ya.de/a', 'https://münchen.de/a', 'punycode and Unicode hosts'],
  ['https://user@example.com/a', 'https://example.com/a', 'user info'],
  ['https://example.com/%7Euser', 'https://example.com/~user', 'an encoded unreserved character'],
  ['https://example.com/%e4%bd%95', 'https://example.com/%E4%BD%95', 'lower- and upper-case hex'],
  ['https://example.com/C%2B%2B', 'https://example.com/C++', '+ is literal in a path'],
  ['https://example.com/a?q=%7E', 'https://example.com/a?q=~', 'an encoded unreserved character in the query'],
  ['https://example.com/a?b=1&a=2', 'https://example.com/a?a=2&b=1', 'parameter order'],
  ['https://example.com/a?id=1#top', 'https://example.com/a?id=1', 'a fragment that is a place on the page'],
  ['https://example.com/a#:~:text=word', 'https://example.com/a', 'a text fragment'],
  ['https://example.com/a?utm_source=x&UTM_Medium=y', 'https://example.com/a', 'utm_ parameters, any case'],
  ['https://example.com/a?fbclid=1&gclid=2&msclkid=3&srsltid=4', 'https://example.com/a', 'click ids'],
  ['https://example.com/a?pk_campaign=spring&pk_kwd=k&mtm_source=news', 'https://example.com/a', 'Matomo campaign parameters'],
  ['https://example.com/a?hsa_acc=1&hsa_cam=2&hsa_src=g', 'https://example.com/a', 'HubSpot ads parameters'],
  ['https://example.de/suche?q=M%fcller&utm_source=x', 'https://example.de/suche?utm%5Fsource=y&q=M%FCller', 'a Latin-1 query: hex case and tracking parameters'],
];

const differentPages: Array<[string, string, string]> = [
  ['https://www.youtube.com/watch?v=OLdeHYobcDI', 'https://www.youtube.com/watch?v=-WB0T0XmDrY', 'v names the video'],
  ['https://news.ycombinator.com/item?id=1', 'https://news.ycombinator.com/item?id=2', 'id names the story'],
  ['https://baijiahao.baidu.com/s?id=1730443414809360080', 'https://baijiahao.baidu.com/s?id=1730443414809360081', 'id names the article'],
  ['https://example.com/?p=1', 'https://example.com/?p=2', 'WordPress ?p= names the post'],
  ['https://example.com/search?q=a', 'https://example.com/search?q=b', 'q names the search'],
  ['https://example.com/search?q=C%2B%2B', 'https://example.com/search?q=C++', '+ is a space in a query'],
  ['https://example.com/list?page=2', 'https://example.com/list', 'page 2 of a list'],
  ['https://x.com/firecrawl_dev?lang=en', 'https://x.com/firecrawl_dev?lang=de', 'lang picks the language shown'],
  ['https://api.github.com/repositories/1/contents/a.py?ref=5475c2b', 'https://api.github.com/repositories/1/contents/a.py?ref=aa9c365', 'GitHub’s ref names a commit'],
  ['https://example.com/package.php?pk_id=7', 'https://example.com/package.php?pk_id=8', 'a site’s own pk_ parameter names its content'],
  ['https://example.com/documents?hsa_fsa_eligible=true', 'https://example.com/documents', 'a site’s own hsa_ parameter filters its content'],
  ['https://example.com/wiki/A%20B', 'https://example.com/wiki/A_B', 'only MediaWiki makes a space and _ one character'],
  ['https://github.com/o/r/wiki/A%20B', 'https://github.com/o/r/wiki/A_B', 'a GitHub wiki is not MediaWiki'],
  ['https://en.wikipedia.org/w/index.php?search=A%20B', 'https://en.wikipedia.org/w/index.php?search=A_B', 'a search is not a title'],
  ['https://example.com/Docs', 'https://example.com/docs', 'paths are case-sensitive'],
  ['https://example.com/docs/myindex.html', 'https://example.com/docs/', 'a file only named like an index file'],
  ['https://example.com/docs/index.json', 'https://example.com/docs/', 'an index of another type is a file of its own'],
  ['https://example.com/docs/index.html/a', 'https://example.com/docs/a', 'index.html as a directory'],
  ['https://example.com/a%2Fb', 'https://example.com/a/b', 'an encoded slash is not a path separator'],
  ['https://example.com/path%3Fx', 'https://example.com/path?x', 'an encoded ? is part of the path'],
  ['https://app.example.com/#/docs/install', 'https://app.example.com/#/docs/usage', 'a single-page app’s route'],
  ['https://app.example.com/#!/profile/42', 'https://app.example.com/', 'a hashbang route'],
  ['https://example.com:8443/a', 'https://example.com/a', 'another port is another server'],
  ['https://docs.example.com/a', 'https://example.com/a', 'another subdomain'],
  ['https://m.me/a', 'https://me/a', 'm.me is a site, not a mobile label'],
  ['https://mobile.de/a', 'https://de/a', 'mobile.de is a site'],
  ['https://mobile.example.com/a', 'https://example.com/a', 'mobile. names other sites as often as mobile versions'],
  ['https://team.example.com/a', 'https://example.com/a', 'a first label that only starts with m'],
  ['https://www.bilibili.com/video/BV1fu411G7e3/?p=1', 'https://www.bilibili.com/video/BV1fu411G7e3/?p=2', 'p names the part of a video'],
  // A legacy site's query in Latin-1 or Shift_JIS is no UTF-8: decoded as UTF-8, every such byte is U+FFFD.
  ['https://example.de/suche?q=M%FCller', 'https://example.de/suche?q=M%F6ller', 'Müller and Möller, written in Latin-1'],
  ['https://example.jp/search?kw=%93%8C%8B%9E', 'https://example.jp/search?kw=%8B%9E%93%8C', '東京 and 京東, written in Shift_JIS'],
  ['https://example.de/suche?q=M%FCller', 'https://example.de/suche?q=M%C3%BCller', 'Müller in Latin-1 and in UTF-8 are two queries to the server'],
];

describe('which provider URLs show the same page', () => {
  it.each(samePage)('%s and %s are one page: %s', (a, b) => {
    expect(canonicalUrl(a)).toBe(canonicalUrl(b));
    // The hot path and the parser agree on each.
    expect(canonicalUrl(a)).toBe(parsedUrlIdentity(a).key);
    expect(canonicalUrl(b)).toBe(parsedUrlIdentity(b).key);
  });

  it.each(differentPages)('%s and %s are two pages: %s', (a, b) => {
    expect(canonicalUrl(a)).not.toBe(canonicalUrl(b));
    expect(parsedUrlIdentity(a).key).not.toBe(parsedUrlIdentity(b).key);
  });
});

describe('a merged result', () => {
  const entry = (provider: string, rank: number, url: string): RankedItem => ({ provider, rank, weight: 1, item: { title: `${provider} ${rank}`, url } });

  it('shows a URL a provider returned, and the domain of that URL', () => {
    const returned = ['https://zh.m.wikipedia.org/wiki/何世杰', 'https://zh.wikipedia.org/wiki/%E4%BD%95%E4%B8%96%E6%9D%B0', 'https://example.com./a/'];
    const results = rankResults(
      groupResults('web', [entry('searxng', 1, returned[0]!), entry('wikipedia', 1, returned[1]!), entry('brave', 1, returned[2]!), entry('exa', 2, 'http://example.com/a')]),
    );
    expect(results.map((result) => result.sources.length)).toEqual([2, 2]);
    for (const result of results) {
      expect([...returned, 'http://example.com/a']).toContain(result.url);
      expect(result.domain).toBe(domainOf(result.url));
    }
    expect(results.map((result) => result.domain).sort()).toEqual(['example.com', 'zh.m.wikipedia.org']);
  });

  it('keeps two searches of a legacy site whose queries are written in Latin-1', () => {
    const groups = groupResults('web', [
      entry('brave', 1, 'https://www.example.de/cgi-bin/suche?name=M%FCller'),
      entry('searxng', 1, 'https://www.example.de/cgi-bin/suche?name=M%F6ller'),
    ]);
    expect(groups.map((group) => group.map((member) => member.item.url))).toEqual([
      ['https://www.example.de/cgi-bin/suche?name=M%FCller'],
      ['https://www.example.de/cgi-bin/suche?name=M%F6ller'],
    ]);
  });

  it('keeps two pages whose own parameters only look like tracking ones', () => {
    const groups = groupResults('web', [
      entry('brave', 1, 'https://shop.example.com/package.php?pk_id=7'),
      entry('searxng', 1, 'https://shop.example.com/package.php?pk_id=8'),
    ]);
    expect(groups).toHaveLength(2);
  });
});
