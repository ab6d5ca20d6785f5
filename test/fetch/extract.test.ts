import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { extractDocument, pageText } from '../../src/fetch/extract.js';
import { safeFetch } from '../../src/fetch/safe-fetch.js';
import { LoopbackSite } from './loopback-site.js';
import { minimalPdf } from './minimal-pdf.js';

const paragraph =
  'The analytical engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. ' +
  'Its operations are general, and the same machinery serves any sequence of steps a person can describe. ';

const articlePage = `<!doctype html>
<html lang="en">
<head>
  <title>Notes on the Engine | Example Journal</title>
  <meta name="author" content="Ada Lovelace">
  <meta property="article:published_time" content="2024-03-05T10:00:00Z">
  <script>window.tracking = true;</script>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About</a> <a href="/subscribe">Subscribe</a></nav>
  <article>
    <h1>Notes on the Engine</h1>
    <p>${paragraph}See <a href="/notes/g">note G</a> for the Bernoulli numbers.</p>
    <h2>Operations</h2>
    <p>${paragraph}${paragraph}</p>
    <ul><li>Variable cards</li><li>Operation cards</li></ul>
    <p>${paragraph}Compare <a href="https://example.org/babbage">Babbage's own account</a>.</p>
    <pre><code>result = bernoulli(8)</code></pre>
  </article>
  <footer><a href="/privacy">Privacy</a></footer>
</body>
</html>`;

const site = new LoopbackSite();

beforeAll(async () => {
  await site.start();
  site
    .serve('/article', 'text/html; charset=utf-8', articlePage)
    .serve('/readme.txt', 'text/plain; charset=utf-8', 'Plain text\nkept as it is.\n')
    .serve('/data.json', 'application/json', '{"name":"fedsearch","tags":["search","mcp"]}')
    .serve(
      '/paper.pdf',
      'application/pdf',
      minimalPdf({ lines: ['Attention Is Not All You Need', 'Abstract: a short study.'], title: 'A Test Paper', author: 'Grace Hopper', created: "D:20230102030405Z" }),
    );
});

afterAll(async () => {
  await site.stop();
});

const allowed = { allowPrivate: true };

describe('fetch and extract from a loopback server', () => {
  it('turns an HTML article into Markdown with title, byline, date and absolute links', async () => {
    const document = await extractDocument(await safeFetch(`${site.origin}/article`, allowed));
    expect(document.title).toMatch(/Notes on the Engine/);
    expect(document.byline).toBe('Ada Lovelace');
    expect(document.published_at).toBe('2024-03-05T10:00:00.000Z');
    expect(document.content_type).toBe('text/html');
    expect(document.markdown).toContain('## Operations');
    expect(document.markdown).toMatch(/^-\s+Variable cards$/m);
    expect(document.markdown).toContain('```\nresult = bernoulli(8)\n```');
    expect(document.markdown).toContain(`[note G](${site.origin}/notes/g)`);
    expect(document.markdown).not.toContain('tracking');
    expect(document.markdown).not.toContain('Subscribe');
    expect(document.links).toEqual([
      { text: 'note G', url: `${site.origin}/notes/g` },
      { text: "Babbage's own account", url: 'https://example.org/babbage' },
    ]);
  });

  it('keeps plain text as it is', async () => {
    const document = await extractDocument(await safeFetch(`${site.origin}/readme.txt`, allowed));
    expect(document).toEqual({ title: 'readme.txt', markdown: 'Plain text\nkept as it is.\n', links: [], content_type: 'text/plain' });
  });

  it('pretty-prints JSON in a json code block', async () => {
    const document = await extractDocument(await safeFetch(`${site.origin}/data.json`, allowed));
    expect(document.markdown).toBe('```json\n{\n  "name": "fedsearch",\n  "tags": [\n    "search",\n    "mcp"\n  ]\n}\n```');
    expect(document.content_type).toBe('application/json');
  });

  it('reads the text and metadata of a PDF', async () => {
    const document = await extractDocument(await safeFetch(`${site.origin}/paper.pdf`, allowed));
    expect(document.title).toBe('A Test Paper');
    expect(document.byline).toBe('Grace Hopper');
    expect(document.published_at).toBe('2023-01-02T03:04:05.000Z');
    expect(document.markdown).toBe('Attention Is Not All You Need\nAbstract: a short study.');
    expect(document.content_type).toBe('application/pdf');
  });
});

