/** What a YouTube video is called: its id of 11 characters, and the links that show it (watch, youtu.be, shorts, embed, live). */

export const YOUTUBE_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** The paths that name a video by the segment after them, on youtube.com and youtube-nocookie.com. */
const VIDEO_PATH = /^\/(?:shorts|embed|live|v)\/([^/?#]+)/;

/**
 * The id of the one video a parsed link shows (`youtu.be/ID`, `youtube.com/watch?v=ID`, `/shorts/ID`, `/embed/ID`,
 * `/live/ID`, on `www.`, `m.` and `music.` too), or undefined for any other link.
 */
export function youtubeVideoIdOfLink(url: URL): string | undefined {
  const host = url.hostname.replace(/^(www|m|music)\./, '');
  const candidate =
    host === 'youtu.be'
      ? url.pathname.slice(1).split('/')[0]
      : host === 'youtube.com' || host === 'youtube-nocookie.com'
        ? (url.searchParams.get('v') ?? VIDEO_PATH.exec(url.pathname)?.[1])
        : undefined;
  return candidate !== undefined && YOUTUBE_VIDEO_ID.test(candidate) ? candidate : undefined;
}
