import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { BRAVE_SEARCH_PATH as BRAVE, BRAVE_AND_TAVILY_KEYS, providerEnv, request, startService, type RunningService } from '../support/service.js';

type Answer = { results: Array<{ url: string }> };

/**
 * An internationalised top-level domain (пример.рф is xn--e1afmkfd.xn--p1ai, 例子.中国 is xn--fsqu00a.xn--fiqs8s) is written
 * with digits and hyphens in its ASCII form: a domain entry must take it as it takes any other, in include_domains and
 * in a site: term, and the filter must read the results' hosts (given in either form) against it.
 */
describe('domain entries under an internationalised top-level domain (xn--…)', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json(BRAVE, {
      web: {
        results: [
          { title: 'Written in Unicode', url: 'https://пример.рф/unicode', description: 'the site, its host as typed' },
          { title: 'Written in ASCII', url: 'https://xn--e1afmkfd.xn--p1ai/ascii', description: 'the site, its host as sent' },
          { title: 'Elsewhere', url: 'https://example.com/page', description: 'another site' },
        ],
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), ...BRAVE_AND_TAVILY_KEYS, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const search = async (query: string): Promise<string[]> => {
    const response = await request(service.origin, `/v1/search/web?${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as Answer).results.map((result) => result.url);
  };
  const onTheSite = ['https://xn--e1afmkfd.xn--p1ai/unicode', 'https://xn--e1afmkfd.xn--p1ai/ascii'];

  it('include_domains takes the entry and keeps only that site', async () => {
    expect((await search('q=idn+include&providers=brave&include_domains=xn--e1afmkfd.xn--p1ai')).sort()).toEqual([...onTheSite].sort());
  });

  it('exclude_domains takes the entry, in capitals too, and drops only that site', async () => {
    expect(await search('q=idn+exclude&providers=brave&exclude_domains=XN--E1AFMKFD.XN--P1AI')).toEqual(['https://example.com/page']);
  });

  it('a site: term naming it is a filter, not a word', async () => {
    expect((await search(`q=${encodeURIComponent('idn site:xn--e1afmkfd.xn--p1ai')}&providers=brave`)).sort()).toEqual([...onTheSite].sort());
  });

  it('still refuses a top-level domain that no DNS name can have', async () => {
    for (const entry of ['example.xn--', 'example.c0m', 'example.xn-p1ai']) {
      const response = await request(service.origin, `/v1/search/web?q=bad&providers=brave&include_domains=${entry}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain('include_domains.0: not a domain name');
    }
  });
});
