import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { tableRows } from '../support/markdown-table.js';
import { startService, type RunningService } from '../support/service.js';
import { fetchedPage } from './fetched-page.js';

const paragraph =
  'Widget reads its settings once, when it starts, from the file named by WIDGET_CONFIG or from its defaults. ' +
  'Every setting can also be given on the command line, where it wins over the file and the defaults alike. ';

/** A Sphinx documentation page: Pygments writes code as <pre> of spans with no <code>, and a table of options. */
const sphinxPage = `<!doctype html><html lang="en"><head><title>Configuration — Widget 2.1 documentation</title></head><body>
<nav class="sidebar"><ul><li><a href="index.html">Intro</a></li><li><a href="config.html">Config</a></li></ul></nav>
<div role="main" class="document"><section id="configuration"><h1>Configuration</h1>
<p>${paragraph}</p>
<div class="highlight-python notranslate"><div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">widget</span>
<span class="n">widget</span><span class="o">.</span><span class="n">configure</span><span class="p">(</span><span class="n">debug</span><span class="o">=</span><span class="kc">True</span><span class="p">)</span>
</pre></div></div>
<p>${paragraph}</p>
<table class="docutils"><thead><tr><th>Option</th><th>Default</th><th>Meaning</th></tr></thead>
<tbody><tr><td><code>debug</code></td><td>False</td><td>Log every call</td></tr><tr><td><code>timeout</code></td><td>30</td><td>Seconds to wait | or 0 for ever</td></tr></tbody></table>
<p>${paragraph}</p></section></div><footer>© Copyright 2024.</footer></body></html>`;

/** A GitHub README as github.com renders it: a shell snippet as a bare <pre>, a JavaScript one as <pre><code>. */
const readmePage = `<!DOCTYPE html><html lang="en"><head><title>GitHub - acme/widget: A tiny widget library</title></head><body>
<header><a href="/login">Sign in</a></header><div class="repository-content"><article class="markdown-body entry-content" itemprop="text">
<h1>widget</h1><p>${paragraph}</p>
<div class="highlight highlight-source-shell notranslate"><pre>npm install --save widget_core</pre></div>
<div class="snippet-clipboard-content notranslate"><pre><code>const widget = require('widget');
widget.run();</code></pre></div><p>${paragraph}</p></article></div></body></html>`;

/** Text of an older site in windows-1252: curly quotes, a dash and the euro sign are bytes 0x80–0x9F. */
function windows1252Page(head: string): Buffer {
  const html = `<html><head>${head}<title>Prices \x93held\x94 \x96 for now</title></head><body><article><h1>Prices held</h1>
<p>The \x93standard\x94 plan stays at 20\x80 a month \x96 for now. ${paragraph}${paragraph}</p></article></body></html>`;
  return Buffer.from(html, 'latin1');
}

interface Page {
  title?: string;
  total_chars: number;
  next_offset: number | null;
  markdown?: string;
  text: string;
}

describe('fetch_url keeps code as code, tables as tables and text in its charset', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    site
      .serve('/docs/config.html', 'text/html; charset=utf-8', sphinxPage)
      .serve('/acme/widget', 'text/html; charset=utf-8', readmePage)
      .serve('/prices-header', 'text/html; charset=windows-1252', windows1252Page(''))
      .serve('/prices-meta', 'text/html', windows1252Page('<meta charset="iso-8859-1">'))
      .serve('/deep.json', 'application/json', `${'['.repeat(3000)}1${']'.repeat(3000)}`)
      .serve('/api.json', 'application/json', JSON.stringify({ items: [{ id: 1, tags: ['a', 'b'] }], next: null }));
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  const fetchPage = (path: string): Promise<Page> => fetchedPage<Page>(service, `${site.origin}${path}`);

  it('fences code a highlighter wrote as <pre> without <code>, as written, not escaped as Markdown', async () => {
    const docs = await fetchPage('/docs/config.html');
    expect(docs.text).toContain('```\nimport widget\nwidget.configure(debug=True)\n```');
    const readme = await fetchPage('/acme/widget');
    expect(readme.text).toContain('```\nnpm install --save widget_core\n```');
    expect(readme.text).toContain("```\nconst widget = require('widget');\nwidget.run();\n```");
  });

  it('writes a table as a Markdown table, each value under its column', async () => {
    const docs = await fetchPage('/docs/config.html');
    expect(tableRows(docs.text, '| Option | Default | Meaning |')[0]).toEqual(['`debug`', 'False', 'Log every call']);
    // A pipe in a cell is escaped, so the row keeps its three columns.
    expect(docs.text).toContain('\n| `timeout` | 30 | Seconds to wait \\| or 0 for ever |\n');
  });

  it('reads windows-1252 (or iso-8859-1, as the web reads it) declared in the header or a <meta> tag', async () => {
    for (const path of ['/prices-header', '/prices-meta']) {
      const page = await fetchPage(path);
      expect({ path, title: page.title }).toEqual({ path, title: 'Prices “held” – for now' });
      expect(page.text).toContain('The “standard” plan stays at 20€ a month – for now.');
    }
  });

  it('indents JSON for reading, but shows JSON as written when indenting would multiply its length', async () => {
    const api = await fetchPage('/api.json');
    expect(api.text).toContain('{\n  "items": [\n    {\n      "id": 1,');
    // 6 KB nested 3,000 deep: indented, it was 18 million characters of mostly spaces, kept whole for paging.
    const deep = await fetchPage('/deep.json');
    expect(deep.total_chars).toBeLessThan(6_100);
    expect(deep.text).toContain(`${'['.repeat(3000)}1${']'.repeat(3000)}`);
  });
});
