import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

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
