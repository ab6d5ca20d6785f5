import TurndownService from 'turndown';

/** The few DOM members the rules below read; the project compiles without the DOM library. */
interface RuleElement {
  nodeName: string;
  textContent: string | null;
  innerHTML: string;
  firstChild: RuleElement | null;
  firstElementChild: RuleElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): RuleElement | null;
  // Turndown parses with domino, whose NodeList is array-like but not iterable.
  querySelectorAll(selector: string): ArrayLike<RuleElement>;
}

/** Turndown's rules type their node as the DOM's HTMLElement, which this project does not compile with. */
function element(node: unknown): RuleElement {
  return node as RuleElement;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'select', 'template']);

/**
 * A <pre> holding its text directly, as highlighters write code (Sphinx and Pygments' `<div class="highlight"><pre>`
 * of spans, GitHub's `<pre>npm install …</pre>`): Turndown fences only `<pre><code>`, so such code came out as
 * paragraphs with its `=`, `*` and `_` escaped. It is fenced as code, its text as written.
 */
turndown.addRule('preformattedText', {
  filter: (node) => element(node).nodeName === 'PRE' && element(node).firstChild?.nodeName !== 'CODE',
  replacement: (_content, node) => `\n\n${fencedCode(element(node).textContent ?? '')}\n\n`,
});

function fencedCode(code: string): string {
  let longest = 2;
  for (const run of code.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/**
 * A table of rows and columns as a Markdown pipe table, its first row as the header: Turndown alone wrote each
 * cell as a paragraph of its own, one under another, and which value belonged to which column was lost. A table
 * of one row or one column, or one holding another table, is laid out rather than tabulated: its content as it is.
 */
turndown.addRule('dataTable', {
  filter: (node) => element(node).nodeName === 'TABLE' && tabulated(element(node)) !== undefined,
  replacement: (_content, node) => `\n\n${pipeTable(tabulated(element(node))!)}\n\n`,
});

/** Each table's rows, read once for the filter and kept for the replacement that follows it. */
const rowsOfTables = new WeakMap<RuleElement, string[][] | undefined>();

function tabulated(table: RuleElement): string[][] | undefined {
  if (!rowsOfTables.has(table)) rowsOfTables.set(table, tableRows(table));
  return rowsOfTables.get(table);
}

function tableRows(table: RuleElement): string[][] | undefined {
  if (table.querySelector('table')) return undefined;
  const rows: string[][] = [];
  for (const row of Array.from(table.querySelectorAll('tr'))) {
    const cells: string[] = [];
    for (const cell of Array.from(row.querySelectorAll('th, td'))) {
      const text = tableCell(cell);
      const span = Math.min(Number.parseInt(cell.getAttribute('colspan') ?? '1', 10) || 1, 50);
      cells.push(text, ...Array<string>(span - 1).fill(''));
    }
    if (cells.length > 0) rows.push(cells);
  }
  // A loop, not Math.max(...lengths): a table of a hundred thousand rows would overflow the call stack.
  let columns = 0;
  for (const cells of rows) columns = Math.max(columns, cells.length);
  return rows.length >= 2 && columns >= 2 ? rows.map((cells) => [...cells, ...Array<string>(columns - cells.length).fill('')]) : undefined;
}

/** A cell's content as inline Markdown: one line, its pipes escaped so they do not split the row. */
function tableCell(cell: RuleElement): string {
  // Most cells hold only text: escaped as Turndown escapes text, without parsing the cell's HTML once more.
  const markdown = cell.firstElementChild ? turndown.turndown(cell.innerHTML) : turndown.escape(cell.textContent ?? '');
  return markdown.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function pipeTable(rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const [header, ...body] = rows as [string[], ...string[][]];
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** HTML to Markdown: ATX headings, fenced code, `-` bullets, pipe tables. */
export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}
