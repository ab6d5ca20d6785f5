import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const BRAVE = '/brave/res/v1/web/search';
/** How long Brave takes to answer a query with `slow` in it. */
const SLOW_MS = 200;

type Answer = { results: Array<{ url: string }>; page: number; has_more: boolean; providers: Array<{ provider: string; count: number }> };

/**
 * Brave (which cannot filter by domain: fedsearch filters its results) with 100 results per query, odd ones on
 * a.example and even ones on b.example, `count` of them from page `offset` (in units of `count`, as Brave's is).
 */
function braveAlternatingDomains() {
  return {
    kind: 'handler' as const,
    handle: (recorded: { url: URL }, response: import('node:http').ServerResponse) => {
      const count = Number(recorded.url.searchParams.get('count'));
      const start = Number(recorded.url.searchParams.get('offset') ?? 0) * count;
      const query = recorded.url.searchParams.get('q')!;
      const results = Array.from({ length: Math.max(0, Math.min(count, 100 - start)) }, (_, index) => {
        const rank = start + index + 1;
        return { title: `Result ${rank}`, url: `https://${rank % 2 ? 'a' : 'b'}.example/${query}/${rank}`, description: 'a page' };
      });
      const body = JSON.stringify({ web: { results } });
      const send = (): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (query.includes('slow')) setTimeout(send, SLOW_MS);
      else send();
    },
  };
}

describe('pages of a search the engine filters itself (include_domains on Brave)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(BRAVE, braveAlternatingDomains());
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-key-0123456789', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (query: string, page: number, extra = ''): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=${query}&providers=brave&limit=5&page=${page}&include_domains=a.example${extra}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url);
  const countsAsked = (query: string): string[] =>
    upstream
      .requestsTo(BRAVE)
      .filter((recorded) => recorded.url.searchParams.get('q') === query)
      .map((recorded) => recorded.url.searchParams.get('count')!);

  it('fills page 1 by asking Brave deeper, says more pages exist, and page 2 goes on without repeating', async () => {
    const first = await search('filled', 1);
    // Six asked, three kept: asked again, twelve deep, which keeps six.
    expect(countsAsked('filled')).toEqual(['6', '12']);
    expect(first.results).toHaveLength(5);
    expect(first.has_more).toBe(true);
    // The outcome's count stays what was kept of Brave's answer.
    expect(first.providers.find((outcome) => outcome.provider === 'brave')!.count).toBe(6);

    const second = await search('filled', 2);
    expect(second.results).toHaveLength(5);
    expect(second.has_more).toBe(true);
    const shown = [...urls(first), ...urls(second)];
    expect(shown.every((url) => url.startsWith('https://a.example/'))).toBe(true);
    expect(new Set(shown).size).toBe(10);
  });

  it('says more pages exist when too little time is left to ask deeper, and page 2 asks deeper for them', async () => {
    // Brave takes 200 ms of a 500 ms deadline: a round twice as deep (about 400 ms) would not fit, so page 1 keeps 3 of 6.
    const first = await search('slow', 1, '&timeout_ms=500');
    expect(countsAsked('slow')).toEqual(['6']);
    expect(urls(first)).toHaveLength(3);
    expect(first.has_more).toBe(true);

    const second = await search('slow', 2, '&timeout_ms=500');
    expect(countsAsked('slow')).toEqual(['6', '11']);
    // Eleven deep keeps ranks 1 to 11 on a.example: page 1 showed 1, 3 and 5 in its five places, so page 2 goes on
    // with all the others, none of them taken for the places page 1 showed empty.
    expect(urls(second)).toEqual([7, 9, 11].map((rank) => `https://a.example/slow/${rank}`));
    expect(second.has_more).toBe(true);
  });
});
