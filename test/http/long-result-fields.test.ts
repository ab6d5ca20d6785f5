import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

/**
 * Upstreams that answer a result whose text is a megabyte (any size up to the body cap): the answer holds each field
 * within its documented bound, cut with `…` after the field's own opening words, and is otherwise an ordinary answer.
 * The documented bounds (README, docs/api.md), written out here rather than read from the code.
 */
const TITLE_CHARS = 300;
const SNIPPET_CHARS = 1_000;
const ABSTRACT_CHARS = 10_000;
const VENUE_CHARS = 300;
const AUTHOR_CHARS = 200;
const AUTHORS_LISTED = 100;
const URL_CHARS = 8_192;
const EXTRA_CHARS = 300;

/** About a megabyte of words, each different, so that a cut shows where it was made. */
function megabyteOf(word: string): string {
  const words: string[] = [];
  for (let index = 0, length = 0; length < 1_000_000; index += 1) {
    const next = `${word}${index}`;
    words.push(next);
    length += next.length + 1;
  }
  return words.join(' ');
}

/** A cut field: within `max`, ending with the ellipsis, and what comes before it is how `original` starts. */
function expectCutFrom(value: string, original: string, max: number): void {
  expect(value.length).toBeLessThanOrEqual(max);
  expect(value.endsWith('…')).toBe(true);
  const kept = value.slice(0, -1);
  // Most of the bound is used, and the cut fell between two words of the original.
  expect(kept.length).toBeGreaterThan(max / 2);
  expect(original.startsWith(kept)).toBe(true);
  expect(original[kept.length]).toBe(' ');
}

type WebResult = { title: string; url: string; snippet?: string; sources: Array<{ provider: string; rank: number }> };
type PaperResult = WebResult & { abstract?: string; venue?: string; authors?: string[]; year?: number; doi?: string };

