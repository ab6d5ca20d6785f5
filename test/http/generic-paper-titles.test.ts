import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/**
 * Front matter and chapters titled "Editorial", "Introduction" or "In this issue" come back from Crossref,
 * OpenAlex and Semantic Scholar by the thousand: two such works of different journals or books, by different
 * people, are two results, and neither takes the other's DOI, authors or abstract. The same work under one title
 * still merges, whether the title is specific or as short as "Deep learning" (then by an author in common).
 */

type Result = { title: string; doi?: string; authors?: string[]; abstract?: string; venue?: string; sources: Array<{ provider: string }> };

/** Crossref's work-list message (https://api.crossref.org/swagger-ui/index.html): only the fields the adapter reads. */
function crossrefWork(title: string, doi: string, journal: string, year: number, authors: Array<[given: string, family: string]>): unknown {
  return {
    DOI: doi,
    title: [title],
    'container-title': [journal],
    author: authors.map(([given, family]) => ({ given, family, sequence: 'first', affiliation: [] })),
    issued: { 'date-parts': [[year]] },
    type: 'journal-article',
    URL: `https://doi.org/${doi}`,
  };
}

/** An OpenAlex work (https://docs.openalex.org/api-entities/works/work-object), as `select` asks for it. */
function openalexWork(id: string, title: string, doi: string, source: string, year: number, authors: string[]): unknown {
  return {
    id: `https://openalex.org/${id}`,
    doi: `https://doi.org/${doi}`,
    title,
    display_name: title,
    publication_year: year,
    type: 'book-chapter',
    authorships: authors.map((name) => ({ author: { display_name: name }, raw_author_name: name })),
    primary_location: { source: { display_name: source } },
    abstract_inverted_index: null,
    cited_by_count: 0,
  };
}

/** A Semantic Scholar paper (https://api.semanticscholar.org/api-docs/graph), without identifiers, as many come. */
function semanticScholarPaper(paperId: string, title: string, venue: string, year: number, authors: string[], abstract: string | null): unknown {
  return {
    paperId,
    url: `https://www.semanticscholar.org/paper/${paperId}`,
    title,
    abstract,
    venue,
    year,
    externalIds: {},
    authors: authors.map((name, index) => ({ authorId: `${paperId.slice(0, 6)}${index}`, name })),
    citationCount: 0,
    openAccessPdf: null,
  };
}

