import { FedsearchError, invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { timeRangeStart } from '../domain/time-range.js';
import type { VideoDetailsInput } from './capabilities.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage, jsonErrorBody } from './error-envelope.js';
import { NO_WORD_TO_SEARCH, minusQuery, minusQueryProblem } from './excluded-terms.js';
import { answerItems, asArray, compact, extraFields, isRecord, isoDate, itemsOf, numberOrUndefined, parseJsonObject, plainText, text } from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type Refusal,
  type UpstreamRequest,
  type UpstreamResponse,
  type UpstreamTransport,
} from './provider.js';
import { youtubeRelevanceLanguage } from './youtube-language.js';

/** Google: `{"error": {"code", "message", "errors": [{"domain", "reason", "message"}]}}`. */
const ERROR_BODIES = [ERROR_ENVELOPES.errorObject];
/** Reasons Google gives for a used-up quota or rate limit: 403, which would otherwise read as a refused key. */
const QUOTA_REASONS: ReadonlySet<string> = new Set(['quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'userRateLimitExceeded']);
/** Reasons for a bad key, which Google answers with 400 (`keyInvalid`; an ErrorInfo's `API_KEY_INVALID`), not 401. */
const KEY_REASONS: ReadonlySet<string> = new Set(['keyInvalid', 'keyExpired', 'API_KEY_INVALID', 'API_KEY_EXPIRED']);

/** search.list and videos.list both serve at most 50 items per request. */
const MAX_RESULTS = 50;
const SAFE_SEARCH = { off: 'none', moderate: 'moderate', strict: 'strict' } as const;

/**
 * The text as search.list reads it: its OR is `|` ("boating|sailing -fishing"; `-` excludes, as typed), and the word
 * OR is a word to match, so `boating OR sailing` asked for videos with all three. Its only exclusion is `-`: a typed
 * `NOT fishing` is sent as `-fishing`, as the word NOT and `fishing` would be two more words to find, and an AND
 * (no operator to it either) is left out: `surfing AND -kitesurfing` is `surfing -kitesurfing`. An OR next to an
 * excluded term goes with it (minusSyntax): `|` joins the terms either side, and `-fishing|boating` would make the
 * excluded term an alternative to a wanted one (`-fishing OR boating` is `-fishing boating`). An OR with nothing on
 * one side (`boating OR`) is left out; excluded terms between two alternatives go after the text, their ORs one `|`
 * between those (`boating OR -fishing OR sailing` is `boating|sailing -fishing`). The text is read closed first, as
 * the boolean APIs' is (minusQuery), and a group sent without its parentheses where `|`, read before the space, keeps
 * its meaning (`(boating OR sailing) hawaii` is `boating|sailing hawaii`). Empty for a text with no word.
 */
function searchTerms(typed: string): string {
  return minusQuery(typed, '|');
}

/**
 * YouTube Data API v3: GET /youtube/v3/search (snippets of videos) and GET /youtube/v3/videos (details by id).
 * The key travels as the `key` query parameter, so request URLs are secret and are never put in messages.
 * https://developers.google.com/youtube/v3/docs/search/list
 */
export class YoutubeProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'youtube',
    kind: 'video',
    description: 'YouTube videos (YouTube Data API v3).',
    baseUrl: 'https://www.googleapis.com',
    credentials: [{ env: 'YOUTUBE_API_KEY', required: true, secret: true }],
    filters: ['time_range', 'language', 'safesearch'],
  };
  readonly settings = YoutubeProvider.settings;

  /** A text of excluded terms YouTube cannot exclude alone (`NOT -40`) is skipped: left out, nothing is left to search. */
  override queryProblem(text: string): string | undefined {
    return minusQueryProblem(text, '|', 'YouTube');
  }

  override buildRequest(query: SearchQuery, now = Date.now()): UpstreamRequest {
    const terms = searchTerms(query.text);
    if (terms === '') throw invalidQuery(NO_WORD_TO_SEARCH);
    const url = this.endpoint('/youtube/v3/search');
    url.searchParams.set('part', 'snippet');
    url.searchParams.set('type', 'video');
    url.searchParams.set('q', terms);
    url.searchParams.set('maxResults', String(Math.min(query.limit, MAX_RESULTS)));
    const { time_range: timeRange, language, safesearch } = query.filters;
    if (timeRange) url.searchParams.set('publishedAfter', new Date(timeRangeStart(timeRange, now)).toISOString());
    if (language) url.searchParams.set('relevanceLanguage', youtubeRelevanceLanguage(language));
    if (safesearch) url.searchParams.set('safeSearch', SAFE_SEARCH[safesearch]);
    url.searchParams.set('key', this.apiKey());
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const listed = listItems(response);
    return { items: answerItems(listed.length, itemsOf(listed, searchItem)) };
  }

  /** search.list's next page is named by the `nextPageToken` of the last; the last page has none. */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const token = text(parseJsonObject(page.response).nextPageToken);
    // The entries listed, not those read: one skipped as unreadable does not make a full page look like the last.
    if (!token || listItems(page.response).length < numberParameter(page.request, 'maxResults', MAX_RESULTS)) return undefined;
    return withParameters(page.request, { pageToken: token });
  }

  /** videos.list for up to 50 ids: title, channel, duration, views and publish date of each video. */
  buildVideosRequest(videoIds: string[]): UpstreamRequest {
    if (videoIds.length === 0 || videoIds.length > MAX_RESULTS) {
      throw invalidQuery(`videos.list takes 1 to ${MAX_RESULTS} video ids`, { count: videoIds.length });
    }
    const url = this.endpoint('/youtube/v3/videos');
    url.searchParams.set('part', 'snippet,contentDetails,statistics');
    url.searchParams.set('id', videoIds.join(','));
    url.searchParams.set('key', this.apiKey());
    return { url: url.toString(), headers: { Accept: 'application/json' } };
  }

  /** Reads a videos.list body; parts that were not asked for (or are hidden, like some counts) stay absent. */
  parseVideosResponse(response: UpstreamResponse): ProviderItem[] {
    const listed = listItems(response);
    return answerItems(listed.length, itemsOf(listed, videoItem));
  }

  override async videoDetails(input: VideoDetailsInput, transport: UpstreamTransport, signal: AbortSignal): Promise<ProviderItem[]> {
    return transport.send(this.buildVideosRequest(input.ids), signal, (response) => this.parseVideosResponse(response));
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }

  override refusalOf(response: UpstreamResponse, described: string | undefined): Refusal | undefined {
    // The reasons are read from the body itself: describeError names only the first, and any may be the quota's.
    const reasons = errorReasons(response);
    if (reasons.some((reason) => QUOTA_REASONS.has(reason))) return 'quota';
    if (reasons.some((reason) => KEY_REASONS.has(reason))) return 'credentials';
    // The reason of a bad key is often only `badRequest`: its message is what tells it from a bad parameter.
    return response.status === 400 && /^(?:badRequest: )?API key (?:not valid|expired)/i.test(described ?? '') ? 'credentials' : undefined;
  }

  private apiKey(): string {
    const key = this.credential('YOUTUBE_API_KEY');
    if (!key) throw new FedsearchError('PROVIDER_NOT_CONFIGURED', 'YOUTUBE_API_KEY is not set');
    return key;
  }
}

