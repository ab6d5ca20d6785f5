import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const BRAVE = '/brave/res/v1/web/search';
/** The caller's deadline: page 1 answers at once, a later page never does. Room enough for a deeper round to start. */
const TIMEOUT_MS = 800;

/** The query strings of Brave requests that hung until fedsearch closed them. */
const upstreamAborted: string[] = [];

type Outcome = { provider: string; status: string; count: number; code?: string; message?: string };
type Answer = { results: Array<{ url: string }>; has_more: boolean; cached: boolean; providers: Outcome[] };

/**
 * Brave with results without end, `count` of them from page `offset` (in units of `count`, as Brave's is), saying
 * it has more: every result whose rank is a multiple of five is on a.example, the others on b.example. The first
 * page (offset 0) answers at once; a later one hangs once `laterPagesAnswered` have been answered, and a first page
 * hangs when asked for more than `hangFrom`.
 */
function braveWhoseLaterPagesHang({ hangFrom = Number.POSITIVE_INFINITY, laterPagesAnswered = 0 } = {}) {
  let laterPages = 0;
  return {
    kind: 'handler' as const,
    handle: (recorded: RecordedRequest, response: ServerResponse) => {
      const count = Number(recorded.url.searchParams.get('count'));
      const offset = Number(recorded.url.searchParams.get('offset') ?? 0);
      const hangs = offset > 0 ? (laterPages += 1) > laterPagesAnswered : count > hangFrom;
      if (hangs) return void response.on('close', () => upstreamAborted.push(recorded.url.search));
      const query = recorded.url.searchParams.get('q')!;
      const results = Array.from({ length: count }, (_, index) => {
        const rank = offset * count + index + 1;
        return { title: `Result ${rank}`, url: `https://${rank % 5 === 0 ? 'a' : 'b'}.example/${query}/${rank}`, description: 'a page' };
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: { more_results_available: true }, web: { results } }));
    },
  };
}

describe('a provider whose later upstream page runs past the deadline', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-deadline-key-0123456789', CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (words: string, extra = '', timeoutMs = TIMEOUT_MS): Promise<Answer> => {
    const response = await request(service.origin, `/v1/search/web?q=${encodeURIComponent(words)}&providers=brave&timeout_ms=${timeoutMs}${extra}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const offsetsAsked = (words: string): string[] =>
    upstream
      .requestsTo(BRAVE)
      .filter((recorded) => recorded.url.searchParams.get('q') === words)
      .map((recorded) => recorded.url.searchParams.get('offset') ?? '0');

  it('keeps the results of the pages read, reports a timeout that counts them, says more exist and cancels the later page', async () => {
    upstream.on(BRAVE, braveWhoseLaterPagesHang());
    const abortedBefore = upstreamAborted.length;
    // Limit 20 asks 21 deep: Brave serves 20 a request, so offset 0 gives 20 and offset 1 is asked for the 21st.
    const answer = await search('kept pages', '&limit=20');
    expect(offsetsAsked('kept pages')).toEqual(['0', '1']);
    expect(answer.results).toHaveLength(20);
    expect(answer.providers).toEqual([
      expect.objectContaining({ provider: 'brave', status: 'timeout', code: 'PROVIDER_TIMEOUT', count: 20, message: expect.stringContaining('20 results') }),
    ]);
    expect(answer.has_more).toBe(true);
    await expect.poll(() => upstreamAborted.slice(abortedBefore).some((search) => search.includes('offset=1'))).toBe(true);
  });

  it('keeps such an answer as partial: served to a caller as patient, asked again for a more patient one', async () => {
    upstream.on(BRAVE, braveWhoseLaterPagesHang());
    const first = await search('kept as partial', '&limit=20');
    expect(first.cached).toBe(false);
    const again = await search('kept as partial', '&limit=20');
    expect(again).toMatchObject({ cached: true, results: first.results, has_more: true });
    // One who waits longer may get what the deadline cut short: the providers are asked again.
    const patient = await search('kept as partial', '&limit=20', TIMEOUT_MS + 100);
    expect(patient.cached).toBe(false);
    expect(offsetsAsked('kept as partial')).toEqual(['0', '1', '0', '1']);
  });

  it('streams the same: the provider event counts the results kept, and they are in the results', async () => {
    upstream.on(BRAVE, braveWhoseLaterPagesHang());
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=streamed+pages&providers=brave&limit=20&timeout_ms=${TIMEOUT_MS}`);
    const events = await new SseReader(response.body!).rest();
    const provider = events.find((event) => event.event === 'provider')!.data as Outcome;
    expect(provider).toMatchObject({ provider: 'brave', status: 'timeout', count: 20 });
    const done = events.find((event) => event.event === 'done')!.data as Answer;
    expect(done.results).toHaveLength(20);
    expect(done.has_more).toBe(true);
  });

  it('gives identical searches in flight together the same results', async () => {
    upstream.on(BRAVE, braveWhoseLaterPagesHang());
    const [one, other] = await Promise.all([search('in flight together', '&limit=20'), search('in flight together', '&limit=20')]);
    expect(offsetsAsked('in flight together')).toEqual(['0', '1']);
    expect(one.results).toHaveLength(20);
    expect(other.results).toEqual(one.results);
  });

  it('keeps what a filtered search kept of the pages of a deeper round read before the deadline', async () => {
    upstream.on(BRAVE, braveWhoseLaterPagesHang());
    // Limit 5 asks 6 deep, of which a.example has only the 5th: a deeper round asks 36, two pages of 20. The first
    // holds the 5th, 10th, 15th and 20th; the second hangs.
    const answer = await search('filtered-pages', '&limit=5&include_domains=a.example');
    expect(answer.results.map((result) => result.url)).toEqual([5, 10, 15, 20].map((rank) => `https://a.example/filtered-pages/${rank}`));
    expect(answer.providers).toEqual([expect.objectContaining({ provider: 'brave', status: 'timeout', count: 4 })]);
    expect(answer.has_more).toBe(true);
  });

  it('keeps the deepest a filtered search read: an earlier round of two pages, not the first page of a deeper one', async () => {
    // Limit 25 asks 26 deep: the first round reads two pages (20, then 20 of which 6 count), keeping the 5th … 25th.
    // The deeper round (136 deep) reads 20 again, then hangs: the first round read further.
    upstream.on(BRAVE, braveWhoseLaterPagesHang({ laterPagesAnswered: 1 }));
    const answer = await search('filtered-deepest', '&limit=25&include_domains=a.example');
    expect(offsetsAsked('filtered-deepest')).toEqual(['0', '1', '0', '1']);
    expect(answer.results.map((result) => result.url)).toEqual([5, 10, 15, 20, 25].map((rank) => `https://a.example/filtered-deepest/${rank}`));
    expect(answer.providers).toEqual([expect.objectContaining({ provider: 'brave', status: 'timeout', count: 5 })]);
  });

  it('keeps the round before a deeper round of a filtered search that runs past the deadline', async () => {
    // The first round (6 deep) answers; the deeper one (36 deep, 20 at a time) hangs from its first page.
    upstream.on(BRAVE, braveWhoseLaterPagesHang({ hangFrom: 6 }));
    const answer = await search('filtered-rounds', '&limit=5&include_domains=a.example');
    expect(offsetsAsked('filtered-rounds')).toEqual(['0', '0']);
    expect(answer.results.map((result) => result.url)).toEqual(['https://a.example/filtered-rounds/5']);
    expect(answer.providers).toEqual([expect.objectContaining({ provider: 'brave', status: 'timeout', count: 1 })]);
    expect(answer.has_more).toBe(true);
  });
});
