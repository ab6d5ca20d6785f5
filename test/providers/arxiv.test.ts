import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import type { PaperIdentifier } from '../../src/providers/provider.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, rejection, response, runLookup, runProvider } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/arxiv/${name}`, import.meta.url), 'utf8');
const searchFeed = fixture('search.xml');
const errorFeed = fixture('error.xml');
const emptyFeed = '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>arXiv Query</title></feed>';

/** What arXiv answers for an id_list naming no paper: HTTP 200, totalResults 0, no entry. */
const noSuchIdFeed = `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns="http://www.w3.org/2005/Atom">
  <title>arXiv Query: search_query=&amp;id_list=0000.0000&amp;start=0&amp;max_results=1</title>
  <opensearch:totalResults>0</opensearch:totalResults>
</feed>`;

function atom(body: string, status = 200) {
  return { kind: 'respond' as const, status, headers: { 'content-type': 'application/atom+xml; charset=utf-8' }, body };
}

describe('arxiv adapter', () => {
  const upstream = useFakeUpstream();
  let provider: ReturnType<typeof makeProvider>;
  beforeAll(() => {
    provider = makeProvider(ArxivProvider, { ARXIV_BASE_URL: `${upstream.origin}/arxiv` });
  });

  it('calls /api/query with a search_query built from the words and parses every entry', async () => {
    upstream.on('GET /arxiv/api/query', atom(searchFeed));
    const items = await runProvider(provider, makeQuery('rank fusion', 'papers', 5));
    const request = upstream.requestsTo('/arxiv/api/query').at(-1)!;
    expect(request.url.searchParams.get('search_query')).toBe('all:rank AND all:fusion');
    expect(request.url.searchParams.get('start')).toBe('0');
    expect(request.url.searchParams.get('max_results')).toBe('5');
    expect(items).toEqual([
      {
        title: 'Fusing Ranked Lists & Friends',
        url: 'https://arxiv.org/abs/2301.01234',
        snippet: 'We fuse ranked lists. Gains hold where p < 0.05 and recall > 0.9.',
        published_at: '2023-01-03T18:00:00.000Z',
        authors: ['Ada Lovelace', 'Alan Turing'],
        year: 2023,
        venue: 'J. Fusion 12 (2023) 1-10',
        abstract: 'We fuse ranked lists. Gains hold where p < 0.05 and recall > 0.9.',
        doi: '10.1234/jfus.2023.001',
        arxiv_id: '2301.01234',
        pdf_url: 'https://arxiv.org/pdf/2301.01234v2',
        extra: { primary_category: 'cs.IR' },
      },
      {
        title: 'An Old-Style Preprint',
        url: 'https://arxiv.org/abs/hep-th/9901001',
        snippet: 'Strings, briefly.',
        published_at: '1999-01-01T00:00:00.000Z',
        authors: ['Ed Witten'],
        year: 1999,
        abstract: 'Strings, briefly.',
        arxiv_id: 'hep-th/9901001',
      },
    ]);
  });

  it('keeps quoted phrases, turns punctuated words into phrases and never passes query syntax through', () => {
    const request = provider.buildRequest(makeQuery('"error correction" covid-19 AND ti:(qubit) [x]', 'papers', 3));
    expect(new URL(request.url).searchParams.get('search_query')).toBe(
      'all:"error correction" AND all:"covid 19" AND all:"ti qubit" AND all:x',
    );
  });

  it('passes a year range on as a submittedDate range and ignores open_access (arXiv is all open)', () => {
    const bounded = provider.buildRequest(makeQuery('qubit', 'papers', 3, { year_from: 2019, year_to: 2021, open_access: true }));
    expect(new URL(bounded.url).searchParams.get('search_query')).toBe('all:qubit AND submittedDate:[201901010000 TO 202112312359]');
    const open = provider.buildRequest(makeQuery('qubit', 'papers', 3, { year_to: 2000 }));
    expect(new URL(open.url).searchParams.get('search_query')).toBe('all:qubit AND submittedDate:[199101010000 TO 200012312359]');
  });

  it('sends excluded words after ANDNOT and keeps OR an alternative, instead of requiring every word', async () => {
    upstream.on('GET /arxiv/api/query', atom(emptyFeed));
    await runProvider(provider, makeQuery('transformer -vision "attention heads" -"image patches" NOT survey', 'papers', 3));
    expect(upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('search_query')).toBe(
      '(all:transformer AND all:"attention heads") ANDNOT (all:vision OR all:"image patches" OR all:survey)',
    );
    await runProvider(provider, makeQuery('qubit OR qudit decoherence', 'papers', 3));
    expect(upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('search_query')).toBe('(all:qubit OR all:qudit) AND all:decoherence');
  });

  it('sends the words of NOT (a OR b) after ANDNOT, not the second one as an alternative to the words searched for', async () => {
    upstream.on('GET /arxiv/api/query', atom(emptyFeed));
    const sent = async (text: string): Promise<string | null> => {
      await runProvider(provider, makeQuery(text, 'papers', 3));
      return upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('search_query');
    };
    // Read word by word, this was `(all:asthma OR all:rats) ANDNOT all:mice`: papers about rats were asked for.
    expect(await sent('asthma NOT (mice OR rats)')).toBe('all:asthma ANDNOT (all:mice OR all:rats)');
    expect(await sent('NOT (mice OR "case report") asthma')).toBe('all:asthma ANDNOT (all:mice OR all:"case report")');
    expect(await sent('asthma -dogs AND NOT (mice OR (rats AND cats))')).toBe('all:asthma ANDNOT (all:dogs OR all:mice OR all:rats OR all:cats)');
    // arXiv's own ANDNOT still excludes.
    expect(await sent('asthma ANDNOT mice')).toBe('all:asthma ANDNOT all:mice');
    // A - before the group excludes it as NOT does: read as words, it was `all:asthma AND (all:mice OR all:rats)`.
    expect(await sent('asthma -(mice OR rats)')).toBe('all:asthma ANDNOT (all:mice OR all:rats)');
  });

  it('reads NOT as a word in a query written in capitals, searching its other words instead of excluding them', async () => {
    upstream.on('GET /arxiv/api/query', atom(emptyFeed));
    const sent = async (text: string): Promise<string | null> => {
      await runProvider(provider, makeQuery(text, 'papers', 3));
      return upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('search_query');
    };
    // Not `all:HERE ANDNOT all:INVENTED`; NOT itself is left out, as arXiv would read it as its operator.
    expect(await sent('NOT INVENTED HERE')).toBe('all:INVENTED AND all:HERE');
    // Not skipped as a query of excluded words alone.
    expect(provider.queryProblem!('NOT FOUND')).toBeUndefined();
    expect(await sent('NOT FOUND')).toBe('all:FOUND');
    // A -word still excludes there; and a NOT among lower-case words is still the operator.
    expect(await sent('NOT FOUND HTTP -NGINX')).toBe('(all:FOUND AND all:HTTP) ANDNOT all:NGINX');
    // Between words, in capitals too, NOT is the operator: acronyms are how such searches are typed.
    expect(await sent('HIV NOT AIDS')).toBe('all:HIV ANDNOT all:AIDS');
    expect(await sent('qubit NOT NISQ')).toBe('all:qubit ANDNOT all:NISQ');
  });

  it('keeps a year range among the required clauses when words are excluded, and leaves inner hyphens and numbers alone', () => {
    const request = provider.buildRequest(makeQuery('covid-19 -vaccine at -40', 'papers', 3, { year_from: 2020 }));
    expect(new URL(request.url).searchParams.get('search_query')).toBe(
      '(all:"covid 19" AND all:at AND all:40 AND submittedDate:[202001010000 TO 999912312359]) ANDNOT all:vaccine',
    );
  });

  it('finds nothing to search for in excluded words alone, or in an OR with nothing before it', () => {
    expect(provider.queryProblem!('-vision -"image patches"')).toBe('the query has no words arXiv can search for');
    expect(provider.queryProblem!('OR qubit')).toBeUndefined();
    expect(new URL(provider.buildRequest(makeQuery('OR qubit', 'papers')).url).searchParams.get('search_query')).toBe('all:qubit');
  });

  it('rejects a query with no searchable words instead of sending an empty search_query', () => {
    expect(() => provider.buildRequest(makeQuery('"" :: AND', 'papers'))).toThrow(expect.objectContaining({ code: 'QUERY_INVALID' }));
  });

  it('reads a feed without entries as no results', async () => {
    upstream.on('GET /arxiv/api/query', atom(emptyFeed));
    expect(await runProvider(provider, makeQuery('nothing here', 'papers'))).toEqual([]);
  });

  it('throws an upstream error for an error feed that arrives with HTTP 200', async () => {
    upstream.on('GET /arxiv/api/query', atom(errorFeed));
    const error = await rejection(runProvider(provider, makeQuery('bad', 'papers')));
    expect(error.code).toBe('PROVIDER_UPSTREAM');
    expect(error.message).toBe('arXiv: incorrect id format for 1234.1234v1');
  });

  it('describes an error feed sent with HTTP 400 in the provider error', async () => {
    expect(provider.describeError(response(errorFeed, 400))).toBe('incorrect id format for 1234.1234v1');
    upstream.on('GET /arxiv/api/query', atom(errorFeed, 400));
    const error = await rejection(runProvider(provider, makeQuery('bad', 'papers')));
    expect(error.code).toBe('PROVIDER_HTTP');
    expect(error.message).toContain('incorrect id format for 1234.1234v1');
  });

  it('reports throttling text as rate limiting', () => {
    expect(() => provider.parseResponse(response('Rate exceeded.'), makeQuery('q', 'papers'))).toThrow(
      expect.objectContaining({ code: 'PROVIDER_RATE_LIMITED' }),
    );
    expect(provider.describeError(response('Rate exceeded.', 503))).toBe('Rate exceeded.');
  });

  it('turns malformed XML and an HTML page into parse errors', async () => {
    upstream.on('GET /arxiv/api/query', atom('<feed><entry><id>http://arxiv.org/abs/2301.01234v1</id></feed>'));
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
    upstream.on('GET /arxiv/api/query', { kind: 'respond', headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Maintenance</body></html>' });
    expect((await rejection(runProvider(provider, makeQuery('q', 'papers')))).code).toBe('PROVIDER_PARSE');
  });

  describe('lookup', () => {
    const idList = (identifier: PaperIdentifier): string | null | undefined => {
      const request = provider.buildLookupRequest(identifier);
      return request && new URL(request.url).searchParams.get('id_list');
    };

    it('asks /api/query for the id as id_list with max_results=1 and parses the one entry', async () => {
      upstream.on('GET /arxiv/api/query', atom(fixture('lookup-2401.00007.xml')));
      const items = await runLookup(provider, { type: 'arxiv', value: '2401.00007' });
      const request = upstream.requestsTo('/arxiv/api/query').at(-1)!;
      expect(Object.fromEntries(request.url.searchParams)).toEqual({ id_list: '2401.00007', max_results: '1' });
      expect(items).toEqual([
        {
          title: 'Looking Papers Up by Identifier',
          url: 'https://arxiv.org/abs/2401.00007',
          snippet: 'One paper, found by its id.',
          published_at: '2024-01-02T09:00:00.000Z',
          authors: ['Grace Hopper'],
          year: 2024,
          abstract: 'One paper, found by its id.',
          doi: '10.5555/lookup.2020.3',
          arxiv_id: '2401.00007',
          pdf_url: 'https://arxiv.org/pdf/2401.00007v3',
          extra: { primary_category: 'cs.DL' },
        },
      ]);
    });

    it('looks up the paper, not one version, and keeps old-style ids whole', () => {
      expect(idList({ type: 'arxiv', value: '2401.00007v3' })).toBe('2401.00007');
      expect(idList({ type: 'arxiv', value: 'arXiv:2401.00007v1' })).toBe('2401.00007');
      expect(idList({ type: 'arxiv', value: 'hep-th/9901001' })).toBe('hep-th/9901001');
      expect(idList({ type: 'arxiv', value: 'not an id' })).toBeUndefined();
    });

    it('looks an arXiv DOI up by its arXiv id', async () => {
      upstream.on('GET /arxiv/api/query', atom(fixture('lookup-2401.00007.xml')));
      const items = await runLookup(provider, { type: 'doi', value: '10.48550/arxiv.2401.00007' });
      expect(upstream.requestsTo('/arxiv/api/query').at(-1)!.url.searchParams.get('id_list')).toBe('2401.00007');
      expect(items.map((item) => item.arxiv_id)).toEqual(['2401.00007']);
      expect(idList({ type: 'doi', value: '10.48550/arxiv.hep-th/9901001' })).toBe('hep-th/9901001');
    });

    it('builds no request for other DOIs, PMIDs or Semantic Scholar ids', () => {
      expect(provider.buildLookupRequest({ type: 'doi', value: '10.5555/lookup.2020.3' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 'pmid', value: '32000003' })).toBeUndefined();
      expect(provider.buildLookupRequest({ type: 's2', value: 'dddd000000000000000000000000000000000004' })).toBeUndefined();
    });

    it('finds nothing for an unknown id, which arXiv answers with an empty feed and HTTP 200', async () => {
      upstream.on('GET /arxiv/api/query', atom(noSuchIdFeed));
      expect(await runLookup(provider, { type: 'arxiv', value: '0000.0000' })).toEqual([]);
    });
  });
});

const arxiv = makeProvider(ArxivProvider);
// arXiv answers /api/query with an Atom feed, for a search and for an id_list alike: the endpoint is the format.
const arxivSends = { sent: [arxiv.buildRequest(makeQuery('q', 'papers')), arxiv.buildLookupRequest({ type: 'arxiv', value: '1605.08386' })!], formatOf: endpointOf };

describeSharedFixtures('arxiv', arxivSends, (fixtures) => {
  // Bodies recorded for ?id_list=<id> are lookup answers: that one paper, or no entry for an unknown id.
  for (const fixture of fixtures) {
    const id = fixture.answers.parameters.get('id_list');
    if (!id) continue;
    it(`${fixture.file}: answers the lookup of ${id} with that paper or with nothing`, () => {
      const provider = makeProvider(ArxivProvider);
      const request = provider.buildLookupRequest({ type: 'arxiv', value: id });
      expect(new URL(request!.url).searchParams.get('id_list')).toBe(id);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery(id, 'papers', 1));
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(Number(/<opensearch:totalResults>(\d+)</.exec(fixture.body)![1]));
      for (const item of items) {
        expect(item.arxiv_id).toBe(id);
        expect(item.url).toBe(`https://arxiv.org/abs/${id}`);
        expect(item.title.length).toBeGreaterThan(0);
      }
    });
  }
  for (const fixture of fixtures) {
    it(`${fixture.file}: every entry becomes an item with title, abs url and arXiv id`, () => {
      const provider = makeProvider(ArxivProvider);
      const outcome = provider.parseResponse(response(fixture.body, fixture.status), makeQuery('q', 'papers'));
      const entries = fixture.body.match(/<entry>[\s\S]*?<\/entry>/g) ?? [];
      expect('items' in outcome).toBe(true);
      const items = 'items' in outcome ? outcome.items : [];
      expect(items).toHaveLength(entries.length);
      items.forEach((item, index) => {
        const entry = entries[index]!;
        expect(item.title.length).toBeGreaterThan(0);
        expect(item.title).not.toMatch(/\s{2}|\n/);
        expect(item.url).toMatch(/^https:\/\/arxiv\.org\/abs\//);
        expect(entry).toContain(`<id>http://arxiv.org/abs/${item.arxiv_id}v`);
        expect(item.abstract?.length).toBeGreaterThan(0);
        expect(item.authors?.length).toBe((entry.match(/<author>/g) ?? []).length);
        expect(item.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        const doi = /<arxiv:doi>([^<]+)<\/arxiv:doi>/.exec(entry)?.[1];
        expect(item.doi).toBe(doi?.toLowerCase());
        expect(item.pdf_url === undefined).toBe(!entry.includes('title="pdf"'));
      });
    });
  }
});
