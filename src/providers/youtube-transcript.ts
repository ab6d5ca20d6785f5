import { parseError, upstreamError, upstreamFailure } from '../domain/errors.js';
import { asArray, htmlToText, isRecord, jsonObjectEnd, numberOrUndefined, parseXmlBody, xmlText } from './parse-helpers.js';
import type { Captions, CaptionsInput, CaptionTrack, TranscriptLine } from './capabilities.js';
import { Provider, type ProviderSettings, type UpstreamRequest, type UpstreamResponse, type UpstreamTransport } from './provider.js';

/**
 * A video's captions, read the way YouTube's own player reads them: the watch page lists caption tracks
 * (the Data API's captions.download needs OAuth as the video's owner), and each track's timed text is XML.
 * Not a search provider (no search asks it): it serves the captions capability, for youtube_transcript.
 */
export class YoutubeTranscriptProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'youtube_web',
    kind: 'video',
    description: "YouTube watch pages and timed text, for a video's captions.",
    baseUrl: 'https://www.youtube.com',
    credentials: [],
    searchable: false,
  };
  readonly settings = YoutubeTranscriptProvider.settings;

  buildWatchRequest(videoId: string): UpstreamRequest {
    const url = this.endpoint('/watch');
    url.searchParams.set('v', videoId);
    url.searchParams.set('hl', 'en');
    return { url: url.toString(), headers: { 'Accept-Language': 'en', Accept: 'text/html' } };
  }

  parseCaptionTracks(response: UpstreamResponse): CaptionTrack[] {
    const player = playerResponse(response.body);
    const status = isRecord(player.playabilityStatus) ? player.playabilityStatus : {};
    if (typeof status.status === 'string' && status.status !== 'OK') {
      throw upstreamError(`the video is not playable: ${htmlToText(String(status.reason ?? status.status))}`);
    }
    const captions = isRecord(player.captions) ? player.captions.playerCaptionsTracklistRenderer : undefined;
    const tracks = isRecord(captions) ? asArray(captions.captionTracks) : [];
    return tracks.filter(isRecord).flatMap((track) => {
      if (typeof track.baseUrl !== 'string' || typeof track.languageCode !== 'string') return [];
      return [
        {
          url: this.sameOriginUrl(track.baseUrl),
          language: track.languageCode,
          name: trackName(track.name) ?? track.languageCode,
          automatic: track.kind === 'asr',
        },
      ];
    });
  }

  /**
   * The track's timed text without a `fmt` parameter: a page's baseUrl may ask for srv3 (`&fmt=srv3`), and
   * without one YouTube answers in the `<transcript><text start dur>` format parseTranscript reads.
   */
  buildTrackRequest(track: CaptionTrack): UpstreamRequest {
    return { url: withoutFormat(track.url), headers: { Accept: 'text/xml' } };
  }

  /** Reads timed text in the default format: `<transcript><text start="s" dur="s">line</text>…</transcript>`. */
  parseTranscript(response: UpstreamResponse): TranscriptLine[] {
    if (response.body.trim() === '') throw upstreamFailure('the caption track is empty');
    const document = parseXmlBody(response);
    if (!isRecord(document.transcript)) throw parseError('the caption track is not timed text (<transcript>)');
    return asArray(document.transcript.text).flatMap((node) =>
      line(isRecord(node) ? numberOrUndefined(node['@_start']) : 0, isRecord(node) ? numberOrUndefined(node['@_dur']) : undefined, xmlText(node)),
    );
  }

  /** The watch page's tracks, then the timed text of the one chosen for the language; undefined when there is none. */
  override async captions(input: CaptionsInput, transport: UpstreamTransport, signal: AbortSignal): Promise<Captions | undefined> {
    const tracks = await transport.send(this.buildWatchRequest(input.videoId), signal, (response) => this.parseCaptionTracks(response));
    const track = chooseTrack(tracks, input.language);
    if (!track) return undefined;
    const lines = await transport.send(this.buildTrackRequest(track), signal, (response) => this.parseTranscript(response));
    return { tracks, track, lines };
  }

  /** Caption URLs come from a page body: only ever follow them to the configured YouTube origin. */
  private sameOriginUrl(candidate: string): string {
    const base = new URL(this.config.baseUrl);
    const url = new URL(candidate, base);
    if (url.origin !== base.origin) throw upstreamFailure('a caption track points outside YouTube');
    return url.toString();
  }
}

/** The requested language's written captions, else its automatic ones, else English, else the first track. */
function chooseTrack(tracks: CaptionTrack[], language: string): CaptionTrack | undefined {
  const wanted = language.toLowerCase();
  const matches = (track: CaptionTrack, code: string) => track.language.toLowerCase() === code || track.language.toLowerCase().startsWith(`${code}-`);
  return (
    tracks.find((track) => matches(track, wanted) && !track.automatic) ??
    tracks.find((track) => matches(track, wanted)) ??
    tracks.find((track) => matches(track, 'en')) ??
    tracks[0]
  );
}

/** The URL without its `fmt=` parameter, the rest left byte for byte (it carries a signature). */
function withoutFormat(url: string): string {
  return url.replace(/([?&])fmt=[^&#]*&?/, '$1').replace(/[?&](?=#|$)/, '');
}

function line(start: number | undefined, duration: number | undefined, raw: string | undefined): TranscriptLine[] {
  const text = raw === undefined ? '' : htmlToText(raw);
  if (text === '') return [];
  const entry: TranscriptLine = { start: start ?? 0, text };
  if (duration !== undefined) entry.duration = duration;
  return [entry];
}

function trackName(name: unknown): string | undefined {
  if (!isRecord(name)) return undefined;
  if (typeof name.simpleText === 'string') return name.simpleText;
  const runs = asArray(name.runs).filter(isRecord).map((run) => run.text);
  return runs.length > 0 ? runs.join('') : undefined;
}

/** The `ytInitialPlayerResponse = {…};` object of a watch page, found by matching braces outside strings. */
function playerResponse(html: string): Record<string, unknown> {
  const marker = /ytInitialPlayerResponse\s*=\s*\{/.exec(html);
  if (!marker) throw parseError('the watch page has no player response (consent page or changed layout)');
  const start = marker.index + marker[0].length - 1;
  const end = jsonObjectEnd(html, start);
  if (end === undefined) throw parseError('the player response is cut short');
  let parsed: unknown;
  try {
    parsed = JSON.parse(html.slice(start, end));
  } catch (error) {
    throw parseError('the player response is not valid JSON', error);
  }
  if (!isRecord(parsed)) throw parseError('the player response is not an object');
  return parsed;
}
