import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { GithubProvider } from '../../src/providers/github.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf, type RequestLine } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/github/${name}`, import.meta.url), 'utf8');

describe('github adapter', () => {
  const upstream = useFakeUpstream();

  it('searches repositories by default, without a token, and parses every repository', async () => {
    upstream.json('GET /github/search/repositories', fixture('search-repositories.json'));
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    const items = await runProvider(provider, makeQuery('rank fusion', 'code', 2));
    const request = upstream.requestsTo('/github/search/repositories').at(-1)!;
    expect(request.method).toBe('GET');
    // Public repositories only: the token may read private ones, which no caller may be given.
    expect(request.url.searchParams.get('q')).toBe('is:public rank fusion');
    expect(request.url.searchParams.get('per_page')).toBe('2');
    expect(request.headers.accept).toBe('application/vnd.github+json');
    expect(request.headers['x-github-api-version']).toBe('2022-11-28');
    expect(request.headers.authorization).toBeUndefined();
    expect(items).toEqual([
      {
        title: 'octo/fusion',
        url: 'https://github.com/octo/fusion',
        // Plain text kept as sent: "<50" is not an HTML tag.
        snippet: 'Reciprocal rank fusion in <50 lines',
        published_at: '2024-03-30T08:15:00.000Z',
        extra: { stars: 1234, language: 'TypeScript', forks: 56 },
      },
      {
        title: 'octo/empty',
        url: 'https://github.com/octo/empty',
        published_at: '2019-07-08T09:10:11.000Z',
        extra: { stars: 0, forks: 0 },
      },
    ]);
  });

  it('sends the token as a Bearer header', async () => {
    upstream.json('GET /github/search/repositories', fixture('search-repositories.json'));
    const provider = makeProvider(GithubProvider, { GITHUB_TOKEN: 'ghp_test1234', GITHUB_BASE_URL: `${upstream.origin}/github` });
    await runProvider(provider, makeQuery('fusion', 'code', 500, { scope: 'repositories' }));
    const request = upstream.requestsTo('/github/search/repositories').at(-1)!;
    expect(request.headers.authorization).toBe('Bearer ghp_test1234');
    expect(request.url.searchParams.get('per_page')).toBe('100');
  });

  it('searches code with scope=code and the text-match media type, and parses every file', async () => {
    upstream.json('GET /github/search/code', fixture('search-code.json'));
    const provider = makeProvider(GithubProvider, { GITHUB_TOKEN: 'ghp_test1234', GITHUB_BASE_URL: `${upstream.origin}/github` });
    const items = await runProvider(provider, makeQuery('fuse', 'code', 5, { scope: 'code' }));
    const request = upstream.requestsTo('/github/search/code').at(-1)!;
    expect(request.url.searchParams.get('q')).toBe('fuse');
    expect(request.url.searchParams.get('per_page')).toBe('5');
    expect(request.headers.accept).toBe('application/vnd.github.text-match+json');
    expect(request.headers.authorization).toBe('Bearer ghp_test1234');
    expect(items).toEqual([
      {
        title: 'rank.ts (octo/fusion)',
        url: 'https://github.com/octo/fusion/blob/abc123/src/engine/rank.ts',
        snippet: 'export function fuse(lists: Array<Item[]>) { return rrf(lists); … const k = 60; // fuse constant',
        extra: { repository: 'octo/fusion', path: 'src/engine/rank.ts' },
      },
      {
        title: 'README.md (octo/other)',
        url: 'https://github.com/octo/other/blob/def456/README.md',
        extra: { repository: 'octo/other', path: 'README.md' },
      },
    ]);
  });

  it('never hands on a private repository or code in one, which only the token could read', () => {
    const provider = makeProvider(GithubProvider, { GITHUB_TOKEN: 'ghp_test1234' });
    const repositories = JSON.stringify({
      total_count: 2,
      incomplete_results: false,
      items: [
        { full_name: 'octo/secret', html_url: 'https://github.com/octo/secret', private: true },
        { full_name: 'octo/open', html_url: 'https://github.com/octo/open', private: false },
      ],
    });
    const code = JSON.stringify({
      total_count: 2,
      incomplete_results: false,
      items: [
        { name: 'a.ts', path: 'a.ts', html_url: 'https://github.com/octo/secret/blob/1/a.ts', repository: { full_name: 'octo/secret', private: true } },
        { name: 'b.ts', path: 'b.ts', html_url: 'https://github.com/octo/open/blob/1/b.ts', repository: { full_name: 'octo/open', private: false } },
      ],
    });
    const urls = (body: string, scope: string): string[] => {
      const outcome = provider.parseResponse(response(body), makeQuery('x', 'code', 10, { scope }));
      return 'items' in outcome ? outcome.items.map((item) => item.url) : [];
    };
    expect(urls(repositories, 'repositories')).toEqual(['https://github.com/octo/open']);
    expect(urls(code, 'code')).toEqual(['https://github.com/octo/open/blob/1/b.ts']);
  });

  it('finds the queries GitHub refuses: over 256 characters besides qualifiers and operators, or over five AND, OR, NOT', () => {
    const provider = makeProvider(GithubProvider) as GithubProvider;
    expect(provider.queryProblem('a'.repeat(256))).toBeUndefined();
    expect(provider.queryProblem('a'.repeat(257))).toMatch(/at most 256 characters.*; this one has 257$/);
    // Characters, not UTF-16 units: 200 emoji are 400 units.
    expect(provider.queryProblem('😀'.repeat(200))).toBeUndefined();
    // Qualifiers, quoted ones and excluded ones too, are not counted; nor is a link, which may read as one.
    const qualified = `${'b'.repeat(250)} language:"visual basic" -user:octo stars:>=10 https://example.org/a/long/path`;
    expect(qualified.length).toBeGreaterThan(300);
    expect(provider.queryProblem(qualified)).toBeUndefined();
    expect(provider.queryProblem('a AND b OR c NOT d AND e OR f')).toBeUndefined();
    expect(provider.queryProblem('a AND b OR c NOT d AND e OR f NOT g')).toBe(
      'accepts at most 5 AND, OR or NOT operators in a query; this one has 6 (each excluded term, -word or NOT word, is sent after a NOT of its own)',
    );
    expect(provider.queryProblem('a and b or c not d and e or f not g "h AND i"')).toBeUndefined();
  });

  it('sends an excluded -word or -"phrase" after NOT, as GitHub documents for words, and a -qualifier as typed', async () => {
    upstream.json('GET /github/search/repositories', { total_count: 0, incomplete_results: false, items: [] });
    upstream.json('GET /github/search/code', { total_count: 0, incomplete_results: false, items: [] });
    const provider = makeProvider(GithubProvider, { GITHUB_TOKEN: 'ghp_test1234', GITHUB_BASE_URL: `${upstream.origin}/github` });
    await runProvider(provider, makeQuery('rank fusion -python -"data science" -language:go covid-19 -40', 'code', 5));
    expect(upstream.requestsTo('/github/search/repositories').at(-1)!.url.searchParams.get('q')).toBe(
      'is:public rank fusion -language:go covid-19 -40 NOT python NOT "data science"',
    );
    await runProvider(provider, makeQuery('useEffect AND -test', 'code', 5, { scope: 'code' }));
    expect(upstream.requestsTo('/github/search/code').at(-1)!.url.searchParams.get('q')).toBe('useEffect NOT test');
  });

  /** The q GitHub's repository search is sent for a text. */
  const qSent = async (text: string): Promise<string | null> => {
    upstream.json('GET /github/search/repositories', { total_count: 0, incomplete_results: false, items: [] });
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    await runProvider(provider, makeQuery(text, 'code', 5));
    return upstream.requestsTo('/github/search/repositories').at(-1)!.url.searchParams.get('q');
  };

  it('sends each word of NOT (a OR b) after a NOT of its own, as GitHub has no parentheses to group', async () => {
    expect(await qSent('http client NOT (python OR "data science")')).toBe('is:public http client NOT python NOT "data science"');
    expect(await qSent('NOT (python OR ruby) http client')).toBe('is:public http client NOT python NOT ruby');
  });

  it('sends the leading NOT of a query written in capitals in lower case, a word GitHub searches for', async () => {
    // Read as the operator, FOUND was excluded from a search for it.
    expect(await qSent('NOT FOUND HTTP 404')).toBe('is:public not FOUND HTTP 404');
    // Between words it is the operator, in capitals too.
    expect(await qSent('HIV NOT AIDS')).toBe('is:public HIV NOT AIDS');
    expect(await qSent('NOT FOUND -NGINX')).toBe('is:public not FOUND NOT NGINX');
  });

  it('puts is:public first, where no dangling operator, unclosed phrase or group typed after it can reach it', async () => {
    // After the text, `rust NOT is:public` negated the qualifier and `rust "async is:public` took it into the phrase;
    // first, a leading OR (`is:public OR rust`) would make it an alternative. What a caller leaves unfinished never
    // changes what is public.
    expect(await qSent('rust NOT')).toBe('is:public rust');
    expect(await qSent('rust AND')).toBe('is:public rust');
    expect(await qSent('rust "async')).toBe('is:public rust "async"');
    expect(await qSent('rust "')).toBe('is:public rust');
    expect(await qSent('rust (async tokio')).toBe('is:public rust async tokio');
    expect(await qSent('OR rust) tokio')).toBe('is:public rust tokio');
    // A NOT typed first still excludes, after the qualifier; one that starts a text written in capitals is a word still,
    // and one that ends it joins nothing.
    expect(await qSent('NOT python http client')).toBe('is:public http client NOT python');
    expect(await qSent('NOT FOUND')).toBe('is:public not FOUND');
    expect(await qSent('HTTP 404 NOT')).toBe('is:public HTTP 404');
  });

  it('sends an excluded phrase holding a parenthesis quoted, and no operator joining nothing at the ends of a group', async () => {
    // Unquoted, `NOT f(x` was a NOT before an unbalanced group.
    expect(await qSent('http client -"f(x"')).toBe('is:public http client NOT "f(x"');
    expect(await qSent('NOT ("f(x" OR ruby) http client')).toBe('is:public http client NOT "f(x" NOT ruby');
    expect(await qSent('rust (async OR) tokio')).toBe('is:public rust async tokio');
  });

  it('sends a group without the parentheses GitHub answers 422 to, where the query reads the same without them', async () => {
    // Sent as typed, each was a parenthesised group: GitHub's search refused it (422), and the caller lost its answer.
    // Leftover parentheses, a group of one term, or of AND-ed terms among AND-ed ones.
    expect(await qSent('asthma ( rats) NOT mice')).toBe('is:public asthma rats NOT mice');
    expect(await qSent('asthma ( -mice rats)')).toBe('is:public asthma rats NOT mice');
    expect(await qSent('http (client server) rust')).toBe('is:public http client server rust');
    expect(await qSent('(http NOT client) rust')).toBe('is:public http NOT client rust');
    expect(await qSent('((tokio)) runtime')).toBe('is:public tokio runtime');
    // A group that is the whole query, or of alternatives among alternatives; a phrase keeps its parentheses, a word.
    expect(await qSent('(rust OR go)')).toBe('is:public rust OR go');
    expect(await qSent('(rust OR go) OR zig')).toBe('is:public rust OR go OR zig');
    expect(await qSent('("f(x)" OR lambda)')).toBe('is:public "f(x)" OR lambda');
    upstream.json('GET /github/search/code', { total_count: 0, incomplete_results: false, items: [] });
    const provider = makeProvider(GithubProvider, { GITHUB_TOKEN: 'ghp_test1234', GITHUB_BASE_URL: `${upstream.origin}/github` });
    await runProvider(provider, makeQuery('(useEffect cleanup) language:ts', 'code', 5, { scope: 'code' }));
    expect(upstream.requestsTo('/github/search/code').at(-1)!.url.searchParams.get('q')).toBe('useEffect cleanup language:ts');
    for (const text of ['asthma ( rats) NOT mice', '(rust OR go)', '(useEffect cleanup) language:ts']) {
      expect(provider.queryProblem!(text), text).toBeUndefined();
    }
  });

  it('skips a query whose group GitHub would read otherwise without its parentheses, naming it, and sends no request', async () => {
    // GitHub documents no order between AND and OR: `a OR b c` may be `a OR (b c)`, and `a OR b NOT c` may keep c in a.
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    const before = upstream.requests.length;
    const problem = (group: string): string =>
      `accepts no parentheses (its search API answers a group with 422), and without them ${group} would mean something else beside the rest of the query, as GitHub documents no order between AND and OR: search for each alternative on its own`;
    for (const [text, group] of [
      ['(Foo OR Bar) -path:vendor language:go', '(Foo OR Bar)'],
      ['(rust OR go) web', '(rust OR go)'],
      ['web (rust OR go', '(rust OR go)'],
      ['(rust OR go) -tutorial', '(rust OR go)'],
      ['zig OR (rust async)', '(rust async)'],
      // The innermost group is named: the outer one could go only once it had.
      ['((rust OR go) web) OR zig', '(rust OR go)'],
    ] as const) {
      expect(provider.queryProblem!(text), text).toBe(problem(group));
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('sends -(a OR b) as NOT (a OR b) is sent, and AND NOT as the NOT GitHub documents between words', async () => {
    expect(await qSent('http client -(python OR "data science")')).toBe('is:public http client NOT python NOT "data science"');
    // Not `asthma AND NOT mice`: GitHub documents NOT between words (`hello NOT world`), never after another operator.
    expect(await qSent('http client AND NOT python')).toBe('is:public http client NOT python');
    expect(await qSent('http client OR NOT (python OR ruby)')).toBe('is:public http client NOT python NOT ruby');
    // A -qualifier stays GitHub's own syntax; a - before a number or a group of them excludes nothing, and the group,
    // glued to its -, is sent as a phrase, as a formula is.
    expect(await qSent('http -language:go -(2024)')).toBe('is:public http -language:go "-(2024)"');
  });

  it('sends an AND NOT or OR NOT before a number as one NOT after the words, no two operators side by side', async () => {
    // Sent as typed, GitHub was sent `AND NOT` and `OR NOT`, pairs it documents nowhere (`hello NOT world`).
    expect(await qSent('asthma AND NOT 40')).toBe('is:public asthma NOT 40');
    expect(await qSent('asthma AND NOT 40 inhaler')).toBe('is:public asthma inhaler NOT 40');
    // The alternatives stay alternatives; the excluded number goes after them, as an excluded -word does.
    expect(await qSent('a OR NOT -40 OR b')).toBe('is:public a OR b NOT -40');
    expect(await qSent('http AND NOT -40')).toBe('is:public http NOT -40');
  });

  it('excludes a formula after - or AND NOT whole, as a phrase, not its name alone', async () => {
    // Read up to its `(`, only `f` was excluded and `(x)` became x to find: `is:public solver x NOT f`.
    expect(await qSent('solver -f(x)')).toBe('is:public solver NOT "f(x)"');
    expect(await qSent('solver AND NOT f(x)')).toBe('is:public solver NOT "f(x)"');
  });

  it('sends a formula, a group glued to a word, as a phrase: no parenthesis reaches GitHub outside quotes', async () => {
    expect(await qSent('f(x) solver')).toBe('is:public "f(x)" solver');
    expect(await qSent('sin(-x) OR cos(x)')).toBe('is:public "sin(-x)" OR "cos(x)"');
    expect(await qSent('solver NOT f(x, y)')).toBe('is:public solver NOT "f(x, y)"');
  });

  it('skips a formula that a phrase would not read as typed, naming it, and sends no request', async () => {
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    const before = upstream.requests.length;
    for (const formula of ['-(2024 OR 2025)', '"x"(a OR b)', '"x"(a b)']) {
      expect(provider.queryProblem!(`solver ${formula}`), formula).toBe(
        `accepts no parentheses (its search API answers a group with 422), and ${formula} cannot be sent without them: quoted as a phrase, as other formulas are, its quotes or its AND, OR or NOT would no longer be read (and GitHub's NOT does not exclude numbers): search without it, or for each alternative on its own`,
      );
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('sends a NOT that opens a group as the NOT GitHub documents between words, and a - before a formula in its phrase', async () => {
    // Sent as typed, `(NOT python)` was a NOT with nothing before it, inside parentheses GitHub does not have.
    expect(await qSent('http client (NOT python)')).toBe('is:public http client NOT python');
    expect(await qSent('(NOT (python OR ruby)) http client')).toBe('is:public http client NOT python NOT ruby');
    // Not `NOT x+1`: a formula's minus.
    expect(await qSent('solver -(x+1)')).toBe('is:public solver "-(x+1)"');
  });

  it('skips a query of operators, quotes or parentheses alone, which GitHub refuses with 422, and sends no request', async () => {
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    const before = upstream.requests.length;
    for (const text of ['(', '"', 'AND (', ')', 'NOT (OR)']) {
      expect(provider.queryProblem!(text), text).toBe('the query has no word to search for, only operators (AND, OR, NOT), quotes, parentheses or punctuation');
    }
    await expect(runProvider(provider, makeQuery('AND (', 'code', 5))).rejects.toMatchObject({ code: 'QUERY_INVALID' });
    expect(upstream.requests.length).toBe(before);
  });

  it('skips a query whose excluded terms would pass five operators, or leave NOT nothing before it, and sends no request', async () => {
    // Sent as typed, GitHub was asked `d -(a OR b …)` and `-python`: it documents `-` for qualifiers only and has no
    // parentheses, so the excluded words were words to find, or `NOT (FOUND)`, a NOT with nothing before it.
    const provider = makeProvider(GithubProvider, { GITHUB_BASE_URL: `${upstream.origin}/github` });
    const before = upstream.requests.length;
    const tooMany = 'accepts at most 5 AND, OR or NOT operators in a query; this one has 6 (each excluded term, -word or NOT word, is sent after a NOT of its own)';
    const onlyExcluded = 'the query has no word to search for besides its excluded terms (-word)';
    for (const [text, problem] of [
      ['d -(a OR b OR c OR e OR f OR g)', tooMany],
      ['d -a -b -c -e -f -g', tooMany],
      ['a AND b OR c NOT d AND e OR f -g', tooMany],
      ['-python', onlyExcluded],
      ['(NOT FOUND)', onlyExcluded],
      ['NOT (python OR ruby)', onlyExcluded],
    ] as const) {
      // The pipeline asks queryProblem before any request (test/http/refused-before-sending); buildRequest refuses too
      // what it could not send at all.
      expect(provider.queryProblem!(text), text).toBe(problem);
      if (problem === onlyExcluded) {
        await expect(runProvider(provider, makeQuery(text, 'code', 5)), text).rejects.toMatchObject({ code: 'QUERY_INVALID', message: problem });
      }
    }
    expect(upstream.requests.length).toBe(before);
    // Five operators in all are sent, NOTs of excluded terms among them.
    upstream.json('GET /github/search/repositories', { total_count: 0, incomplete_results: false, items: [] });
    await runProvider(provider, makeQuery('a AND b OR c -d -e -f', 'code', 5));
    expect(upstream.requestsTo('/github/search/repositories').at(-1)!.url.searchParams.get('q')).toBe('is:public a AND b OR c NOT d NOT e NOT f');
  });

  it("builds each search's request from its own text when another search was checked in between", () => {
    // The text a check works out is remembered for the request; a search waiting for a rate-limit slot meanwhile
    // has another checked before its request is built.
    const provider = makeProvider(GithubProvider);
    const sentFor = (text: string) => new URL(provider.buildRequest(makeQuery(text, 'code', 5)).url).searchParams.get('q');
    expect(provider.queryProblem!('rust -python')).toBeUndefined();
    expect(provider.queryProblem!('zig OR (a OR b)')).toBeUndefined();
    expect(sentFor('rust -python')).toBe('is:public rust NOT python');
    expect(sentFor('zig OR (a OR b)')).toBe('is:public zig OR a OR b');
    expect(provider.queryProblem!('(a OR b) c')).toMatch(/^accepts no parentheses/);
    expect(sentFor('f(x) -y')).toBe('is:public "f(x)" NOT y');
  });

  it('refuses code search without a token, and unknown scopes', () => {
    const provider = makeProvider(GithubProvider);
    expect(provider.missingSettings()).toEqual([]);
    let notConfigured: unknown;
    try {
      provider.buildRequest(makeQuery('fuse', 'code', 5, { scope: 'code' }));
    } catch (error) {
      notConfigured = error;
    }
    expect(notConfigured).toBeInstanceOf(FedsearchError);
    expect((notConfigured as FedsearchError).code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((notConfigured as FedsearchError).message).toBe('GITHUB_TOKEN is required for code search');
    expect(() => provider.buildRequest(makeQuery('fuse', 'code', 5, { scope: 'issues' }))).toThrow(/scope: "issues" is not a GitHub search scope; allowed: /);
  });

  it('describes error bodies by their message and throws on an error in a 200', () => {
    const provider = makeProvider(GithubProvider);
    expect(provider.describeError(response(fixture('error-401.json'), 401))).toBe('Bad credentials');
    expect(provider.describeError(response(fixture('error-422.json'), 422))).toBe(
      'Validation Failed: The search contains only logical operators (AND / OR / NOT) without any search terms.',
    );
    expect(provider.describeError(response('upstream connect error', 503))).toBeUndefined();
    expect(() => provider.parseResponse(response(fixture('error-401.json')), makeQuery('x', 'code'))).toThrow(FedsearchError);
  });
});

const github = makeProvider(GithubProvider, { GITHUB_TOKEN: 'k' });
/**
 * GitHub answers JSON; the text-match media type (`application/vnd.github[.v3].text-match+json`) adds
 * text_matches[] to each item. An Accept that was not recorded is the default JSON.
 */
const githubSends = {
  sent: [github.buildRequest(makeQuery('q', 'code')), github.buildRequest(makeQuery('q', 'code', 10, { scope: 'code' }))],
  formatOf: (request: RequestLine) => `${endpointOf(request)} ${request.accept?.includes('text-match') ? 'text-match+json' : 'json'}`,
};

describeSharedFixtures('github', githubSends, (fixtures) => {
  const provider = github;
  for (const shared of fixtures) {
    if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every result is parsed with title and url`, () => {
        const expected = (JSON.parse(shared.body) as { items: unknown[] }).items.length;
        const outcome = provider.parseResponse(response(shared.body, shared.status), makeQuery('q', 'code'));
        const items = 'items' in outcome ? outcome.items : [];
        expect(expected).toBeGreaterThan(0);
        expect(items).toHaveLength(expected);
        for (const item of items) {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https:\/\/github\.com\//);
          expect(item.snippet === undefined || item.snippet.length > 0).toBe(true);
        }
      });
    } else {
      it(`${shared.file}: the error body is described or rejected as a FedsearchError`, () => {
        const described = provider.describeError(response(shared.body, shared.status));
        expect(described).toBe('Bad credentials');
        expect(() => provider.parseResponse(response(shared.body, shared.status), makeQuery('q', 'code'))).toThrow(FedsearchError);
      });
    }
  }
});
