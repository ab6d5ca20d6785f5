import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, response, runProvider, transportFor } from '../support/run-provider.js';
import { describeSharedFixtures, endpointOf } from '../support/shared-fixtures.js';
import { asResponse } from '../support/upstream-read.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/youtube/${name}`, import.meta.url), 'utf8');
const KEY = 'AIzaTestKey-0123456789';

describe('youtube adapter', () => {
  const upstream = useFakeUpstream();
  const provider = (): YoutubeProvider =>
    makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: KEY, YOUTUBE_BASE_URL: `${upstream.origin}/youtube` }) as YoutubeProvider;

  it('calls search.list with the key as a parameter and keeps videos, channels and playlists', async () => {
    upstream.json('GET /youtube/youtube/v3/search', fixture('search.json'));
    const before = Date.now();
    const items = await runProvider(provider(), makeQuery('surf', 'video', 3, { time_range: 'week', language: 'en', safesearch: 'off' }));
    const after = Date.now();
    const request = upstream.requestsTo('/youtube/youtube/v3/search').at(-1)!;
    const params = request.url.searchParams;
    expect(request.method).toBe('GET');
    expect(params.get('part')).toBe('snippet');
    expect(params.get('type')).toBe('video');
    expect(params.get('q')).toBe('surf');
    expect(params.get('maxResults')).toBe('3');
    expect(params.get('key')).toBe(KEY);
    expect(params.get('relevanceLanguage')).toBe('en');
    expect(params.get('safeSearch')).toBe('none');
    const publishedAfter = Date.parse(params.get('publishedAfter')!);
    const week = 7 * 24 * 60 * 60 * 1000;
    expect(publishedAfter).toBeGreaterThanOrEqual(before - week);
    expect(publishedAfter).toBeLessThanOrEqual(after - week);
    expect(request.headers.authorization).toBeUndefined();
    expect(items).toEqual([
      {
        title: "Rock & Roll's best <3",
        url: 'https://www.youtube.com/watch?v=abcDEF12345',
        snippet: 'A video about music.',
        published_at: '2024-01-02T03:04:05.000Z',
        extra: { type: 'video', channel: 'Music Channel' },
      },
      {
        title: 'Surf Channel',
        url: 'https://www.youtube.com/channel/UCsurf000000000000000002',
        published_at: '2015-06-07T08:09:10.000Z',
        extra: { type: 'channel', channel: 'Surf Channel' },
      },
      {
        title: 'Best waves',
        url: 'https://www.youtube.com/playlist?list=PLwaves0001',
        snippet: 'A playlist.',
        published_at: '2020-10-11T12:13:14.000Z',
        extra: { type: 'playlist', channel: 'Surf Channel' },
      },
    ]);
  });

  it('sends relevanceLanguage as YouTube documents it: ISO 639-1 without a region, zh-Hans or zh-Hant for Chinese', () => {
    const relevanceLanguage = (language: string): string | null =>
      new URL(provider().buildRequest(makeQuery('surf', 'video', 5, { language })).url).searchParams.get('relevanceLanguage');
    expect(relevanceLanguage('pt-BR')).toBe('pt');
    expect(relevanceLanguage('en-GB')).toBe('en');
    expect(relevanceLanguage('de')).toBe('de');
    expect(relevanceLanguage('zh')).toBe('zh-Hans');
    expect(relevanceLanguage('zh-CN')).toBe('zh-Hans');
    expect(relevanceLanguage('zh-SG')).toBe('zh-Hans');
    expect(relevanceLanguage('zh-TW')).toBe('zh-Hant');
    expect(relevanceLanguage('zh-HK')).toBe('zh-Hant');
  });

  it('sends OR as the | search.list documents (escaped as %7C), and leaves an OR inside a quoted phrase alone', async () => {
    upstream.json('GET /youtube/youtube/v3/search', { items: [] });
    await runProvider(provider(), makeQuery('boating OR sailing -fishing "rock OR roll" OR jazz', 'video', 3));
    const request = upstream.requestsTo('/youtube/youtube/v3/search').at(-1)!;
    expect(request.url.searchParams.get('q')).toBe('boating|sailing -fishing "rock OR roll"|jazz');
    expect(request.url.search).toContain('q=boating%7Csailing+-fishing+%22rock+OR+roll%22%7Cjazz&');
    const plain = new URL(provider().buildRequest(makeQuery('origami or paper planes', 'video')).url);
    expect(plain.searchParams.get('q')).toBe('origami or paper planes');
  });

  it('sends a typed NOT word or NOT "phrase" as the - search.list excludes with; a lower-case not, and NOT inside quotes, stay words', async () => {
    upstream.json('GET /youtube/youtube/v3/search', { items: [] });
    await runProvider(provider(), makeQuery('surfing NOT kitesurfing AND NOT "wave pool" NOT -foil "NOT a drill" why does it not work', 'video', 3));
    const request = upstream.requestsTo('/youtube/youtube/v3/search').at(-1)!;
    // Sent as words, NOT and kitesurfing would be two more words a video had to match.
    expect(request.url.searchParams.get('q')).toBe('surfing -kitesurfing -"wave pool" -foil "NOT a drill" why does it not work');
    // With an OR too: its | is made after the NOT is read.
    await runProvider(provider(), makeQuery('boating OR sailing NOT fishing', 'video', 3));
    expect(upstream.requestsTo('/youtube/youtube/v3/search').at(-1)!.url.searchParams.get('q')).toBe('boating|sailing -fishing');
  });

  /** The q search.list is sent for a text, against a search that finds nothing. */
  const qSent = async (text: string): Promise<string | null> => {
    upstream.json('GET /youtube/youtube/v3/search', { items: [] });
    await runProvider(provider(), makeQuery(text, 'video', 3));
    return upstream.requestsTo('/youtube/youtube/v3/search').at(-1)!.url.searchParams.get('q');
  };

  it('sends each word of NOT (a OR b) with the - search.list excludes with', async () => {
    // Sent as typed, NOT and the group's words were more words to find.
    expect(await qSent('surfing NOT (kitesurfing OR "wave pool")')).toBe('surfing -kitesurfing -"wave pool"');
  });

  it('sends no AND, which search.list does not read: a AND -b is a -b', async () => {
    // Sent, AND was one more word to find.
    expect(await qSent('surfing AND -kitesurfing')).toBe('surfing -kitesurfing');
    expect(await qSent('surfing AND hawaii OR -kitesurfing "rock AND roll"')).toBe('surfing hawaii -kitesurfing "rock AND roll"');
  });

  it('makes no excluded term an alternative: an OR next to one goes with it, and | joins wanted terms only', async () => {
    // Not `-kitesurfing|surfing`: | joins the terms either side, the excluded one among them.
    expect(await qSent('-kitesurfing OR surfing')).toBe('-kitesurfing surfing');
    expect(await qSent('NOT kitesurfing OR surfing')).toBe('-kitesurfing surfing');
    expect(await qSent('surfing OR sailing -(kitesurfing OR "wave pool")')).toBe('surfing|sailing -kitesurfing -"wave pool"');
  });

  it('sends | only between two terms: an OR at either end joined nothing and was a word to match, and two make one |', async () => {
    expect(await qSent('surfing OR')).toBe('surfing');
    expect(await qSent('OR surfing hawaii')).toBe('surfing hawaii');
    expect(await qSent('surfing OR OR sailing')).toBe('surfing|sailing');
    expect(await qSent('"wave pool" OR surfing OR')).toBe('"wave pool"|surfing');
  });

  it('sends a group without the parentheses search.list does not document, where its | (read before the space) keeps the meaning', async () => {
    // Sent as typed, `( -mice` and `(surfing|sailing)` were parentheses YouTube documents no reading of.
    expect(await qSent('asthma ( -mice rats)')).toBe('asthma -mice rats');
    expect(await qSent('asthma ( rats) NOT mice')).toBe('asthma rats -mice');
    // Its own example's shape: `boating|sailing -fishing` excludes fishing from both.
    expect(await qSent('(surfing OR sailing) hawaii')).toBe('surfing|sailing hawaii');
    expect(await qSent('(surfing OR sailing) -fishing')).toBe('surfing|sailing -fishing');
    expect(await qSent('hawaii (surfing OR sailing) OR diving')).toBe('hawaii surfing|sailing|diving');
    expect(await qSent('hawaii (big wave OR reef)')).toBe('hawaii big wave|reef');
    // AND-ed words as an alternative cannot be written without them (`surfing hawaii|sailing` is surfing with either):
    // such a query is skipped (test/providers/minus-formulas.test.ts).
    expect(provider().queryProblem!('(surfing hawaii) OR sailing')).toMatch(/parentheses/);
    // A formula's parentheses are part of its word; a `-` before one that excludes nothing (`-(x+1)`) is quoted with
    // it, as YouTube would read a `-` starting a word as its NOT.
    expect(await qSent('solve f(x) -(x+1)')).toBe('solve f(x) "-(x+1)"');
  });

  it('sends the NOT of a query written in capitals as typed, a word, not the - that would exclude the words searched for', async () => {
    // Not `-INVENTED HERE`, nor `-FOUND`: nothing left to search for.
    expect(await qSent('NOT INVENTED HERE')).toBe('NOT INVENTED HERE');
    expect(await qSent('NOT FOUND')).toBe('NOT FOUND');
  });

  it('asks for at most 50 results', () => {
    const url = new URL(provider().buildRequest(makeQuery('surf', 'video', 80)).url);
    expect(url.searchParams.get('maxResults')).toBe('50');
    expect(url.searchParams.has('publishedAfter')).toBe(false);
  });

  it('builds and parses videos.list: duration, views and publish date; hidden counts stay absent; its plain text is kept as written', async () => {
    upstream.json('GET /youtube/youtube/v3/videos', fixture('videos.json'));
    const youtube = provider();
    const transport = transportFor(youtube);
    const answer = await transport.send(youtube.buildVideosRequest(['abcDEF12345', 'xyz_-789012']), AbortSignal.timeout(10_000), asResponse);
    const request = upstream.requestsTo('/youtube/youtube/v3/videos').at(-1)!;
    expect(request.url.searchParams.get('part')).toBe('snippet,contentDetails,statistics');
    expect(request.url.searchParams.get('id')).toBe('abcDEF12345,xyz_-789012');
    expect(request.url.searchParams.get('key')).toBe(KEY);
    expect(youtube.parseVideosResponse(answer)).toEqual([
      {
        // videos.list sends plain text, not HTML as search.list does: nothing shaped like a tag or an entity goes.
        title: 'Rock & Roll with the <audio> tag',
        url: 'https://www.youtube.com/watch?v=abcDEF12345',
        snippet: 'The full description. Write &amp; for an ampersand.',
        published_at: '2024-01-02T03:04:05.000Z',
        extra: { channel: 'Music & Code', duration: 'PT4M13S', views: 12345, likes: 67 },
      },
      {
        title: 'Snippet only',
        url: 'https://www.youtube.com/watch?v=xyz_-789012',
        published_at: '2023-05-06T07:08:09.000Z',
        extra: { channel: 'Other' },
      },
    ]);
    expect(() => youtube.buildVideosRequest([])).toThrow(FedsearchError);
    expect(() => youtube.buildVideosRequest(Array.from({ length: 51 }, (_, index) => `id${index}`))).toThrow(FedsearchError);
  });

  it('reports the missing key and refuses to build a request without it', () => {
    const unconfigured = makeProvider(YoutubeProvider);
    expect(unconfigured.missingSettings()).toEqual(['YOUTUBE_API_KEY']);
    expect(() => unconfigured.buildRequest(makeQuery('surf', 'video'))).toThrow(/YOUTUBE_API_KEY/);
  });

  it('describes the error envelope by reason and message, never with the key-bearing URL', async () => {
    const youtube = provider();
    expect(youtube.describeError(response(fixture('error-403-quota.json'), 403))).toBe(
      'quotaExceeded: The request cannot be completed because you have exceeded your quota.',
    );
    expect(() => youtube.parseResponse(response(fixture('error-403-quota.json')))).toThrow(FedsearchError);
    upstream.json('GET /youtube/youtube/v3/search', fixture('error-403-quota.json'), 403);
    const failure = await runProvider(youtube, makeQuery('surf', 'video')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FedsearchError);
    expect((failure as FedsearchError).message).toContain('quotaExceeded');
    expect((failure as FedsearchError).message).not.toContain(KEY);
  });
});