describe('papers with a generic title, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let results: Result[];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/crossref/works', {
      status: 'ok',
      'message-type': 'work-list',
      message: {
        'total-results': 3,
        items: [
          crossrefWork('Editorial', '10.1111/jan.14001', 'Journal of Advanced Nursing', 2020, [['Roger', 'Watson']]),
          crossrefWork('In This Issue', '10.1001/jama.2020.0001', 'JAMA', 2020, []),
          crossrefWork('Deep learning', '10.1038/nature14539', 'Nature', 2015, [['Yann', 'LeCun'], ['Yoshua', 'Bengio'], ['Geoffrey', 'Hinton']]),
        ],
      },
    });
    upstream.json('/openalex/works', {
      meta: { count: 3, page: 1, per_page: 25 },
      results: [
        // The other book's introduction first: the first alike title met is not thereby the same work.
        openalexWork('W3002', 'Introduction', '10.1007/978-3-030-22222-2_1', 'Advances in Graph Theory', 2021, ['Kenji Tanaka']),
        openalexWork('W3001', 'Introduction', '10.1007/978-3-030-11111-1_1', 'Handbook of Coastal Ecology', 2021, ['Maria Rossi']),
        openalexWork('W3003', 'Attention Is All You Need', '10.5555/3295222.3295349', 'Neural Information Processing Systems', 2017, []),
      ],
    });
    upstream.json('/semanticscholar/graph/v1/paper/search', {
      total: 5,
      offset: 0,
      data: [
        semanticScholarPaper('a1'.repeat(20), 'Editorial', 'Journal of Physics: Conference Series', 2020, ['Wei Zhang'], 'Welcome to the proceedings of a physics conference.'),
        semanticScholarPaper('b2'.repeat(20), 'In this issue', 'The Lancet', 2020, [], null),
        semanticScholarPaper('c3'.repeat(20), 'Introduction.', 'Handbook of Coastal Ecology', 2021, ['M. Rossi'], 'This chapter introduces coastal ecosystems.'),
        semanticScholarPaper('d4'.repeat(20), 'Attention is All you Need', 'NeurIPS', 2017, ['Ashish Vaswani', 'Noam Shazeer'], 'The dominant sequence transduction models are based on recurrent networks.'),
        semanticScholarPaper('e5'.repeat(20), 'Deep Learning', 'Nature', 2015, ['Y. LeCun', 'Yoshua Bengio'], 'Deep learning allows computational models to learn representations.'),
      ],
    });
    service = await startService({ ...providerEnv(upstream.origin), SEMANTIC_SCHOLAR_API_KEY: 'test-key-1', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
    const response = await request(service.origin, '/v1/search/papers?q=editorial&providers=crossref,openalex,semanticscholar&limit=20');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers.map((outcome: { status: string }) => outcome.status)).toEqual(['ok', 'ok', 'ok']);
    results = body.results;
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const titled = (title: RegExp): Result[] => results.filter((result) => title.test(result.title));
  const providersOf = (result: Result): string[] => result.sources.map((source) => source.provider).sort();

  it('keeps two editorials of two journals by two editors apart: the conference one takes no nursing DOI', () => {
    const editorials = titled(/^editorial$/i);
    expect(editorials).toHaveLength(2);
    const conference = editorials.find((result) => result.venue === 'Journal of Physics: Conference Series')!;
    expect(conference.doi).toBeUndefined();
    expect(conference.authors).toEqual(['Wei Zhang']);
    const nursing = editorials.find((result) => result.doi === '10.1111/jan.14001')!;
    expect(nursing.authors).toEqual(['Roger Watson']);
    expect(nursing.abstract).toBeUndefined();
  });

  it('keeps "In this issue" of JAMA apart from that of The Lancet, neither listing an author', () => {
    const notes = titled(/^in this issue$/i);
    expect(notes.map((result) => [result.venue, result.doi])).toEqual(
      expect.arrayContaining([
        ['JAMA', '10.1001/jama.2020.0001'],
        ['The Lancet', undefined],
      ]),
    );
    expect(notes).toHaveLength(2);
  });

  it('merges the chapter "Introduction" found twice by its author, and leaves the other book\'s introduction alone', () => {
    const introductions = titled(/^introduction\.?$/i);
    expect(introductions).toHaveLength(2);
    const coastal = introductions.find((result) => result.doi === '10.1007/978-3-030-11111-1_1')!;
    expect(providersOf(coastal)).toEqual(['openalex', 'semanticscholar']);
    expect(coastal.abstract).toBe('This chapter introduces coastal ecosystems.');
    const graphs = introductions.find((result) => result.doi === '10.1007/978-3-030-22222-2_1')!;
    expect(providersOf(graphs)).toEqual(['openalex']);
    expect(graphs.authors).toEqual(['Kenji Tanaka']);
    expect(graphs.abstract).toBeUndefined();
  });

  it('still merges one work by its specific title alone, and by a short title with an author in common', () => {
    const attention = titled(/^attention is all you need$/i);
    expect(attention).toHaveLength(1);
    expect(providersOf(attention[0]!)).toEqual(['openalex', 'semanticscholar']);
    expect(attention[0]!.doi).toBe('10.5555/3295222.3295349');
    const deepLearning = titled(/^deep learning$/i);
    expect(deepLearning).toHaveLength(1);
    expect(providersOf(deepLearning[0]!)).toEqual(['crossref', 'semanticscholar']);
  });
});
