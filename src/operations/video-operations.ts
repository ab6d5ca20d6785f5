import { z } from 'zod';
import { boundedText } from '../domain/cut-text.js';
import { FedsearchError, invalidQuery } from '../domain/errors.js';
import type { ProviderItem } from '../domain/result.js';
import { YOUTUBE_VIDEO_ID, youtubeVideoIdOfLink } from '../domain/youtube-links.js';
import { pageText, type TextPage } from '../fetch/extract.js';
import { keptRead, type WholeRead } from '../fetch/read-cache.js';
import type { TranscriptLine } from '../providers/capabilities.js';
import { callOptions, defineOperation, type OperationContext } from './operation.js';
import { transcriptOutput, videoDetailsOutput } from './output-schemas.js';
import { renderTextPage } from './render-text-page.js';
import { languageTagCase } from './search-params.js';

/**
 * How much of a caller's value a message quotes, cut between whole characters (cut-text.ts): half an emoji was
 * quoted as `\ud83d`.
 */
const SHOWN_INPUT_CHARS = 100;

/** A video id from an id or any usual YouTube link (watch, youtu.be, shorts, embed, live). */
export function parseVideoId(input: string): string {
  const value = input.trim();
  if (YOUTUBE_VIDEO_ID.test(value)) return value;
  try {
    const candidate = youtubeVideoIdOfLink(new URL(value));
    if (candidate !== undefined) return candidate;
  } catch {
    // Not a URL: fall through to the message below.
  }
  throw invalidQuery(`"${boundedText(value, SHOWN_INPUT_CHARS)}" is not a YouTube video id (11 characters) or a YouTube video link`);
}

const timeoutMs = z.number().int().min(100).max(30_000).optional().describe('Deadline in milliseconds (100–30000).');

/**
 * A video id or link, checked with the other parameters: a wrong one is named by its field (video, ids.2) over
 * REST and MCP alike, as every other invalid parameter is, rather than refused later by an unnamed message.
 */
const videoReference = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((value, context) => {
    // Too short or too long is said once, by min and max.
    if (value === '' || value.length > 300 || parseVideoIdOrUndefined(value) !== undefined) return;
    context.addIssue({
      code: 'custom',
      message: `${JSON.stringify(boundedText(value, SHOWN_INPUT_CHARS))} is not a YouTube video; allowed: a video id of 11 characters (dQw4w9WgXcQ) or a link to one video (watch, youtu.be, shorts, embed, live)`,
      input: value,
    });
  });

