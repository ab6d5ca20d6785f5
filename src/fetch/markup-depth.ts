/**
 * How deep linkedom's parser (htmlparser2, in HTML mode) will nest a page, worked out from its text without building
 * anything, so that a page built to be deep is read as plain text instead: the parser's time grows with the square
 * of its depth (it keeps its open elements in an array it shifts and unshifts), and a 640 KB page of `<div></i>`
 * took it 4 s. The count follows the parser's own rules, which decide the depth it reaches: an end tag closes only
 * an element that is open (a stray `</i>` closes nothing), `/>` closes only in SVG or MathML, and an opening tag
 * closes only what htmlparser2's table says it does (`<li>` an open `<li>`, a block an open `<p>`). Counting by
 * looser rules, the page above read as shallow. It may count deeper than the parser goes (a tag written inside an
 * attribute's value, a comment or a title), never shallower.
 */

/** htmlparser2's `openImpliesClose`: opening the key closes the open elements on top of its stack that are in its set. */
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name): [string, ReadonlySet<string>] => [name, P]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name): [string, ReadonlySet<string>] => [name, FORM]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ...'address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre section table ul'
    .split(' ')
    .map((name): [string, ReadonlySet<string>] => [name, P]),
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
]);

/** htmlparser2's void elements: never open. */
const VOID_ELEMENTS = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(' '),
);
/** Where `/>` closes (a foreign context), and the elements inside them where it no longer does. */
const FOREIGN_ELEMENTS = new Set(['math', 'svg']);
const HTML_INTEGRATION_ELEMENTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** A page's elements as the parser keeps them open: a stack, with how many of each name it holds. */
class OpenElements {
  private readonly stack: string[] = [];
  private readonly counts = new Map<string, number>();
  /** The parser's foreign-context stack: whether `/>` closes where the innermost context opened. */
  private readonly foreign: boolean[] = [false];
  deepest = 0;

  open(name: string, selfClosing: boolean): void {
    const implied = OPEN_IMPLIES_CLOSE.get(name);
    if (implied) while (this.stack.length > 0 && implied.has(this.stack[this.stack.length - 1]!)) this.pop();
    if (VOID_ELEMENTS.has(name)) return;
    this.stack.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    if (this.stack.length > this.deepest) this.deepest = this.stack.length;
    if (FOREIGN_ELEMENTS.has(name)) this.foreign.push(true);
    else if (HTML_INTEGRATION_ELEMENTS.has(name)) this.foreign.push(false);
    // As the parser does it: the context the element itself may have opened decides, and stays open.
    if (selfClosing && this.foreign[this.foreign.length - 1] === true) this.pop();
  }

  close(name: string): void {
    if (FOREIGN_ELEMENTS.has(name) || HTML_INTEGRATION_ELEMENTS.has(name)) this.foreign.pop();
    if (VOID_ELEMENTS.has(name) || !this.counts.get(name)) return;
    // Open: it and every element opened inside it close. (A `</p>` with none open opens and closes one: no depth.)
    while (this.pop() !== name);
  }

  private pop(): string | undefined {
    const name = this.stack.pop();
    if (name !== undefined) this.counts.set(name, this.counts.get(name)! - 1);
    return name;
  }
}

/**
 * The deepest nesting the parser reaches on `html`, in one pass over its text. `skipRawText(html, at)` gives where the
 * raw text of a `<script>` or `<style>` opened at `at` ends (its tags are not markup), or undefined.
 */
export function markupDepth(html: string, skipRawText: (html: string, at: number) => number | undefined): number {
  const elements = new OpenElements();
  // The next '>' at or after a tag's name, found again only once passed: one pass however many '<' lack one.
  let nextClose = -1;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    const closing = html.charCodeAt(at + 1) === 0x2f;
    const start = closing ? at + 2 : at + 1;
    // The parser opens a tag only at a letter: `< b`, `<1` and `</ x` are text (or a comment) to it.
    if (!isAsciiLetter(html.charCodeAt(start))) continue;
    let end = start + 1;
    while (end < html.length && !endsTagName(html.charCodeAt(end))) end += 1;
    const name = html.slice(start, end).toLowerCase();
    if (closing) {
      elements.close(name);
      continue;
    }
    // A script's or style's text is not markup, however many tags its strings hold.
    if (name === 'script' || name === 'style') {
      at = skipRawText(html, at) ?? at;
      continue;
    }
    if (nextClose < end) {
      const found = html.indexOf('>', end);
      nextClose = found < 0 ? Number.POSITIVE_INFINITY : found;
    }
    elements.open(name, nextClose !== Number.POSITIVE_INFINITY && html.charCodeAt(nextClose - 1) === 0x2f);
  }
  return elements.deepest;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Where the parser ends a tag's name: white space, `/` or `>`. */
function endsTagName(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x2f || code === 0x3e;
}
