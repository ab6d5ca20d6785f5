import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fake-upstream.js';
import { describeWithRedis } from '../support/redis-server.js';
import { request } from '../support/service.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';

const BRAVE_PATH = '/brave/res/v1/web/search';

/**
 * Later pages of one search asked of different replicas, as a load balancer without sticky sessions sends them. Each
 * replica keeps a local copy of the lists it read from Redis; when that copy is too short for a page and another
 * replica has kept a deeper list of the same search, the page must come from (or extend) that deeper list: a
 * shallower copy extended again is another list, whose next page repeats what the deeper one's page showed.
 */
describeWithRedis('pages of one search asked of two replicas in turn', () => {
  let replicas: SharedReplicas;
  /** What Brave serves for a `count`: its results in order, as URLs (the upstream's order may change between requests). */
  let serve: (count: number) => string[];

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-pages-key-0123456789' });
    replicas.upstream.on(BRAVE_PATH, {
      kind: 'handler',
      handle: (recorded: RecordedRequest, response) => {
        const urls = serve(Number(recorded.url.searchParams.get('count')));
        const results = urls.map((url) => ({ title: `Page at ${url}`, url, description: 'a page' }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { more_results_available: true }, web: { results } }));
      },
    });
  });
  afterAll(() => replicas.stop());

  const ranked = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, index) => `https://${prefix}.example/${index}`);
  const urlsOf = (body: { results: Array<{ url: string }> }): string[] => body.results.map((result) => result.url);
  /** Waits for a list `depth` deep, led by `firstUrl`, to be in Redis: an answer does not wait for its copy to be kept. */
  const keptInRedis = (depth: number, firstUrl: string) =>
    expect
      .poll(async () =>
        (await replicas.sharedAnswers()).some((answer) => answer.depth === depth && (answer.results as Array<{ url: string }>)[0]?.url === firstUrl),
      )
      .toBe(true);
  const search = async (origin: string, q: string, page: number) =>
    (await request(origin, `/v1/search/web?q=${q}&providers=brave&limit=5&page=${page}`)).json();

  it('serves a page from the deeper list another replica kept, without asking the provider again', async () => {
    serve = (count) => ranked('steady', count);
    const pageOneFromA = await search(replicas.a.origin, 'steady+pages', 1);
    const pageTwoFromB = await search(replicas.b.origin, 'steady+pages', 2);
    expect(urlsOf(pageOneFromA)).toEqual(ranked('steady', 5));
    expect(urlsOf(pageTwoFromB)).toEqual(ranked('steady', 10).slice(5));
    // Page 2 of 5 asked each provider 11 deep.
    await keptInRedis(11, 'https://steady.example/0');

    const asked = replicas.upstream.requestsTo(BRAVE_PATH).length;
    const pageTwoFromA = await search(replicas.a.origin, 'steady+pages', 2);
    expect(pageTwoFromA.cached).toBe(true);
    expect(urlsOf(pageTwoFromA)).toEqual(urlsOf(pageTwoFromB));
    expect(replicas.upstream.requestsTo(BRAVE_PATH).length).toBe(asked);
  });

  it('extends the deeper list another replica kept for the next page, so no result is shown twice', async () => {
    serve = (count) => ranked('first', count);
    const pageOne = await search(replicas.a.origin, 'shifting+pages', 1);
    const pageTwo = await search(replicas.b.origin, 'shifting+pages', 2);
    await keptInRedis(11, 'https://first.example/0');
    // The upstream's order has changed since: four new results now come after the first six.
    serve = (count) => [...ranked('first', 6), ...ranked('new', 4), ...ranked('first', count).slice(6)].slice(0, count);
    const pageThree = await search(replicas.a.origin, 'shifting+pages', 3);

    const shown = [...urlsOf(pageOne), ...urlsOf(pageTwo), ...urlsOf(pageThree)];
    expect(urlsOf(pageThree)).toHaveLength(5);
    expect(new Set(shown).size).toBe(shown.length);
  });
});
