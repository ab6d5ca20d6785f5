import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/fetch/extract-html.js';
import { markupDepth } from '../../src/fetch/markup-depth.js';

/** No raw text to skip in these pages but where a test says so. */
const NO_RAW_TEXT = (): undefined => undefined;

interface Node {
  children?: ArrayLike<Node>;
}

/** The deepest element the parser built, counted as markupDepth counts: a top-level element is at depth 1. */
function parsedDepth(html: string): number {
  const { document } = parseHTML(html) as unknown as { document: Node };
  let deepest = 0;
  const pending: Array<[Node, number]> = [[document, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > deepest) deepest = depth;
    for (const child of Array.from(node.children ?? [])) pending.push([child, depth + 1]);
  }
  return deepest;
}

describe('markup depth, counted as the parser nests', () => {
  it.each([
    ['nested divs', '<div><div><div><p>x</p></div></div></div>'],
    ['a list that leaves its items open', `<ul>${'<li>item '.repeat(50)}</ul>`],
    ['paragraphs left open before blocks', `${'<p>text <div>block</div>'.repeat(50)}`],
    ['a table that leaves its cells and rows open', `<table>${'<tr><td>a<td>b'.repeat(50)}</table>`],
    ['capitals closing small letters', '<DIV><Span>x</span></div><div></DIV>'],
    ['self-closing in SVG', `<svg>${'<path/>'.repeat(50)}</svg><div>after</div>`],
  ])('is never shallower than the parser goes, and close to it: %s', (_name, html) => {
    const parsed = parsedDepth(html);
    expect(markupDepth(html, NO_RAW_TEXT)).toBeGreaterThanOrEqual(parsed);
    expect(markupDepth(html, NO_RAW_TEXT)).toBeLessThanOrEqual(parsed + 1);
  });

  // Each of these read as shallow to the looser count that came before, while the parser nested them thousands deep.
  it.each([
    ['end tags of nothing open', '<div></i>'],
    ['end tags of the body', '<body></i>'],
    ['`/>` outside SVG', '<div/>'],
    ['list items holding paragraphs', '<li><p>'],
    ['names the looser count cut short', '<x_1></x_2>'],
    ['`/>` inside SVG but in its foreignObject', '<svg><foreignObject><div/>'],
  ])('counts as deep as the parser goes: %s', (_name, unit) => {
    const html = unit.repeat(300);
    const parsed = parsedDepth(html);
    expect(parsed).toBeGreaterThan(250);
    expect(markupDepth(html, NO_RAW_TEXT)).toBeGreaterThanOrEqual(parsed);
  });

  it('skips what the given reader says is raw text', () => {
    const html = '<div><script>"<div><div><div>"</script></div>';
    expect(markupDepth(html, (text, at) => text.indexOf('</script>', at) + 8)).toBe(1);
  });
});

/** Far above what reading such a page as plain text takes, far below what parsing it took (seconds). */
const IN_PROPORTION_MS = 1000;

describe('a page built to be deep in ways a looser count missed', () => {
  it.each([
    ['<div></i>', '<div></i>'],
    ['<body></i>', '<body></i>'],
    ['<li><p>', '<li><p>'],
    ['<x_1></x_2>', '<x_1></x_2>'],
  ])('is read as plain text, in proportion: %s', (_name, unit) => {
    const html = `<title>Deep</title>${unit.repeat(64_000)}<p>the end</p>`;
    const started = performance.now();
    const read = extractHtml(html, 'https://deep.example/', 'text/html');
    expect(performance.now() - started).toBeLessThan(IN_PROPORTION_MS);
    expect(read.title).toBe('Deep');
    expect(read.markdown).toContain('the end');
  });
});