describe('extractDocument', () => {
  const input = (body: string | Buffer, contentType: string, kind: 'html' | 'text' | 'json' | 'xml' | 'pdf', charset?: string) => ({
    finalUrl: 'https://example.com/docs/page',
    contentType,
    charset,
    kind,
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  });

  it('resolves links against <base href> and falls back to the <title> of a page with little text', async () => {
    const html = '<html><head><title>Tiny</title><base href="https://cdn.example.net/root/"></head><body><p>Short. <a href="child">Child</a></p></body></html>';
    const document = await extractDocument(input(html, 'text/html', 'html'));
    expect(document.title).toBe('Tiny');
    expect(document.links).toEqual([{ text: 'Child', url: 'https://cdn.example.net/root/child' }]);
    expect(document.markdown).toContain('[Child](https://cdn.example.net/root/child)');
  });

  it('decodes the declared charset, or the one a <meta> tag names', async () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>', 'latin1');
    const fromMeta = await extractDocument(input(latin1, 'text/html', 'html'));
    expect(fromMeta.title).toBe('Café');
    expect(fromMeta.markdown).toContain('Crème brûlée');
    const declared = await extractDocument(input(Buffer.from('na\xefve', 'latin1'), 'text/plain', 'text', 'windows-1252'));
    expect(declared.markdown).toBe('naïve');
  });

  it('shows invalid JSON as written and fences XML with a longer fence when it holds backticks', async () => {
    expect((await extractDocument(input('{"broken": ', 'application/json', 'json'))).markdown).toBe('```json\n{"broken":\n```');
    const xml = await extractDocument(input('<a>```</a>', 'application/xml', 'xml'));
    expect(xml.markdown).toBe('````xml\n<a>```</a>\n````');
    expect(xml.title).toBe('page');
  });

  it('fences a document of hundreds of thousands of backtick runs (the longest run was spread into Math.max)', async () => {
    const body = `<a>${'` '.repeat(300_000)}\`\`\`\`</a>`;
    const xml = await extractDocument(input(body, 'application/xml', 'xml'));
    expect(xml.markdown.startsWith('`````xml\n<a>` ` ')).toBe(true);
    expect(xml.markdown.endsWith('````</a>\n`````')).toBe(true);
  });

  describe('a PDF that holds more than it weighs', () => {
    // Thirty lines of 60 characters on each page, one content stream shared by 400 pages: about 700 KB of text
    // from a file of about 60 KB.
    const line = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit sed.';
    const pdf = minimalPdf({ lines: Array.from({ length: 30 }, () => line), pages: 400 });
    const generous = { maxChars: 10_000_000, timeMs: 60_000 };

    it('is read to the end within the limits', async () => {
      const document = await extractDocument(input(pdf, 'application/pdf', 'pdf'), generous);
      expect(document.markdown.split('Lorem ipsum').length - 1).toBe(400 * 30);
      expect(document.markdown.length).toBeGreaterThan(10 * pdf.length);
      expect(document.markdown).not.toContain('Reading stopped');
    });

    it('is cut at maxChars, saying where reading stopped', async () => {
      const document = await extractDocument(input(pdf, 'application/pdf', 'pdf'), { ...generous, maxChars: 20_000 });
      const [text, note] = document.markdown.split('\n\n[Reading stopped ');
      expect(text!.length).toBe(20_000);
      expect(note).toMatch(/^at 20000 characters \(FETCH_MAX_BYTES\), at page \d+ of 400; the rest of the PDF was not read\.\]$/);
      // Not every page was read to find that out.
      expect(Number(/at page (\d+) of/.exec(note!)![1])).toBeLessThan(20);
      // Cut by its size, as it would be however long it was given: no caller is told more time would read more.
      expect(document.outOfTime).toBeUndefined();
    });

    it('stops after timeMs, having read the first page', async () => {
      const document = await extractDocument(input(pdf, 'application/pdf', 'pdf'), { ...generous, timeMs: 0 });
      expect(document.markdown).toMatch(/\n\n\[Reading stopped after 0 ms \(FETCH_TIMEOUT_MS\), at page 1 of 400; the rest of the PDF was not read\.\]$/);
      expect(document.markdown).toContain(line);
      // Cut by its time: a read cache keeps it only for callers that wait no longer (fetch/read-cache.ts).
      expect(document.outOfTime).toBe(true);
    });

    it('stops when its caller goes away, rejecting with the caller\'s reason', async () => {
      const gone = new AbortController();
      const reason = new Error('the client went away');
      gone.abort(reason);
      await expect(extractDocument(input(pdf, 'application/pdf', 'pdf'), { ...generous, signal: gone.signal })).rejects.toBe(reason);
    });
  });

  it('fails with a clear message on a body that is not a PDF', async () => {
    const error = await extractDocument(input('%PDF-1.4 truncated', 'application/pdf', 'pdf')).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(FedsearchError);
    expect((error as FedsearchError).code).toBe('FETCH_FAILED');
    expect((error as FedsearchError).message).toMatch(/^the PDF could not be read: /);
  });
});

describe('pageText', () => {
  const text = 'abcdefghij';

  it('pages through a text with next_offset until it is null', () => {
    expect(pageText(text, 0, 4)).toEqual({ text: 'abcd', offset: 0, next_offset: 4, total_chars: 10 });
    expect(pageText(text, 4, 4)).toEqual({ text: 'efgh', offset: 4, next_offset: 8, total_chars: 10 });
    expect(pageText(text, 8, 4)).toEqual({ text: 'ij', offset: 8, next_offset: null, total_chars: 10 });
    expect(pageText(text, 0, 100)).toEqual({ text, offset: 0, next_offset: null, total_chars: 10 });
  });

  it('returns an empty last page past the end', () => {
    expect(pageText(text, 50, 4)).toEqual({ text: '', offset: 10, next_offset: null, total_chars: 10 });
  });

  it('never splits a surrogate pair, so pages rejoin to the original', () => {
    const emoji = 'ab😀cd';
    const first = pageText(emoji, 0, 3);
    expect(first).toEqual({ text: 'ab', offset: 0, next_offset: 2, total_chars: 6 });
    const second = pageText(emoji, first.next_offset ?? 0, 3);
    expect(second.text).toBe('😀c');
    expect(first.text + second.text + pageText(emoji, second.next_offset ?? 0, 3).text).toBe(emoji);
  });

  it('rejects a negative offset or a max_chars below 1 as an invalid query', () => {
    expect(() => pageText(text, -1, 4)).toThrow(/offset: -1 is not allowed; allowed: a whole number ≥ 0/);
    expect(() => pageText(text, 0, 0)).toThrow(/max_chars: 0 is not allowed; allowed: a whole number ≥ 1/);
  });
});
