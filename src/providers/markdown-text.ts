import { PIECE_SEPARATOR, endsInCutLink, withoutCutLinks, withoutUnpairedMarkers } from './markdown-remnants.js';
import { text } from './parse-helpers.js';

/**
 * `![alt](address)`: an image says nothing in a line of text. The alt text holds no `[`, as a link's words hold none:
 * with `[^\]\n]`, every `![` of a line of them read on to the line's end (time by the square of its length).
 */
const IMAGE = /!\[[^[\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
/** `[words](address "title")`: the words stay, the address goes (the result's own URL is beside the snippet). */
const LINK = /\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
/** `## Heading` at the start of a line, or where an API has folded the lines into one (`… Insider. # Pydantic AI`). */
const HEADING = /(^|\s)#{1,6}(?=\s)/g;
/**
 * `**strong**`, only where no word touches the stars from outside: in `f(**kwargs): return 2**3` the stars are
 * Python's. Underscores are left alone: in technical text `__init__` and snake_case are names, not emphasis.
 */
const STRONG = /(?<![\w*])\*\*(?=\S)([^*]+?)(?<=\S)\*\*(?![\w*])/g;
/** `*emphasis*`, only where the stars hug words and no word touches them from outside (`2*3*4` stays). */
const EMPHASIS = /(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])/g;
/** `` `code` ``: the code stays, its ticks go. */
const CODE = /`([^`\n]+)`/g;

/**
 * A snippet from text that arrives as Markdown (Tavily's `content`, Exa's highlights, Firecrawl's page markdown):
 * the words a reader sees, without the syntax around them. `text()` alone leaves `## Intro`, `**bold**` and
 * `[words](https://…)` in the snippet as they were written.
 */
export function markdownText(value: unknown): string | undefined {
  if (typeof value !== 'string') return text(value);
  // Most snippets hold none of the characters Markdown marks up with, or leaves behind when cut: nothing to strip.
  if (!/[[\]#*_`]/.test(value)) return text(value);
  // Each of Exa's pieces is cut on its own, so each is cleaned on its own; they are joined as Exa joined them.
  const pieces = value.split(PIECE_SEPARATOR);
  const cleaned = pieces.map((piece, index) => {
    const continuesCutLink = index > 0 && endsInCutLink(pieces[index - 1]!);
    return withoutUnpairedMarkers(withoutCutLinks(withoutInlineSyntax(piece), continuesCutLink));
  });
  // A piece that was only a link's address (`](https://ai`) leaves nothing to join.
  return text(cleaned.filter((piece) => /\S/.test(piece)).join('\n...\n'));
}

/** Images, links, headings, emphasis and code ticks gone; the words they held stay. */
function withoutInlineSyntax(value: string): string {
  return value
    .replace(IMAGE, ' ')
    .replace(LINK, '$1')
    .replace(HEADING, '$1')
    .replace(STRONG, '$1')
    .replace(EMPHASIS, '$1')
    .replace(CODE, '$1');
}

/** A fence opening or closing a code block: the fence goes, the code inside stays searchable text. */
const FENCE_LINE = /^[ \t]*(?:`{3,}|~{3,}).*$/gm;
/** A line of rule characters only: a thematic break, a heading's `===` underline, a table's alignment row. */
const RULE_LINE = /^[ \t]*[-*_=|:][-*_=|: \t]{2,}$/gm;
/** What opens a line of block syntax: quote marks, then a list's bullet or number. */
const LINE_MARKERS = /^[ \t]*(?:>[ \t]?)*(?:[-*+][ \t]+|\d{1,9}[.)][ \t]+)?/gm;
/** A table row: its cell borders are not words. */
const TABLE_ROW = /^[ \t]*\|.*$/gm;

/**
 * A whole Markdown document (the embedded index's files) as the text a reader sees, on one line. Only syntax
 * goes: hyphens, underscores and stars inside words (`per-provider`, `snake_case`, `2026-11-26`) stay, and so
 * does code, which people search documentation for. HTML written in the Markdown is left as written.
 */
export function markdownDocumentText(markdown: string): string {
  const blocks = markdown
    .replace(FENCE_LINE, ' ')
    .replace(RULE_LINE, ' ')
    .replace(TABLE_ROW, (row) => row.replaceAll('|', ' '))
    .replace(LINE_MARKERS, '');
  return withoutInlineSyntax(blocks).replace(/\s+/g, ' ').trim();
}
