import { afterAll, beforeAll, expect, it } from 'vitest';
import { callOperation, request } from '../support/service.js';
import { describeWithRedis } from '../support/redis-server.js';
import { startSharedReplicas, type SharedReplicas } from '../support/shared-replicas.js';

const BRAVE_PATH = '/brave/res/v1/web/search';
const SEARXNG_PATH = '/searxng/search';
/** One search written twice: `é` as one character (composed, NFC), and as `e` with U+0301 after it (decomposed, NFD). */
const COMPOSED = 'caf\u00e9 cr\u00e8me';
const DECOMPOSED = 'cafe\u0301 cre\u0300me';

/**
 * One search written two ways: the same words in Unicode's two forms (macOS and some keyboards write an accent as a
 * character of its own), one language with its region in either case. Each must share one answer, on every replica,
 * and providers must be sent one form of it.
 */
describeWithRedis('one search written two ways', () => {
  let replicas: SharedReplicas;

  beforeAll(async () => {
    replicas = await startSharedReplicas({ BRAVE_API_KEY: 'brave-forms-key-0123456789' });
    replicas.upstream.json(BRAVE_PATH, { web: { results: [{ title: 'Café', url: 'https://cafe.example/' }] } });
    replicas.upstream.json(SEARXNG_PATH, { results: [{ title: 'Olá', url: 'https://ola.example/', content: 'a page' }] });
  });
  afterAll(() => replicas.stop());

  it('is answered from the answer another replica kept for the other form, and sent to providers composed', async () => {
    expect(DECOMPOSED).not.toBe(COMPOSED);
    const first = await (await request(replicas.a.origin, `/v1/search/web?q=${encodeURIComponent(DECOMPOSED)}&providers=brave`)).json();
    expect(first.cached).toBe(false);
    expect(first.query).toBe(COMPOSED);
    expect(replicas.upstream.requestsTo(BRAVE_PATH).map((sent) => sent.url.searchParams.get('q'))).toEqual([COMPOSED]);
    await expect.poll(async () => (await replicas.sharedAnswers()).length).toBe(1);

    const second = await (await request(replicas.b.origin, `/v1/search/web?q=${encodeURIComponent(COMPOSED)}&providers=brave`)).json();
    expect(second.cached).toBe(true);
    const overOperation = await (await callOperation(replicas.b, 'web_search', { query: DECOMPOSED, providers: ['brave'] })).json();
    expect(overOperation.cached).toBe(true);
    expect(replicas.upstream.requestsTo(BRAVE_PATH)).toHaveLength(1);
  });

  it('is answered, spaced within Brave\'s 400 characters, from the answer another replica kept for it spaced past them, Brave asked', async () => {
    const words = Array.from({ length: 50 }, () => 'spacing');
    const kept = (await replicas.sharedAnswers()).length;
    // 399 characters in single spaces, 497 with them tripled: sent as typed, Brave was skipped for the tripled text,
    // and that answer, kept in Redis, was served to the other replica's single-spaced search.
    const first = await (await request(replicas.a.origin, `/v1/search/web?q=${encodeURIComponent(words.join('   '))}&providers=brave`)).json();
    expect(first.providers).toMatchObject([{ provider: 'brave', status: 'ok' }]);
    expect(replicas.upstream.requestsTo(BRAVE_PATH).at(-1)!.url.searchParams.get('q')).toBe(words.join(' '));
    await expect.poll(async () => (await replicas.sharedAnswers()).length).toBe(kept + 1);
    const second = await (await request(replicas.b.origin, `/v1/search/web?q=${words.join('+')}&providers=brave`)).json();
    expect(second.cached).toBe(true);
    expect(second.providers).toMatchObject([{ provider: 'brave', status: 'ok' }]);
  });

  it('is answered from the answer another replica kept for a language whose region was written in small letters', async () => {
    const kept = (await replicas.sharedAnswers()).length;
    const first = await (await request(replicas.a.origin, '/v1/search/web?q=ola&providers=searxng&language=pt-br')).json();
    expect(first.cached).toBe(false);
    // SearXNG's pages have no set size: a short first page is followed by a second request.
    const languages = replicas.upstream.requestsTo(SEARXNG_PATH).map((sent) => sent.url.searchParams.get('language'));
    expect(languages.length).toBeGreaterThan(0);
    expect(new Set(languages)).toEqual(new Set(['pt-BR']));
    await expect.poll(async () => (await replicas.sharedAnswers()).length).toBe(kept + 1);

    const second = await (await request(replicas.b.origin, '/v1/search/web?q=ola&providers=searxng&language=pt-BR')).json();
    expect(second.cached).toBe(true);
    expect(replicas.upstream.requestsTo(SEARXNG_PATH)).toHaveLength(languages.length);
  });
});
