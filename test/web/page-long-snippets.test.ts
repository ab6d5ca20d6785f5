import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { browserTestsRun, sharedChromium, type LaunchedBrowser } from './chromium.js';
import { watchForProblems } from './page-problems.js';

/** The most of a snippet the page shows before "…" (results.js): the snippets below are each about twice as long. */
const SHOWN = 400;

/** Chinese puts no space between words: this one's only space is its seventh character. */
const CHINESE = `2024年 ${'联邦搜索把多个搜索引擎的结果合并成一个列表。'.repeat(40)}`;
/** A CJK Extension B character is two UTF-16 units: after the "a", a cut at 400 units falls between the two. */
const TWO_UNIT = `a${'𠀀'.repeat(450)}`;

/** Half of a two-unit character, alone: what the browser draws as "�". */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe.skipIf(!browserTestsRun())('the search page shortens long snippets in any script', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let chromium: LaunchedBrowser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/searxng/search', {
      results: [
        { title: '联邦搜索', url: 'https://zh.example/', content: CHINESE },
        { title: 'Extension B', url: 'https://ext-b.example/', content: TWO_UNIT },
      ],
    });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'warn' });
    chromium = await sharedChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
    await upstream?.stop();
  });

  it('cuts near the limit at a word the browser finds, not back at the one space, nor inside a character', async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 320, height: 700 });
    const problems = await watchForProblems(page);
    await page.goto(`${service.origin}/?q=federated&providers=searxng`);
    await page.locator('#status[data-kind="done"]').waitFor();
    const snippetOf = async (url: string): Promise<string> => (await page.locator('#results .result', { has: page.locator(`a[href="${url}"]`) }).locator('.snippet').textContent())!;

    for (const [url, whole] of [['https://zh.example/', CHINESE], ['https://ext-b.example/', TWO_UNIT]] as const) {
      const shown = await snippetOf(url);
      expect(shown, url).toMatch(/ …$/);
      const kept = shown.slice(0, -' …'.length);
      // The start of the snippet as it was, most of the room used: "2024年 …" was all that was left of the Chinese one.
      expect(whole.startsWith(kept), url).toBe(true);
      expect(kept.length, url).toBeLessThanOrEqual(SHOWN);
      expect(kept.length, url).toBeGreaterThan(SHOWN - 30);
      expect(LONE_SURROGATE.test(shown), url).toBe(false);
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
    expect(problems).toEqual([]);
    await page.close();
  });
});