const youtube = makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'k' }) as YoutubeProvider;
// The Data API answers JSON only: the endpoint is the format (`part` selects which parts come back).
const youtubeSends = { sent: [youtube.buildRequest(makeQuery('q', 'video')), youtube.buildVideosRequest(['abcDEF12345'])], formatOf: endpointOf };

describeSharedFixtures('youtube', youtubeSends, (fixtures) => {
  for (const shared of fixtures) {
    if (shared.status >= 200 && shared.status < 300) {
      it(`${shared.file}: every item is parsed with title and url`, () => {
        const body = JSON.parse(shared.body) as { kind: string; items: unknown[] };
        const items =
          shared.answers.url.pathname.endsWith('/videos')
            ? youtube.parseVideosResponse(response(shared.body, shared.status))
            : (youtube.parseResponse(response(shared.body, shared.status)) as { items: unknown[] }).items;
        expect(body.items.length).toBeGreaterThan(0);
        expect(items).toHaveLength(body.items.length);
        for (const item of items as Array<{ title: string; url: string; extra?: Record<string, unknown> }>) {
          expect(item.title.length).toBeGreaterThan(0);
          expect(item.url).toMatch(/^https:\/\/www\.youtube\.com\/(watch\?v=|channel\/|playlist\?list=)/);
          // The recorded videos body has no statistics or contentDetails parts: nothing is invented for them.
          if (body.kind === 'youtube#videoListResponse') expect(item.extra?.views).toBeUndefined();
        }
      });
    } else {
      it(`${shared.file}: the error body is described by its reason`, () => {
        const { error } = JSON.parse(shared.body) as { error: { message: string; errors: Array<{ reason: string }> } };
        expect(youtube.describeError(response(shared.body, shared.status))).toBe(`${error.errors[0]!.reason}: ${error.message}`);
        expect(() => youtube.parseResponse(response(shared.body, shared.status))).toThrow(FedsearchError);
      });
    }
  }
});
