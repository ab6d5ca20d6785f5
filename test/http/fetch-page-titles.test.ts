import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { callOperation, startService, type RunningService } from '../support/service.js';

const paragraph =
  'The committee held its rate for the third month running, citing wages that still rise faster than prices. ' +
  'Markets had expected as much, and the currency barely moved on the news in the hour after it was announced. ';

/** A news article with no og:title and no JSON-LD headline: its <title> is all that names it. */
function article(title: string, head: string): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head>
<body><article><p>${paragraph}${paragraph}</p><p>${paragraph}</p></article></body></html>`;
}

function jsonLd(value: object): string {
  return `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...value })}</script>`;
}

const SITE_NAME = '<meta property="og:site_name" content="Example News">';

/** Each page's <title> and head, and the title fetch_url answers for it. */
const HTML_PAGES: Array<[path: string, html: string, title: string]> = [
  ['/after-dash', article('Rates held again - Example News', SITE_NAME), 'Rates held again'],
  ['/after-bar', article('Rates held again | Example News', SITE_NAME), 'Rates held again'],
  ['/after-em-dash', article('Rates held again — Example News', SITE_NAME), 'Rates held again'],
  ['/after-dot', article('Rates held again · Example News', SITE_NAME), 'Rates held again'],
  ['/after-colons', article('Rates held again :: Example News', SITE_NAME), 'Rates held again'],
  ['/before', article('Example News | Rates held again', SITE_NAME), 'Rates held again'],
  ['/other-case', article('Rates held again - EXAMPLE NEWS', SITE_NAME), 'Rates held again'],
  ['/website', article('Rates held again - Example News', jsonLd({ '@type': 'WebSite', name: 'Example News' })), 'Rates held again'],
  [
    '/graph-website',
    article('Rates held again - Example News', jsonLd({ '@graph': [{ '@type': 'WebPage', name: 'x' }, { '@type': 'WebSite', name: 'Example News' }] })),
    'Rates held again',
  ],
  ['/publisher', article('Rates held again - Example News', jsonLd({ '@type': 'WebPage', publisher: { '@type': 'Organization', name: 'Example News' } })), 'Rates held again'],
  // The site not named, or named otherwise: the title is kept as written.
  ['/unnamed-site', article('Rates held again - Example News', ''), 'Rates held again - Example News'],
  ['/other-site', article('Rates held again - Example News', '<meta property="og:site_name" content="Other Paper">'), 'Rates held again - Example News'],
  ['/inside', article('Example News reports rates held', SITE_NAME), 'Example News reports rates held'],
  // Nothing left but the site's name: the title is not emptied.
  ['/only-site', article('Example News', SITE_NAME), 'Example News'],
  ['/site-twice', article('Example News - Example News', SITE_NAME), 'Example News'],
  // Too deep for Readability (extract-html.ts): the <title> read as it is loses its site's name too.
  [
    '/deep',
    `<!doctype html><html><head><title>Rates held again - Example News</title>${SITE_NAME}</head><body>${'<div>'.repeat(90)}<p>${paragraph}</p>${'</div>'.repeat(90)}</body></html>`,
    'Rates held again',
  ],
];

const README = '# Widget *2*\n\nWidget reads its settings once, when it starts.\n';

/** Each text document, its type and path, and the title fetch_url answers for it. */
const TEXT_PAGES: Array<[path: string, contentType: string | undefined, body: string, title: string]> = [
  ['/docs/README.md', 'text/markdown; charset=utf-8', README, 'Widget 2'],
  ['/docs/closed.md', 'text/markdown', '\n\n## Getting started ##\nText.\n', 'Getting started'],
  ['/docs/setext.md', 'text/markdown', 'Release notes\n=============\n\nVersion 2.\n', 'Release notes'],
  ['/docs/setext-two.md', 'text/markdown', 'Release notes\n---\n\nVersion 2.\n', 'Release notes'],
  ['/docs/notes.txt', 'text/plain', 'Meeting notes\n=============\nWe met.\n', 'Meeting notes'],
  ['/docs/plain-md.md', 'text/plain', '# Served as text\nBody.\n', 'Served as text'],
  ['/docs/untyped.md', undefined, '# Sniffed as text\nBody.\n', 'Sniffed as text'],
  // No heading first, or not Markdown: the file's name stays the title.
  ['/docs/later.md', 'text/markdown', 'Intro text.\n\n# A later heading\n', 'later.md'],
  ['/docs/indented.md', 'text/markdown', '    # code, not a heading\n', 'indented.md'],
  ['/docs/hash-only.md', 'text/markdown', '#\nBody.\n', 'hash-only.md'],
  ['/scripts/build.sh', 'text/plain', '# Builds the widget\nmake\n', 'build.sh'],
  // A .txt's `#` line is a comment (robots.txt, requirements.txt): only an underlined heading titles it.
  ['/robots.txt', 'text/plain', '# Crawlers welcome\nUser-agent: *\n', 'robots.txt'],
];

describe('fetch_url titles a page by its own title, not its site or file name', () => {
  const site = new LoopbackSite();
  let service: RunningService;

  beforeAll(async () => {
    await site.start();
    for (const [path, html] of HTML_PAGES) site.serve(path, 'text/html; charset=utf-8', html);
    for (const [path, contentType, body] of TEXT_PAGES) site.serve(path, contentType, body);
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await site.stop();
  });

  async function titleOf(path: string): Promise<string | undefined> {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}${path}` });
    expect(response.status).toBe(200);
    return ((await response.json()) as { title?: string }).title;
  }

  it("drops the site's name a <title> adds before or after a separator, when the page names its site", async () => {
    for (const [path, , title] of HTML_PAGES) expect({ path, title: await titleOf(path) }).toEqual({ path, title });
  });

  it('titles a Markdown or text document by the heading it opens with, else by its file name', async () => {
    for (const [path, , , title] of TEXT_PAGES) expect({ path, title: await titleOf(path) }).toEqual({ path, title });
  });

  it('keeps the text of a Markdown document as written', async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${site.origin}/docs/README.md` });
    expect(((await response.json()) as { text: string }).text).toBe(README);
  });
});
