/** The few DOM members read and changed here; the project compiles without the DOM library. */
export interface TreeNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<TreeNode>;
  append(...nodes: TreeNode[]): void;
  remove(): void;
}

export interface TreeDocument {
  documentElement: TreeNode | null;
  childNodes: ArrayLike<TreeNode>;
  createElement(name: string): TreeNode;
  append(...nodes: TreeNode[]): void;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_TYPE_NODE = 10;

/** What HTML's parser keeps in <head> until the first element of any other kind opens the body. */
const HEAD_ELEMENTS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

/** Elements whose own tags add nothing once the tree is rebuilt: what they hold is placed as the page's own. */
const STRUCTURE_ELEMENTS = new Set(['html', 'head', 'body']);

/**
 * `document` as a browser would have built it: one <html> holding a <head> and then a <body>. HTML lets a page leave
 * out its <html>, <head> and <body> tags (`<!doctype html><meta charset=utf-8><title>…</title><p>…`), and a browser
 * adds them; linkedom does not, and takes the first element it meets for the whole document: the title was not
 * found and the body was empty, so such a page read as no text at all, and a page of bare text (no element)
 * broke the reading with a TypeError. A page that has them, as most do, is left as it is.
 */
export function withHeadAndBody(document: TreeDocument): void {
  if (hasHeadAndBody(document)) return;
  const head = document.createElement('head');
  const body = document.createElement('body');
  let inBody = false;
  // Walked in document order with a stack of its own, not by recursion: linkedom nests each <html>, <head> or
  // <body> in the one before, and a page of 16,000 `<body/>` (112 KB, not deep as extract-html's markupDepth
  // counts, since it takes `/>` for closed) overflowed the call stack, a 500 instead of the page's text.
  const pending = Array.from(document.childNodes).filter((node) => node.nodeType !== DOCUMENT_TYPE_NODE).reverse();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const name = node.nodeType === ELEMENT_NODE ? node.localName : undefined;
    if (name !== undefined && STRUCTURE_ELEMENTS.has(name)) {
      if (name === 'body') inBody = true;
      // Its children next, first child on top: what they hold is placed before the element's next sibling.
      const children = node.childNodes;
      for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
      continue;
    }
    if (node.nodeType === TEXT_NODE) {
      // White space before the body is the markup's layout; any other text opens the body, as in a browser.
      if (!inBody && isBlank(node)) continue;
      inBody = true;
    } else if (name !== undefined && !HEAD_ELEMENTS.has(name)) inBody = true;
    // A comment stays where it is met.
    (inBody ? body : head).append(node);
  }
  // What is left at the top are the emptied <html>, <head> and <body> elements, and blank text.
  for (const node of Array.from(document.childNodes)) {
    if (node.nodeType !== DOCUMENT_TYPE_NODE) node.remove();
  }
  const root = document.createElement('html');
  root.append(head, body);
  document.append(root);
}

/** Whether the page's tree already is one <html> holding at most a <head> and then a <body>, and nothing else. */
function hasHeadAndBody(document: TreeDocument): boolean {
  const root = document.documentElement;
  if (root?.localName !== 'html') return false;
  if (Array.from(document.childNodes).some((node) => node !== root && holdsContent(node))) return false;
  const children = Array.from(root.childNodes).filter(holdsContent);
  const names = children.map((node) => (node.nodeType === ELEMENT_NODE ? node.localName : '#text')).join(' ');
  return names === 'head body' || names === 'head' || names === 'body' || names === '';
}

/** An element or text that is not white space: what a reader would miss if it were left out of <head> and <body>. */
function holdsContent(node: TreeNode): boolean {
  return node.nodeType === ELEMENT_NODE || (node.nodeType === TEXT_NODE && !isBlank(node));
}

function isBlank(node: TreeNode): boolean {
  return (node.textContent ?? '').trim() === '';
}
