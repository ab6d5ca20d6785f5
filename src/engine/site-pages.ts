import { normalizeArxivId } from '../domain/paper-identifiers.js';
import { youtubeVideoIdOfLink } from '../domain/youtube-links.js';
import { compareParameters } from './query-parameters.js';

/**
 * Pages that a site, or a servlet container, names by several URLs: canonical-url.ts's general rule keeps them
 * apart, and a search shows one video or one paper twice. Applied to every web result's key, so the usual key
 * costs one search for `;jsessionid=` and a few comparisons of its first letters: nothing is allocated, and only
 * a key of one of these sites (other than a plain `watch?v=` link) is parsed.
 */

/** A Java servlet's session id, written into the path when the browser keeps no cookie: `/page;jsessionid=ABC`. */
const SESSION_ID = ';jsessionid=';

/**
 * Parameters a YouTube link carries for the one who shared or opened it, not for the video it shows: the share id
 * (`si`), where it was shared from (`feature`, `ab_channel`, `pp`), and the time it starts at (`t`). Another
 * site's `t` may name a page, and stays.
 */
const YOUTUBE_SHARE_PARAMETERS: ReadonlySet<string> = new Set(['si', 'feature', 't', 'ab_channel', 'pp']);

/** The hosts (once `www.` and `m.` are gone) of YouTube's links to one video. */
const YOUTUBE_HOSTS: ReadonlySet<string> = new Set(['youtube.com', 'youtu.be', 'youtube-nocookie.com']);

/** arXiv's pages of one paper: abstract, PDF and HTML, any version (`arxiv.org/pdf/2101.00001v2`), on `export.` too. */
const ARXIV_PAGE = /^(?:export\.)?arxiv\.org\/(?:abs|pdf|html)\/(.+)$/;

/**
 * A canonical URL key (host, path, query, route) with what these sites add taken out: a path's `;jsessionid=…`;
 * a YouTube video's every link as `youtube.com/watch?v=ID` (youtu.be, shorts, embed, live), without
 * YOUTUBE_SHARE_PARAMETERS; an arXiv paper's abstract, PDF and HTML pages of any version as `arxiv.org/abs/ID`.
 */
export function sitePageKey(key: string): string {
  const session = key.indexOf(SESSION_ID);
  const page = session < 0 ? key : withoutSessionId(key, session);
  if (page.startsWith('youtu')) return youtubeVideoKey(page);
  if (page.startsWith('arxiv.org/') || page.startsWith('export.arxiv.org/')) return arxivPaperKey(page);
  return page;
}

/** The key without the session id at `start`, when it is in the path (a query's `;` is the query's own). */
function withoutSessionId(key: string, start: number): string {
  const query = key.indexOf('?');
  if (query >= 0 && query < start) return key;
  let end = start + SESSION_ID.length;
  while (end < key.length && !'/?#;'.includes(key[end]!)) end += 1;
  let pathEnd = start;
  // A path that ends in a directory once its session id is gone ("/docs/;jsessionid=…") loses its trailing slash, as any key does.
  if (end === key.length || key[end] !== '/') while (pathEnd > 0 && key[pathEnd - 1] === '/') pathEnd -= 1;
  return key.slice(0, pathEnd) + key.slice(end);
}

/** The key of a watch link that has nothing but its video id: already the video's key (YouTube's own results are all so). */
const WATCH_KEY_START = 'youtube.com/watch?v=';
const WATCH_KEY_LENGTH = WATCH_KEY_START.length + 11;

/** A YouTube video's key, `youtube.com/watch?v=ID` with the link's other parameters; any other YouTube page's key as it is. */
function youtubeVideoKey(key: string): string {
  if (key.length === WATCH_KEY_LENGTH && key.startsWith(WATCH_KEY_START)) return key;
  let url: URL;
  try {
    url = new URL(`https://${key}`);
  } catch {
    return key;
  }
  if (url.port !== '' || !YOUTUBE_HOSTS.has(url.hostname)) return key;
  const id = youtubeVideoIdOfLink(url);
  if (id === undefined) return key;
  const parameters = [...url.searchParams.entries()].filter(([name]) => name !== 'v' && !YOUTUBE_SHARE_PARAMETERS.has(name));
  parameters.push(['v', id]);
  parameters.sort(([nameA, valueA], [nameB, valueB]) => compareParameters(nameA, valueA, nameB, valueB));
  return `youtube.com/watch?${new URLSearchParams(parameters).toString()}${url.hash}`;
}

/** An arXiv paper's key, `arxiv.org/abs/ID` (no version); any other arXiv page's key as it is. */
function arxivPaperKey(key: string): string {
  const path = ARXIV_PAGE.exec(key)?.[1];
  const id = path === undefined ? undefined : normalizeArxivId(path);
  return id === undefined ? key : `arxiv.org/abs/${id}`;
}
