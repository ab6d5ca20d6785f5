import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';

const WIKI_API = '/wikipedia/w/api.php';
const WIKI_BODY = {
  batchcomplete: true,
  query: { search: [{ ns: 0, title: 'Rank fusion', pageid: 1, snippet: 'about <span class="searchmatch">rank</span> fusion', timestamp: '2025-01-01T00:00:00Z' }] },
};

/**
 * A MediaWiki search gives no publication date (only the last edit, kept apart on purpose), so a time range can be
 * applied neither by the API nor afterwards. Post-filtered on a date no result has, every answer was empty and the
 * provider still said `ok`: wikipedia_search offers time_range and always answered nothing with it. The documented
 * rule is to skip such a provider and say why.
 */
describe('a time range asked of a provider whose results carry no date', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
    upstream.json(`GET ${WIKI_API}`, WIKI_BODY);
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('reports wikipedia skipped, not an empty ok, on wikipedia_search', async () => {
    const response = await callOperation(service, 'wikipedia_search', { query: 'rank fusion', time_range: 'week' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers).toEqual([expect.objectContaining({ provider: 'wikipedia', status: 'skipped', message: 'cannot filter by time_range' })]);
  });

  it('reports it skipped on the REST search too, and still searches it without a time range', async () => {
    const dated = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia&time_range=month')).json();
    expect(dated.providers[0]).toMatchObject({ provider: 'wikipedia', status: 'skipped' });
    const plain = await (await request(service.origin, '/v1/search/web?q=rank+fusion&providers=wikipedia')).json();
    expect(plain.providers[0]).toMatchObject({ provider: 'wikipedia', status: 'ok', count: 1 });
    expect(plain.results[0]).toMatchObject({ title: 'Rank fusion', extra: { last_edited: '2025-01-01T00:00:00.000Z' } });
  });
});