describe('results whose text is huge, over REST', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const hugeTitle = megabyteOf('title');
  const hugeSnippet = megabyteOf('snippet');
  const hugeAbstract = megabyteOf('abstract');
  const hugeVenue = megabyteOf('venue');
  const hugeAuthor = megabyteOf('author');
  const longUrl = `https://long.example/?q=${'a'.repeat(URL_CHARS)}`;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', {
      web: {
        results: [
          { title: hugeTitle, url: 'https://huge.example/', description: hugeSnippet },
          { title: 'An unfollowable link', url: longUrl, description: 'Its URL is longer than any server takes.' },
          { title: 'An ordinary page', url: 'https://ordinary.example/', description: 'An ordinary snippet.' },
        ],
      },
    });
    upstream.json('/semanticscholar/graph/v1/paper/search', {
      total: 2,
      offset: 0,
      data: [
        {
          paperId: 'a1'.repeat(20),
          url: 'https://www.semanticscholar.org/paper/huge',
          title: hugeTitle,
          abstract: hugeAbstract,
          venue: hugeVenue,
          year: 2024,
          externalIds: { DOI: '10.1234/huge.1' },
          authors: [{ authorId: 'x0', name: hugeAuthor }, ...Array.from({ length: 5_000 }, (_, index) => ({ authorId: `a${index}`, name: `Author Number${index}` }))],
          citationCount: 3,
          openAccessPdf: null,
        },
        {
          paperId: 'b2'.repeat(20),
          url: 'https://www.semanticscholar.org/paper/ordinary',
          title: 'An ordinary paper',
          abstract: 'An ordinary abstract.',
          venue: 'Ordinary Journal',
          year: 2023,
          externalIds: { DOI: '10.1234/ordinary.2' },
          authors: [{ authorId: 'o1', name: 'Olga Ordinary' }],
          citationCount: 1,
          openAccessPdf: null,
        },
      ],
    });
    upstream.json('/youtube/youtube/v3/videos', {
      kind: 'youtube#videoListResponse',
      items: [
        {
          kind: 'youtube#video',
          id: 'abcDEF12345',
          snippet: { publishedAt: '2024-01-02T03:04:05Z', title: hugeTitle, description: hugeSnippet, channelTitle: hugeVenue },
          contentDetails: { duration: 'PT4M13S' },
          statistics: { viewCount: '12345' },
        },
      ],
    });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'k-123456',
      SEMANTIC_SCHOLAR_API_KEY: 'test-key-1',
      YOUTUBE_API_KEY: 'yt-key-1234567890',
      CACHE_TTL_SECONDS: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('cuts a web result\'s megabyte title and snippet to their bounds, drops the unfollowable link, and keeps the rest', async () => {
    const response = await request(service.origin, '/v1/search/web?q=huge+fields&providers=brave');
    expect(response.status).toBe(200);
    const text = await response.text();
    // Three results' worth, not two megabytes.
    expect(text.length).toBeLessThan(20_000);
    const body = JSON.parse(text) as { results: WebResult[]; providers: Array<{ provider: string; status: string }> };
    expect(body.providers.map(({ provider, status }) => [provider, status])).toEqual([['brave', 'ok']]);
    expect(body.results.map((result) => result.url)).toEqual(['https://huge.example/', 'https://ordinary.example/']);
    const [huge, ordinary] = body.results;
    expectCutFrom(huge!.title, hugeTitle, TITLE_CHARS);
    expectCutFrom(huge!.snippet!, hugeSnippet, SNIPPET_CHARS);
    expect(huge!.sources).toEqual([{ provider: 'brave', rank: 1 }]);
    // The dropped result is as if the provider had not given it: the ordinary page is its second.
    expect(ordinary).toMatchObject({ title: 'An ordinary page', snippet: 'An ordinary snippet.', sources: [{ provider: 'brave', rank: 2 }] });
  });

  it('bounds a paper\'s title, abstract, snippet, venue and authors, and keeps the rest', async () => {
    const response = await request(service.origin, '/v1/search/papers?q=huge+fields&providers=semanticscholar');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(40_000);
    const body = JSON.parse(text) as { results: PaperResult[]; providers: Array<{ provider: string; status: string }> };
    expect(body.providers.map(({ provider, status }) => [provider, status])).toEqual([['semanticscholar', 'ok']]);
    const huge = body.results.find((result) => result.url === 'https://www.semanticscholar.org/paper/huge');
    const ordinary = body.results.find((result) => result.url === 'https://www.semanticscholar.org/paper/ordinary');
    expectCutFrom(huge!.title, hugeTitle, TITLE_CHARS);
    expectCutFrom(huge!.abstract!, hugeAbstract, ABSTRACT_CHARS);
    expectCutFrom(huge!.venue!, hugeVenue, VENUE_CHARS);
    expect(huge!.snippet!.length).toBeLessThanOrEqual(SNIPPET_CHARS);
    expect(huge!.authors).toHaveLength(AUTHORS_LISTED);
    expectCutFrom(huge!.authors![0]!, hugeAuthor, AUTHOR_CHARS);
    expect(huge!.authors!.slice(1, 3)).toEqual(['Author Number0', 'Author Number1']);
    expect(huge).toMatchObject({ year: 2024, doi: '10.1234/huge.1' });
    expect(ordinary).toMatchObject({
      title: 'An ordinary paper',
      abstract: 'An ordinary abstract.',
      venue: 'Ordinary Journal',
      authors: ['Olga Ordinary'],
      year: 2023,
      doi: '10.1234/ordinary.2',
    });
  });

  it('bounds a video\'s title, description and channel from youtube_video_details', async () => {
    const response = await request(service.origin, '/v1/ops/youtube_video_details', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: ['abcDEF12345'] }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(20_000);
    const body = JSON.parse(text) as { videos: Array<WebResult & { extra: Record<string, unknown> }>; not_found: string[] };
    expect(body.not_found).toEqual([]);
    const [video] = body.videos;
    expectCutFrom(video!.title, hugeTitle, TITLE_CHARS);
    expectCutFrom(video!.snippet!, hugeSnippet, SNIPPET_CHARS);
    expectCutFrom(String(video!.extra.channel), hugeVenue, EXTRA_CHARS);
    expect(video).toMatchObject({ url: 'https://www.youtube.com/watch?v=abcDEF12345', extra: { duration: 'PT4M13S', views: 12345 } });
  });
});
