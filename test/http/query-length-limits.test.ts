import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const TAVILY = '/tavily/search';
const BRAVE = '/brave/res/v1/web/search';
const SEARXNG = '/searxng/search';
const GITHUB = '/github/search/repositories';

type Outcome = { provider: string; status: string; count: number; message?: string };

/**
 * Tavily refuses a query longer than 400 characters with a 400 ("Query is too long. Max query length is 400
 * characters."), and Brave takes "a maximum of 400 characters and 50 words", while fedsearch takes up to 500
 * characters: such a search does not ask them (no request, no quota spent, no error outcome) and reports each
 * skipped with the reason; the other providers answer as usual.
 */
describe('a query longer than a provider accepts', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(`POST ${TAVILY}`, { query: 'q', results: [{ title: 'Tavily result', url: 'https://t.example/1', content: 'text', score: 0.9 }] });
    upstream.json(BRAVE, { web: { results: [{ title: 'Brave result', url: 'https://b.example/1', description: 'text' }] } });
    upstream.json(SEARXNG, { results: [{ title: 'SearXNG result', url: 'https://s.example/1', content: 'text' }] });
    service = await startService({ ...providerEnv(upstream.origin), TAVILY_API_KEY: 'tavily-key-0123456789', BRAVE_API_KEY: 'brave-key-0123456789', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (words: string): Promise<Record<string, Outcome>> => {
    const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=tavily,brave,searxng`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[] };
    return Object.fromEntries(body.providers.map((outcome) => [outcome.provider, outcome]));
  };
  const tavilyAsked = (words: string): number => upstream.requestsTo(TAVILY).filter((recorded) => JSON.parse(recorded.body).query === words).length;
  const braveAsked = (words: string): number => upstream.requestsTo(BRAVE).filter((recorded) => recorded.url.searchParams.get('q') === words).length;

  it('skips Tavily and Brave for 401 characters, saying why, and still asks SearXNG', async () => {
    const words = `${'longer '.repeat(57)}xx`;
    expect(words).toHaveLength(401);
    const outcomes = await search(words);
    expect(outcomes.tavily).toMatchObject({ status: 'skipped', count: 0, message: 'accepts queries of at most 400 characters; this one has 401' });
    expect(outcomes.brave).toMatchObject({ status: 'skipped', count: 0, message: 'accepts queries of at most 400 characters; this one has 401' });
    expect(outcomes.searxng).toMatchObject({ status: 'ok', count: 1 });
    expect(tavilyAsked(words)).toBe(0);
    expect(braveAsked(words)).toBe(0);
  });

  it('skips Brave for 51 words in fewer than 400 characters, and asks it for 50', async () => {
    const tooMany = `${'w '.repeat(50)}w`;
    const outcomes = await search(tooMany);
    expect(outcomes.brave).toMatchObject({ status: 'skipped', count: 0, message: 'accepts queries of at most 50 words; this one has 51' });
    expect(outcomes.tavily).toMatchObject({ status: 'ok', count: 1 });
    expect(braveAsked(tooMany)).toBe(0);
    const enough = `${'w '.repeat(49)}w`;
    expect((await search(enough)).brave).toMatchObject({ status: 'ok', count: 1 });
    expect(braveAsked(enough)).toBe(1);
  });

  it('asks Tavily for 400 characters, counted as characters (é, emoji), not bytes or UTF-16 units', async () => {
    const words = `${'é😀 '.repeat(133)}x`;
    expect([...words]).toHaveLength(400);
    expect((await search(words)).tavily).toMatchObject({ status: 'ok', count: 1 });
    expect(tavilyAsked(words)).toBe(1);
  });
});

/**
 * GitHub refuses a query "longer than 256 characters (not including operators or qualifiers)" or with "more than
 * five AND, OR, or NOT operators" with 422 Validation Failed (docs.github.com/rest/search/search, "Limitations on query
 * length"): such a search does not ask it and reports it skipped with the reason; one long only by its qualifiers is asked.
 */
describe('a query GitHub would refuse', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(GITHUB, { total_count: 1, incomplete_results: false, items: [{ full_name: 'octo/long', html_url: 'https://github.com/octo/long' }] });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const githubSearch = async (words: string): Promise<Outcome> => {
    const response = await callOperation(service, 'github_search', { query: words });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { providers: Outcome[] };
    return body.providers.find((outcome) => outcome.provider === 'github')!;
  };
  const githubAsked = (words: string): number => upstream.requestsTo(GITHUB).filter((recorded) => recorded.url.searchParams.get('q') === `is:public ${words}`).length;

  it('skips GitHub for 257 characters of search words, saying why, and asks it for 256', async () => {
    const tooLong = `${'word '.repeat(51)}xx`;
    expect(tooLong).toHaveLength(257);
    expect(await githubSearch(tooLong)).toMatchObject({
      status: 'skipped',
      count: 0,
      message: 'accepts queries of at most 256 characters, not counting qualifiers (language:go) or AND, OR, NOT; this one has 257',
    });
    expect(githubAsked(tooLong)).toBe(0);
    const enough = `${'word '.repeat(51)}x`;
    expect(await githubSearch(enough)).toMatchObject({ status: 'ok', count: 1 });
    expect(githubAsked(enough)).toBe(1);
  });

  it('asks GitHub for a query over 256 characters only with its qualifiers and operators', async () => {
    const words = `${'word '.repeat(50)}language:typescript stars:>100 in:readme fork:true OR archived:false`;
    expect(words.length).toBeGreaterThan(300);
    expect(await githubSearch(words)).toMatchObject({ status: 'ok', count: 1 });
    expect(githubAsked(words)).toBe(1);
  });

  it('skips GitHub for six AND, OR or NOT operators, and asks it for five', async () => {
    const six = 'cats AND dogs OR birds NOT fish AND frogs OR toads NOT newts';
    expect(await githubSearch(six)).toMatchObject({ status: 'skipped', count: 0, message: 'accepts at most 5 AND, OR or NOT operators in a query; this one has 6 (each excluded term, -word or NOT word, is sent after a NOT of its own)' });
    expect(githubAsked(six)).toBe(0);
    // A quoted AND is a word searched for, and a lower-case one an ordinary word: neither is an operator.
    const five = 'cats AND dogs OR birds NOT fish AND frogs OR toads and "newts AND eels"';
    expect(await githubSearch(five)).toMatchObject({ status: 'ok', count: 1 });
    expect(githubAsked(five)).toBe(1);
  });
});

/**
 * CirrusSearch, which Wikipedia runs, answers a query of more than 300 characters with an error
 * (`cirrussearch-query-too-long`, $wgCirrusSearchMaxFullTextQueryLength's default), with HTTP 200 as MediaWiki does.
 */
describe('a query longer than a MediaWiki site accepts', () => {
  const WIKIPEDIA = '/wikipedia/w/api.php';
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(WIKIPEDIA, { batchcomplete: true, query: { search: [{ ns: 0, title: 'Long', pageid: 1, snippet: 'text' }] } });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const outcomeFor = async (words: string): Promise<Outcome> => {
    const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=wikipedia`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { providers: Outcome[] }).providers[0]!;
  };

  it('skips Wikipedia for 301 characters, saying why, and asks it for 300', async () => {
    const enough = `${'wiki '.repeat(59)}wikis`;
    const tooLong = `${enough}s`;
    expect(tooLong).toHaveLength(301);
    expect(await outcomeFor(tooLong)).toMatchObject({ status: 'skipped', count: 0, message: 'accepts queries of at most 300 characters; this one has 301' });
    expect(await outcomeFor(enough)).toMatchObject({ status: 'ok', count: 1 });
    expect(upstream.requestsTo(WIKIPEDIA).map((recorded) => recorded.url.searchParams.get('srsearch'))).toEqual([enough]);
  });
});
