import { describe, expect, it } from 'vitest';
import { request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

/**
 * An internationalised top-level domain (пример.рф is xn--e1afmkfd.xn--p1ai, 例子.中国 is xn--fsqu00a.xn--fiqs8s) is written
 * with digits and hyphens in its ASCII form: a domain entry must take it as it takes any other, in include_domains and
 * in a site: term, and the filter must read the results' hosts (given in either form) against it.
 */
describe('domain entries under an internationalised top-level domain (xn--…)', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'Written in Unicode', url: 'https://пример.рф/unicode', description: 'the site, its host as typed' },
      { title: 'Written in ASCII', url: 'https://xn--e1afmkfd.xn--p1ai/ascii', description: 'the site, its host as sent' },
      { title: 'Elsewhere', url: 'https://example.com/page', description: 'another site' },
    ],
  });
  const onTheSite = ['https://xn--e1afmkfd.xn--p1ai/unicode', 'https://xn--e1afmkfd.xn--p1ai/ascii'];

  it('include_domains takes the entry and keeps only that site', async () => {
    expect((await service.urls('q=idn+include&providers=brave&include_domains=xn--e1afmkfd.xn--p1ai')).sort()).toEqual([...onTheSite].sort());
  });

  it('exclude_domains takes the entry, in capitals too, and drops only that site', async () => {
    expect(await service.urls('q=idn+exclude&providers=brave&exclude_domains=XN--E1AFMKFD.XN--P1AI')).toEqual(['https://example.com/page']);
  });

  it('a site: term naming it is a filter, not a word', async () => {
    expect((await service.urls(`q=${encodeURIComponent('idn site:xn--e1afmkfd.xn--p1ai')}&providers=brave`)).sort()).toEqual([...onTheSite].sort());
  });

  it('still refuses a top-level domain that no DNS name can have', async () => {
    for (const entry of ['example.xn--', 'example.c0m', 'example.xn-p1ai']) {
      const response = await request(service.origin, `/v1/search/web?q=bad&providers=brave&include_domains=${entry}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain('include_domains.0: not a domain name');
    }
  });

  it('refuses a label that is not punycode of any name (xn--zz, xn--), or that is punycode of an ASCII one (xn--a- is a)', async () => {
    for (const entry of ['xn--zz.com', 'xn--.com', 'xn--a-.com', 'docs.xn--zz.example/guide', 'XN--ZZ.COM']) {
      for (const parameter of ['include_domains', 'exclude_domains']) {
        const response = await request(service.origin, `/v1/search/web?q=bad&providers=brave&${parameter}=${entry}`);
        expect(response.status, `${parameter}=${entry}`).toBe(400);
        const { message } = (await response.json()) as { message: string };
        expect(message).toContain(`${parameter}.0: not a domain name; allowed: a domain such as example.com`);
      }
    }
  });
});
