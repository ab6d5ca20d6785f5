import { pageText, type TextPage } from '../fetch/extract.js';
import { MAX_RENDERED_CHARS } from './render.js';

/** Room kept for the line that says where the page stands (its numbers are not known before the text is cut). */
const PAGING_LINE_CHARS = 160;

/**
 * One page of a long text (a web page, a paper, a transcript) as a model reads it: the header, where the page stands
 * and which call goes on, the text, then the trailer (a page's links), all within MAX_RENDERED_CHARS. A page asked
 * for with a large max_chars is shown shorter here, and its continuation then starts where the shown text ends:
 * cut by the tool's bound instead, the end of the page went missing and "continue with offset N" skipped it.
 * The JSON keeps the page as asked for, with its own next_offset.
 */
export function renderTextPage(operation: string, header: string, page: TextPage, trailer = ''): string {
  const room = MAX_RENDERED_CHARS - header.length - trailer.length - PAGING_LINE_CHARS;
  const shown = pageText(page.text, 0, Math.max(1, room));
  const cut = shown.next_offset !== null;
  const end = page.offset + shown.text.length;
  const next = cut ? end : page.next_offset;
  const paging = `(characters ${page.offset}–${end} of ${page.total_chars}${next === null ? '' : `; continue: ${operation} with offset ${next}`})`;
  return `${header}\n${paging}\n\n${shown.text}${trailer}`;
}
