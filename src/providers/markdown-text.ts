import { text } from './parse-helpers.js';

/** `![alt](address)`: an image says nothing in a line of text. */
const IMAGE = /!\[[^\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
/** `[words](address "title")`: the words stay, the address goes (the result's own URL is beside the snippet). */
const LINK = /\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
/** `## Heading` at the start of a line, or where an API has folded the lines into one (`… Insider. # Pydantic AI`). */
const HEADING = /(^|\s)#{1,6}(?=\s)/g;
/** `**strong**`. Underscores are left alone: in technical text `__init__` and snake_case are names, not emphasis. */
const STRONG = /\*\*(?=\S)([^*]+?)(?<=\S)\*\*/g;
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
  // Most snippets hold none of the characters Markdown marks up with: nothing to strip.
  if (!/[[#*`]/.test(value)) return text(value);
  const plain = value
    .replace(IMAGE, ' ')
    .replace(LINK, '$1')
    .replace(HEADING, '$1')
    .replace(STRONG, '$1')
    .replace(EMPHASIS, '$1')
    .replace(CODE, '$1');
  return text(plain);
}
