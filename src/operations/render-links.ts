import { boundedText } from '../domain/cut-text.js';
import type { ExtractedLink } from '../fetch/extract.js';

/** Links a page's text lists at most: enough to see where it leads; the JSON has every one (up to MAX_LINKS). */
export const MAX_RENDERED_LINKS = 25;
/** And at most this many characters of them, so that long URLs do not crowd out the page's own text. */
const MAX_LINKS_CHARS = 4000;
const LINK_TEXT_CHARS = 80;
/** A longer URL is not shown: cut, it would be a link to nowhere. */
const LINK_URL_CHARS = 300;

/**
 * A page's links as a model reads them, "- text: url", after its text: a client that hands the model only the text
 * (not structuredContent) would otherwise never see where the page leads. Links without text, repeated URLs and
 * overlong URLs are left out; how many the JSON holds beyond those shown is said. Empty when the page has none.
 */
export function renderLinks(links: readonly ExtractedLink[]): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (const link of links) {
    if (lines.length >= MAX_RENDERED_LINKS) break;
    const text = link.text.replace(/\s+/g, ' ').trim();
    if (text === '' || link.url.length > LINK_URL_CHARS || seen.has(link.url)) continue;
    // A link with no text of its own is given its URL as text by the extractor: said once.
    const line = text === link.url ? `- ${link.url}` : `- ${boundedText(text, LINK_TEXT_CHARS)}: ${link.url}`;
    if (chars + line.length + 1 > MAX_LINKS_CHARS) break;
    seen.add(link.url);
    lines.push(line);
    chars += line.length + 1;
  }
  if (lines.length === 0) return links.length === 0 ? '' : `\n\nLinks: ${links.length} in the JSON's links, none shown here.`;
  const heading = lines.length === links.length ? 'Links' : `Links (${lines.length} shown of the ${links.length} in the JSON's links)`;
  return `\n\n${heading}:\n${lines.join('\n')}`;
}
