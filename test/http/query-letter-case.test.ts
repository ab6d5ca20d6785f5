import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const ESEARCH = '/pubmed/entrez/eutils/esearch.fcgi';
const NO_PMIDS = '<?xml version="1.0"?><eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/></eSearchResult>';

/**
 * PubMed reads `OR` as a Boolean operator only in capitals (so do Brave, Wikipedia and arXiv): "covid OR influenza"
 * asks for either word, "covid or influenza" for both. The answer cache must not take one for the other.
 */
describe('letter case of the search words', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (q: string) =>
    (await request(service.origin, `/v1/search/papers?q=${encodeURIComponent(q)}&providers=pubmed`)).json();

  it('asks the provider again when only the case of an operator differs', async () => {
    upstream.on(ESEARCH, { kind: 'respond', status: 200, headers: { 'content-type': 'text/xml' }, body: NO_PMIDS });
    const union = await search('covid OR influenza');
    const both = await search('covid or influenza');
    expect(union.cached).toBe(false);
    expect(both.cached).toBe(false);
    expect(upstream.requestsTo(ESEARCH).map((sent) => sent.url.searchParams.get('term'))).toEqual(['covid OR influenza', 'covid or influenza']);
  });

  it('still serves the same words, spaced differently, from the cache', async () => {
    upstream.on(ESEARCH, { kind: 'respond', status: 200, headers: { 'content-type': 'text/xml' }, body: NO_PMIDS });
    await search('spacing  test');
    const again = await search('spacing test');
    expect(again.cached).toBe(true);
  });
});
