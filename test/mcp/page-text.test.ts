import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RENDERED_CHARS } from '../../src/operations/render.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, callTool, connect, textOf, type Connected } from './mcp-client.js';

const VIDEO = 'abcDEF12345';
const TIMEDTEXT = '/yt/api/timedtext';

/** 40 links, the first with no text of its own (an image), one repeated, in 30 paragraphs of 1,000 characters. */
function longArticle(): string {
  const paragraphs = Array.from({ length: 30 }, (_, index) => {
    const link = index === 0 ? '<a href="/site/logo.html"><img src="/logo.png"></a>' : `<a href="/site/p${index}.html">Topic ${index}</a>`;
    const more = index < 10 ? ` and <a href="/site/q${index}.html">Aside ${index}</a>` : '';
    return `<p>Paragraph ${index} ${link}${more} ${'fusion '.repeat(140)}</p>`;
  });
  const repeated = '<p>Again <a href="/site/p1.html">Topic 1 once more</a>.</p>';
  return `<!doctype html><html><head><title>A long article</title></head><body><article><h1>A long article</h1>${paragraphs.join('')}${repeated}</article></body></html>`;
}

/** 2,000 caption lines two seconds apart: about 80,000 characters, a minute every 30 lines. */
const CAPTION_LINES = Array.from({ length: 2000 }, (_, index) => ({ start: index * 2, text: `line ${String(index).padStart(4, '0')} of a talk on rank fusion` }));
const TRANSCRIPT = CAPTION_LINES.map((line) => line.text).join(' ');

