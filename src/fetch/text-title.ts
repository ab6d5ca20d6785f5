import { markdownText } from '../providers/markdown-text.js';

/** `# Title`, `## Title ##`: an ATX heading, up to three spaces in, its closing hashes not part of it. */
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
/** The `===` or `---` line under a setext heading. */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

/**
 * The heading a Markdown or plain-text document opens with, its inline syntax taken out, or undefined when it opens
 * with anything else: a README's first line names it better than "README.md". Only a document that says it is
 * Markdown (its type, or a .md name) is read so; a .txt file only for an underlined (setext) heading, since its
 * `# …` first line is a comment more often than a heading (robots.txt, requirements.txt), as in other text.
 */
export function leadingHeading(text: string, contentType: string, url: string): string | undefined {
  const reading = headingsRead(contentType, url);
  if (reading === undefined) return undefined;
  // The first few lines are all that is looked at: a heading is the document's first non-blank line.
  const lines = text.replace(/^\uFEFF/, '').slice(0, 4096).split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0) return undefined;
  const line = lines[first]!;
  const atx = reading === 'markdown' ? ATX_HEADING.exec(line) : null;
  if (atx) return markdownText(atx[1]) || undefined;
  // Four spaces in is code, not a heading's text.
  const next = lines[first + 1];
  if (next !== undefined && SETEXT_UNDERLINE.test(next) && !/^ {4}|^\t/.test(line)) return markdownText(line) || undefined;
  return undefined;
}

/** Which headings a document's first line may be: every Markdown heading, only an underlined one in a .txt, or none. */
function headingsRead(contentType: string, url: string): 'markdown' | 'underlined' | undefined {
  if (contentType === 'text/markdown') return 'markdown';
  if (contentType !== 'text/plain') return undefined;
  const path = new URL(url).pathname;
  if (/\.(?:md|markdown)$/i.test(path)) return 'markdown';
  return /\.txt$/i.test(path) ? 'underlined' : undefined;
}
