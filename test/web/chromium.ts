import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's chromium package (apt-get install chromium); no browser is downloaded. CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run here. Under CI (CI=true) a missing Chromium is a failure, raised by
 * launchChromium(); elsewhere the tests are skipped with the reason printed.
 */
export function browserTestsRun(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') return true;
  console.warn(`skipping the browser tests: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH); under CI=true they fail instead`);
  return false;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile and nothing that phones home; `javaScriptEnabled: false` is a browser with scripts off. */
export async function launchChromium({ javaScriptEnabled = true }: { javaScriptEnabled?: boolean } = {}): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: CI must install it (.ci/run: apt-get install chromium)`);
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'fedsearch-chromium-'));
  // Playwright takes the profile folder as an argument of its own rather than --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1100, height: 900 },
    javaScriptEnabled,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * One Chromium for every describe block of a test file, launched before the file's first hook and closed after its
 * last: a launch and close cost one to three seconds, paid once per block when each launched its own. The blocks share
 * its profile (a context of their own, from a browser launched without one, made every page about half a second
 * slower to load, more than the launches saved); each test opens a page of its own, and each block starts a service of
 * its own, on a port of its own: another origin, so nothing its pages keep in storage or the HTTP cache reaches another
 * block's (the service sets no cookie, the one thing a port does not separate). A block's close() closes the pages it
 * left open, their connections with them, before it stops its service. Call it at a file's top level.
 */
export function chromiumForThisFile(): () => Promise<LaunchedBrowser> {
  let launched: LaunchedBrowser | undefined;
  beforeAll(async () => {
    if (browserTestsRun()) launched = await launchChromium();
  });
  afterAll(async () => {
    await launched?.close();
  });
  return async () => {
    if (launched === undefined) throw new Error('no Chromium launched: chromiumForThisFile() belongs at the top level of a test file');
    const { context } = launched;
    const before = new Set(context.pages());
    return { context, close: async () => void (await Promise.all(context.pages().filter((page) => !before.has(page)).map((page) => page.close()))) };
  };
}