export const youtubeVideoDetails = defineOperation({
  name: 'youtube_video_details',
  description: 'Details of YouTube videos by id or link: title, channel, duration, views, publish date; ids YouTube does not know are listed apart. Fails when YouTube does not answer (needs YOUTUBE_API_KEY).',
  input: z.strictObject({
    ids: z.array(videoReference).min(1).max(50).describe('Video ids or links (1–50).'),
    timeout_ms: timeoutMs,
  }),
  example: { ids: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'] },
  output: videoDetailsOutput,
  run: async (input, context): Promise<{ videos: ProviderItem[]; not_found: string[] }> => {
    const ids = [...new Set(input.ids.map(parseVideoId))];
    const videos = await context.search.call('youtube', 'videoDetails', { ids }, callOptions(context, input.timeout_ms));
    const found = new Set(videos.map((video) => parseVideoIdOrUndefined(video.url)));
    return { videos, not_found: ids.filter((id) => !found.has(id)) };
  },
  render: (output) =>
    [
      ...output.videos.map((video, index) => {
        const facts = ['channel', 'duration', 'views']
          .map((field) => (video.extra?.[field] !== undefined ? `${field}: ${String(video.extra[field])}` : undefined))
          .filter(Boolean);
        return `${index + 1}. ${video.title}\n   ${video.url}\n   ${[video.published_at, ...facts].filter(Boolean).join(' · ')}`;
      }),
      ...(output.not_found.length > 0 ? [`Not found: ${output.not_found.join(', ')}`] : []),
    ].join('\n'),
});

/** The video id of an id or a YouTube video link; undefined for anything else (a channel, a playlist, another site). */
export function parseVideoIdOrUndefined(url: string): string | undefined {
  try {
    return parseVideoId(url);
  } catch {
    return undefined;
  }
}

export interface Transcript extends TextPage {
  video_id: string;
  language: string;
  automatic: boolean;
  available_languages: string[];
  /** The first line of every minute that starts within this page of the text, with its time in seconds: to cite a moment. */
  timestamps: Array<{ start: number; text: string }>;
}

/** A minute's first line, and where it starts in the whole transcript's text (to know which page it falls in). */
interface MinuteMark {
  start: number;
  text: string;
  at: number;
}

/** Captions read whole, before paging: what youtube_transcript keeps for the next pages of them (fetch/read-cache.ts). */
interface TranscriptRead extends WholeRead {
  language: string;
  automatic: boolean;
  available_languages: string[];
  marks: MinuteMark[];
}

/** The captions' lines as one text, with the first line of every minute and where in that text it starts. */
function transcriptText(lines: TranscriptLine[]): { markdown: string; marks: MinuteMark[] } {
  const marks: MinuteMark[] = [];
  let at = 0;
  for (const entry of lines) {
    if (marks.length === 0 || entry.start >= marks[marks.length - 1]!.start + 60) marks.push({ start: entry.start, text: entry.text, at });
    at += entry.text.length + 1;
  }
  return { markdown: lines.map((entry) => entry.text).join(' '), marks };
}

async function readTranscript(videoId: string, input: { language: string; timeout_ms?: number | undefined }, context: OperationContext): Promise<TranscriptRead> {
  const captions = await context.search.call('youtube_web', 'captions', { videoId, language: input.language }, callOptions(context, input.timeout_ms));
  if (!captions) throw new FedsearchError('NOT_FOUND', `video ${videoId} has no captions`);
  const { track, tracks, lines } = captions;
  return { language: track.language, automatic: track.automatic, available_languages: tracks.map((candidate) => candidate.language), ...transcriptText(lines) };
}

export const youtubeTranscript = defineOperation({
  name: 'youtube_transcript',
  description: "A YouTube video's captions as text, in the language asked for when the video has it, paged by offset. Fails when the video has no captions.",
  notFound: 'the video has no captions',
  input: z.strictObject({
    video: videoReference.describe('Video id or link.'),
    language: z
      .string()
      .overwrite(languageTagCase)
      // Capitals are admitted though the code is in its usual case by now, as for the search filter: the pattern is
      // also what tools/list and OpenAPI advertise for the input as sent.
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'not a language code; allowed: a code such as en or pt-BR')
      .default('en')
      .describe('Caption language code (en, de, pt-BR; default en).'),
    max_chars: z.number().int().min(500).max(100_000).default(20_000).describe('Characters of the transcript to return (500–100000, default 20000).'),
    offset: z.number().int().min(0).default(0).describe('Character offset to start from (for paging).'),
    timeout_ms: timeoutMs,
  }),
  example: { video: 'dQw4w9WgXcQ', language: 'en' },
  output: transcriptOutput,
  run: async (input, context): Promise<Transcript> => {
    const videoId = parseVideoId(input.video);
    // Kept like a page fetch_url read: the next page of a long transcript is not the whole captions asked for again.
    const read = await keptRead(context.reads, `transcript ${videoId} ${input.language}`, () => readTranscript(videoId, input, context));
    const page = pageText(read.markdown, input.offset, input.max_chars);
    const end = page.offset + page.text.length;
    return {
      video_id: videoId,
      language: read.language,
      automatic: read.automatic,
      available_languages: read.available_languages,
      ...page,
      timestamps: read.marks.filter((mark) => mark.at >= page.offset && mark.at < end).map(({ start, text }) => ({ start, text })),
    };
  },
  render: (output) =>
    renderTextPage(
      'youtube_transcript',
      `Transcript of ${output.video_id} (${output.language}${output.automatic ? ', automatic' : ''}; available: ${output.available_languages.join(', ')})`,
      output,
    ),
});
