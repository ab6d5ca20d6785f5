import { describe, expect, it } from 'vitest';
import { BRAVE_SEARCH_PATH as BRAVE, TAVILY_SEARCH_PATH as TAVILY, callOperation, request } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

type Answer = { cached: boolean; results: Array<{ url: string }> };

/** bücher.de's ASCII form, as IDNA writes it (RFC 3492's punycode of "bücher", behind the xn-- prefix). */
const ASCII_HOST = 'xn--bcher-kva.de';

/**
 * Users type a domain as they read it, in Unicode (bücher.de), or end it with the dot of a fully qualified name
 * (docs.rs.). Both name a site the service takes in its ASCII form: the filter, the cache key and what each provider
 * is sent must use that one spelling, and a result's link matches whichever form it writes its host in.
 */
describe('domain entries typed in Unicode, or ending in a dot', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'Written in Unicode', url: 'https://bücher.de/unicode', description: 'the site, its host as typed' },
      { title: 'Written in ASCII', url: `https://${ASCII_HOST}/ascii`, description: 'the site, its host as sent' },
      { title: 'Docs', url: 'https://docs.rs/tokio', description: 'another site' },
      { title: 'Elsewhere', url: 'https://example.com/page', description: 'another site' },
    ],
    tavily: [{ title: 'Tavily', url: `https://${ASCII_HOST}/tavily`, content: 'the site' }],
    env: { CACHE_TTL_SECONDS: '300' },
  });
  const { upstream } = service;
  const search = (query: string): Promise<Answer> => service.search<Answer>(query);
  const urls = async (query: string): Promise<string[]> => (await service.urls(query)).sort();
  const onTheSite = [`https://${ASCII_HOST}/ascii`, `https://${ASCII_HOST}/unicode`];

  it('include_domains=bücher.de keeps that site, its links written either way', async () => {
    expect(await urls(`q=unicode+include&providers=brave&include_domains=${encodeURIComponent('bücher.de')}`)).toEqual(onTheSite);
  });

  it('exclude_domains=Bücher.DE drops that site, its links written either way', async () => {
    expect(await urls(`q=unicode+exclude&providers=brave&exclude_domains=${encodeURIComponent('Bücher.DE')}`)).toEqual([
      'https://docs.rs/tokio',
      'https://example.com/page',
    ]);
  });

  it('a dot ending the name (docs.rs.) names the same site, in include_domains and in a site: term', async () => {
    expect(await urls('q=dotted+include&providers=brave&include_domains=docs.rs.')).toEqual(['https://docs.rs/tokio']);
    expect(await urls(`q=${encodeURIComponent('dotted site:docs.rs.')}&providers=brave`)).toEqual(['https://docs.rs/tokio']);
  });

  it('site:bücher.de is a filter, and Brave is sent the term in its ASCII form', async () => {
    expect(await urls(`q=${encodeURIComponent('unicode term site:bücher.de')}&providers=brave`)).toEqual(onTheSite);
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('q')).toBe(`unicode term site:${ASCII_HOST}`);
  });

  it('sends Tavily the host in its ASCII form', async () => {
    await search(`q=unicode+tavily&providers=tavily&include_domains=${encodeURIComponent('bücher.de')}`);
    expect(JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body)).toMatchObject({ include_domains: [ASCII_HOST] });
  });

  it('keys bücher.de and its ASCII form as one search, and another name apart', async () => {
    expect((await search(`q=unicode+key&providers=brave&include_domains=${encodeURIComponent('bücher.de')}`)).cached).toBe(false);
    expect((await search(`q=unicode+key&providers=brave&include_domains=${ASCII_HOST}`)).cached).toBe(true);
    expect((await search(`q=unicode+key&providers=brave&include_domains=${encodeURIComponent('büchern.de')}`)).cached).toBe(false);
    expect((await search(`q=${encodeURIComponent('unicode site:bücher.de')}&providers=brave`)).cached).toBe(false);
    expect((await search(`q=${encodeURIComponent(`unicode site:${ASCII_HOST}`)}&providers=brave`)).cached).toBe(true);
  });

  it('company_research takes a domain typed in Unicode, in its ASCII form', async () => {
    const response = await callOperation(service, 'company_research', { company: 'Bücher', domain: 'Bücher.de.' });
    expect(response.status).toBe(200);
    const sections = ((await response.json()) as { sections: Array<{ title: string }> }).sections;
    expect(sections.map((section) => section.title)).toContain(`From ${ASCII_HOST}`);
  });

  it('still refuses what names no domain, in Unicode too, saying what is allowed', async () => {
    // A label past DNS's 63 characters: in ASCII, or in its ASCII form only (60 letters ä, as typed, are 66 so written).
    const longLabels = [`${'a'.repeat(64)}.example.com/guide`, `${'ä'.repeat(60)}.de`];
    // 63 are allowed: 'a' × 63, and 'ä' × 50, 56 characters in ASCII.
    await search(`q=long+labels&providers=brave&include_domains=${'a'.repeat(63)}.example.com/guide`);
    await search(`q=long+labels&providers=brave&include_domains=${encodeURIComponent(`${'ä'.repeat(50)}.de`)}`);
    for (const entry of ['bü cher.de', 'docs.rs..', '.de', 'bücher.de?x=1', ...longLabels]) {
      const response = await request(service.origin, `/v1/search/web?q=bad&providers=brave&include_domains=${encodeURIComponent(entry)}`);
      expect(response.status, entry).toBe(400);
      expect(((await response.json()) as { message: string }).message, entry).toContain('include_domains.0: not a domain name; allowed:');
    }
    const company = await callOperation(service, 'company_research', { company: 'Bücher', domain: 'bücher .de' });
    expect(company.status).toBe(400);
    // Refused, a Unicode value stays a word: Brave is sent it as typed.
    await search(`q=${encodeURIComponent('word site:bü_cher.de')}&providers=brave`);
    expect(upstream.requestsTo(BRAVE).at(-1)!.url.searchParams.get('q')).toBe('word site:bü_cher.de');
  });

  // tools/list (MCP_TOOLS=split) gives each operation's input in the JSON Schema the OpenAPI document is built from.
  it('advertises patterns that admit these names in the OpenAPI document, for the routes and the operations', async () => {
    // With the white space around them that the fields trim and take.
    const typed = ['bücher.de', 'Bücher.DE', 'docs.rs.', '例子.中国', '例子。中国', ASCII_HOST, ' docs.rs ', '\tbücher.de\n'];
    type Schema = { pattern?: string; items?: Schema; properties?: Record<string, Schema> };
    const document = (await (await request(service.origin, '/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
    };
    const include = document.paths['/v1/search/web']!.get!.parameters!.find((parameter) => parameter.name === 'include_domains')!.schema.items!.pattern!;
    const company = document.paths['/v1/ops/company_research']!.post!.requestBody!.content['application/json']!.schema.properties!.domain!.pattern!;
    // JSON Schema validators differ on the u flag: the patterns must admit the names either way.
    for (const pattern of [include, company]) {
      for (const flags of ['', 'u']) for (const name of typed) expect(new RegExp(pattern, flags).test(name), `${pattern} /${flags} ${name}`).toBe(true);
    }
    expect(new RegExp(include, 'u').test('пример.рф/путь')).toBe(true);
  });
});