function captionsXml(): string {
  const texts = CAPTION_LINES.map((line) => `<text start="${line.start}" dur="2">${line.text}</text>`).join('');
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${texts}</transcript>`;
}

/** The offset a text page's paging line names for the next call, and where its shown text starts. */
function continuation(text: string, operation: string): { next: number; body: string } {
  const match = new RegExp(`\\(characters (\\d+)–(\\d+) of (\\d+); continue: ${operation} with offset (\\d+)\\)\\n\\n`).exec(text);
  expect(match, text.slice(0, 400)).not.toBeNull();
  expect(match![2]).toBe(match![4]);
  return { next: Number(match![4]), body: text.slice(match!.index + match![0].length) };
}

/** What a model reads of tools whose answers are pages of a long text, or sections of other answers. */
describe('the text of paged tools', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const origin = () => upstream.origin;
    upstream
      .on('/site/long.html', { kind: 'respond', headers: { 'content-type': 'text/html; charset=utf-8' }, body: longArticle() })
      .json('/brave/res/v1/web/search', JSON.parse(braveBody(...Array.from({ length: 9 }, (_, index) => `https://brave.example/text/${index + 1}`))))
      .on('/yt/watch', {
        kind: 'handler',
        handle: (_request, response) => {
          const track = { baseUrl: `${origin()}${TIMEDTEXT}?v=${VIDEO}&lang=en`, languageCode: 'en', name: { simpleText: 'English' } };
          const player = { playabilityStatus: { status: 'OK' }, captions: { playerCaptionsTracklistRenderer: { captionTracks: [track] } } };
          response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></html>`);
        },
      })
      .on(TIMEDTEXT, { kind: 'respond', headers: { 'content-type': 'text/xml' }, body: captionsXml() });
    service = await startService({
      ...providerEnv(upstream.origin),
      BRAVE_API_KEY: 'brave-test-key-1',
      YOUTUBE_WEB_BASE_URL: `${upstream.origin}/yt`,
      FETCH_ALLOW_PRIVATE: 'true',
      MCP_TOOLS: 'split',
      LOG_LEVEL: 'warn',
    });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await upstream.stop();
  });

  it("fetch_url's text lists the page's links, and its continuation starts where the text it shows ends", async () => {
    const url = `${upstream.origin}/site/long.html`;
    const result = await callTool(connected.client, 'fetch_url', { url, max_chars: 100_000 });
    const page = result.structuredContent as { text: string; next_offset: number | null; links: Array<{ text: string; url: string }> };
    expect(page.next_offset).toBeNull();
    expect(page.links).toHaveLength(40);
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    expect(text).not.toContain('cut to keep this answer short');

    const links = text.slice(text.indexOf('\n\nLinks'));
    const lines = links.split('\n').slice(3);
    expect(links).toMatch(/^\n\nLinks \(25 shown of the 40 in the JSON's links\):\n/);
    expect(lines[0]).toBe(`- ${upstream.origin}/site/logo.html`);
    expect(lines.slice(1, 4)).toEqual([
      `- Aside 0: ${upstream.origin}/site/q0.html`,
      `- Topic 1: ${upstream.origin}/site/p1.html`,
      `- Aside 1: ${upstream.origin}/site/q1.html`,
    ]);
    expect(lines).toHaveLength(25);
    expect(new Set(lines).size).toBe(25);

    // The page asked for does not fit beside its links: the text says so and goes on where it stopped.
    const { next, body } = continuation(text, 'fetch_url');
    expect(next).toBeGreaterThan(10_000);
    expect(body.slice(0, body.indexOf('\n\nLinks'))).toBe(page.text.slice(0, next));
    const rest = await callTool(connected.client, 'fetch_url', { url, offset: next, max_chars: 500 });
    expect((rest.structuredContent as { text: string }).text).toBe(page.text.slice(next, next + 500));
  });

  it("paper_read's text ends where its continuation starts, however much was asked for", async () => {
    const url = `${upstream.origin}/site/long.html`;
    const result = await callTool(connected.client, 'paper_read', { url, max_chars: 100_000 });
    const page = result.structuredContent as { text: string; next_offset: number | null };
    expect(page.next_offset).toBeNull();
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    const { next, body } = continuation(text, 'paper_read');
    expect(body).toBe(page.text.slice(0, next));
  });

  it('youtube_transcript is paged by offset and max_chars, its text and its JSON alike, the captions read once', async () => {
    const before = upstream.requestsTo(TIMEDTEXT).length;
    const first = await callTool(connected.client, 'youtube_transcript', { video: VIDEO });
    const firstPage = first.structuredContent as { text: string; offset: number; next_offset: number | null; total_chars: number; timestamps: Array<{ start: number; text: string }> };
    expect(firstPage).toMatchObject({ offset: 0, next_offset: 20_000, total_chars: TRANSCRIPT.length });
    expect(firstPage.text).toBe(TRANSCRIPT.slice(0, 20_000));
    // Only the minutes whose first line starts in this page (a minute every 30 lines of 35 characters with its space).
    const minutesInPage = CAPTION_LINES.filter((line, index) => index % 30 === 0 && index * 35 < 20_000).map((line) => line.start);
    expect(minutesInPage).toHaveLength(20);
    expect(firstPage.timestamps.map((mark) => mark.start)).toEqual(minutesInPage);

    const text = textOf(first);
    expect(text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    expect(text).toMatch(/^Transcript of abcDEF12345 \(en; available: en\)\n/);
    const { next, body } = continuation(text, 'youtube_transcript');
    expect(body).toBe(TRANSCRIPT.slice(0, next));

    const second = await callTool(connected.client, 'youtube_transcript', { video: VIDEO, offset: next, max_chars: 500 });
    expect(second.structuredContent).toMatchObject({ offset: next, next_offset: next + 500, text: TRANSCRIPT.slice(next, next + 500) });
    expect(textOf(second)).toContain(`(characters ${next}–${next + 500} of ${TRANSCRIPT.length}; continue: youtube_transcript with offset ${next + 500})`);
    const last = await callTool(connected.client, 'youtube_transcript', { video: VIDEO, offset: TRANSCRIPT.length - 100 });
    expect(last.structuredContent).toMatchObject({ next_offset: null, text: TRANSCRIPT.slice(-100), timestamps: [] });
    expect(textOf(last)).toContain(`(characters ${TRANSCRIPT.length - 100}–${TRANSCRIPT.length} of ${TRANSCRIPT.length})\n\n`);
    expect(upstream.requestsTo(TIMEDTEXT).length - before).toBe(1);
  });

  it("auto_research's sections name the operation that goes on, with the parameters to repeat", async () => {
    const result = await callTool(connected.client, 'auto_research', { query: 'rank fusion for metasearch', depth: 1 });
    const text = textOf(result);
    expect(text).not.toContain('ask again');
    expect(text).toContain('## web_search — general web search\nparameters: {"query":"rank fusion for metasearch","max_results":5}\n');
    expect(text).toMatch(/\n\nPage 1; more results: web_search with page: 2\.$/);
  });

  it("auto_research reads a page no longer than its section shows, so the section's continuation skips nothing", async () => {
    const url = `${upstream.origin}/site/long.html`;
    const result = await callTool(connected.client, 'auto_research', { query: `summarise ${url}`, depth: 3 });
    const answer = result.structuredContent as { sections: Array<{ operation: string; output: { text: string; next_offset: number } }> };
    const fetched = answer.sections.find((section) => section.operation === 'fetch_url')!;
    const section = textOf(result).split('\n\n## ').find((part) => part.startsWith('fetch_url'))!;
    const { next, body } = continuation(section, 'fetch_url');
    expect(next).toBe(fetched.output.next_offset);
    expect(body.startsWith(fetched.output.text)).toBe(true);
  });

  it("auto_research reads a video's captions no longer than their section shows, so its continuation skips nothing", async () => {
    const result = await callTool(connected.client, 'auto_research', { query: `summarise https://www.youtube.com/watch?v=${VIDEO}`, depth: 3 });
    const answer = result.structuredContent as { sections: Array<{ operation: string; output: { text: string; next_offset: number } }> };
    const transcript = answer.sections.find((section) => section.operation === 'youtube_transcript')!;
    const section = textOf(result).split('\n\n## ').find((part) => part.startsWith('youtube_transcript'))!;
    expect(section).not.toContain('cut to fit');
    const { next, body } = continuation(section, 'youtube_transcript');
    expect(next).toBe(transcript.output.next_offset);
    expect(body.startsWith(transcript.output.text)).toBe(true);
  });
});
