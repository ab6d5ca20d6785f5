import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/**
 * Titles that differ only in a number name two works, however the number is written (`2nd`, `Third`, `YOLOv3`);
 * titles that write one number two ways (`SARS-CoV-2` and `SARS-CoV2`, `Part I` and `Part 1`) name one. Crossref
 * knows each work by a DOI, Semantic Scholar knows these by no identifier: only the titles can tell.
 */

type Result = { title: string; doi?: string; sources: Array<{ provider: string }> };

/** Crossref's work-list message (https://api.crossref.org/swagger-ui/index.html): only the fields the adapter reads. */
function crossrefWork(title: string, doi: string, year: number): unknown {
  return { DOI: doi, title: [title], 'container-title': ['Proceedings'], issued: { 'date-parts': [[year]] }, type: 'proceedings', URL: `https://doi.org/${doi}` };
}

/** A Semantic Scholar paper (https://api.semanticscholar.org/api-docs/graph), without identifiers, as many come. */
function semanticScholarPaper(paperId: string, title: string, year: number): unknown {
  return {
    paperId,
    url: `https://www.semanticscholar.org/paper/${paperId}`,
    title,
    abstract: null,
    venue: '',
    year,
    externalIds: {},
    authors: [],
    citationCount: 0,
    openAccessPdf: null,
  };
}

describe('papers whose titles hold numbers, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let results: Result[];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/crossref/works', {
      status: 'ok',
      'message-type': 'work-list',
      message: {
        'total-results': 4,
        items: [
          crossrefWork('Proceedings of the 2nd Workshop on Gender Bias in Natural Language Processing', '10.18653/v1/gebnlp-2', 2020),
          crossrefWork('YOLOv2: better, faster and stronger real-time object detection', '10.1109/cvpr.2017.690', 2017),
          crossrefWork('SARS-CoV-2 infection in children: a systematic review', '10.1000/sars.children', 2020),
          crossrefWork('Quantum field theory in curved spacetime: Part I', '10.1000/qft.1', 2020),
        ],
      },
    });
    upstream.json('/semanticscholar/graph/v1/paper/search', {
      total: 4,
      offset: 0,
      data: [
        semanticScholarPaper('a1'.repeat(20), 'Proceedings of the Third Workshop on Gender Bias in Natural Language Processing', 2021),
        semanticScholarPaper('b2'.repeat(20), 'YOLOv3: better, faster and stronger real-time object detection', 2018),
        semanticScholarPaper('c3'.repeat(20), 'SARS-CoV2 infection in children: a systematic review.', 2020),
        semanticScholarPaper('d4'.repeat(20), 'Quantum Field Theory in Curved Spacetime, Part 1', 2020),
      ],
    });
    service = await startService({ ...providerEnv(upstream.origin), SEMANTIC_SCHOLAR_API_KEY: 'test-key-1', CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
    const response = await request(service.origin, '/v1/search/papers?q=workshop&providers=crossref,semanticscholar&limit=20');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.providers.map((outcome: { status: string }) => outcome.status)).toEqual(['ok', 'ok']);
    results = body.results;
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const titled = (title: RegExp): Result[] => results.filter((result) => title.test(result.title));
  const providersOf = (result: Result): string[] => result.sources.map((source) => source.provider).sort();

  it('keeps the 2nd and the third workshop apart: the third takes no DOI of the second', () => {
    const workshops = titled(/workshop on gender bias/i);
    expect(workshops).toHaveLength(2);
    expect(workshops.map((result) => [result.doi, providersOf(result)])).toEqual(
      expect.arrayContaining([
        ['10.18653/v1/gebnlp-2', ['crossref']],
        [undefined, ['semanticscholar']],
      ]),
    );
  });

  it('keeps YOLOv2 and YOLOv3 apart', () => {
    expect(titled(/^yolov\d/i).map(providersOf)).toEqual(expect.arrayContaining([['crossref'], ['semanticscholar']]));
    expect(titled(/^yolov\d/i)).toHaveLength(2);
  });

  it('merges one work whose number is written two ways, with and without a hyphen or as a roman numeral', () => {
    const sars = titled(/^sars-cov-?2 infection/i);
    expect(sars).toHaveLength(1);
    expect(providersOf(sars[0]!)).toEqual(['crossref', 'semanticscholar']);
    const quantum = titled(/^quantum field theory/i);
    expect(quantum).toHaveLength(1);
    expect(providersOf(quantum[0]!)).toEqual(['crossref', 'semanticscholar']);
    expect(quantum[0]!.doi).toBe('10.1000/qft.1');
  });
});