/** The `reason` of each of Google's `errors[]` and of each ErrorInfo in `details[]`. */
function errorReasons(response: UpstreamResponse): string[] {
  const error = jsonErrorBody(response)?.error;
  if (!isRecord(error)) return [];
  return [...asArray(error.errors), ...asArray(error.details)].filter(isRecord).map((entry) => text(entry.reason) ?? '');
}

/** The list's entries as sent: one that is not an object (null) is skipped when read (itemsOf), not made a result. */
function listItems(response: UpstreamResponse): unknown[] {
  const body = parseJsonObject(response);
  if (body.error !== undefined) throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'YouTube reported an error');
  if (!Array.isArray(body.items)) throw parseError('the body has no items');
  return body.items;
}

/** A search result is a video, a channel or a playlist; each has its own page, none is dropped. */
function searchItem(result: Record<string, unknown>): ProviderItem | undefined {
  const id = isRecord(result.id) ? result.id : {};
  const snippet = isRecord(result.snippet) ? result.snippet : {};
  const videoId = idText(id.videoId);
  const channelId = idText(id.channelId);
  const playlistId = idText(id.playlistId);
  const type = videoId ? 'video' : channelId ? 'channel' : playlistId ? 'playlist' : undefined;
  const url = videoId
    ? watchUrl(videoId)
    : channelId
      ? `https://www.youtube.com/channel/${encodeURIComponent(channelId)}`
      : playlistId
        ? `https://www.youtube.com/playlist?list=${encodeURIComponent(playlistId)}`
        : fallbackUrl(text(snippet.title), snippet);
  if (url === undefined) return undefined;
  const extra = extraFields({ type, channel: text(snippet.channelTitle) });
  return compact({
    title: text(snippet.title) ?? url,
    url,
    snippet: text(snippet.description),
    published_at: isoDate(snippet.publishedAt),
    extra,
  });
}

/**
 * A videos.list item. Unlike search.list, which sends its snippet HTML-escaped (`Rock &amp; Roll`, `O&#39;Brien`),
 * videos.list sends it as plain text (`Name & Identity!`): read as HTML, a title such as `std::vector<int>` lost its
 * `<int>` and a literal `&amp;` became `&`.
 */
function videoItem(video: Record<string, unknown>): ProviderItem | undefined {
  const snippet = isRecord(video.snippet) ? video.snippet : {};
  const details = isRecord(video.contentDetails) ? video.contentDetails : {};
  const statistics = isRecord(video.statistics) ? video.statistics : {};
  const videoId = idText(video.id);
  const title = plainText(snippet.title);
  const url = videoId ? watchUrl(videoId) : fallbackUrl(title, snippet);
  if (url === undefined) return undefined;
  const extra = extraFields({
    channel: plainText(snippet.channelTitle),
    // ISO 8601 duration as YouTube sends it (PT4M13S); live streams have P0D.
    duration: text(details.duration),
    // Counts arrive as decimal strings and are missing when the owner hides them.
    views: numberOrUndefined(statistics.viewCount),
    likes: numberOrUndefined(statistics.likeCount),
    comments: numberOrUndefined(statistics.commentCount),
  });
  return compact({
    title: title ?? url,
    url,
    snippet: plainText(snippet.description),
    published_at: isoDate(snippet.publishedAt),
    extra,
  });
}

function idText(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) ? value : undefined;
}

function watchUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}

/**
 * An item without a usable id still gets a page: its channel, or a search for its title (as read from its list).
 * Undefined with neither: nothing to show or search for, so not a result (a search for "" was made).
 */
function fallbackUrl(title: string | undefined, snippet: Record<string, unknown>): string | undefined {
  const channelId = idText(snippet.channelId);
  if (channelId) return `https://www.youtube.com/channel/${channelId}`;
  return title === undefined ? undefined : `https://www.youtube.com/results?search_query=${encodeURIComponent(title)}`;
}
