import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions, type LaunchOptions } from 'playwright-core';

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

function expectChromiumInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: CI must install it (.ci/run: apt-get install chromium)`);
  }
}

/** Headless, on a fixed viewport, with nothing that phones home. */
function chromiumOptions(javaScriptEnabled: boolean): LaunchOptions & BrowserContextOptions {
  return {
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
  };
}

/** Headless Chromium with a fresh profile and nothing that phones home; `javaScriptEnabled: false` is a browser with scripts off. */
export async function launchChromium({ javaScriptEnabled = true }: { javaScriptEnabled?: boolean } = {}): Promise<LaunchedBrowser> {
  expectChromiumInstalled();
  const profile = mkdtempSync(path.join(tmpdir(), 'fedsearch-chromium-'));
  // Playwright takes the profile folder as an argument of its own rather than --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, chromiumOptions(javaScriptEnabled));
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The one Chromium of this test process, launched by the first sharedChromium() call (none if no browser test runs). */
let sharedContext: Promise<BrowserContext> | undefined;

/**
 * A handle on one Chromium shared by every browser test file this process runs (the suite runs its files in one
 * process, vitest.config.ts's isolate: false), launched on first use: a launch and close cost one to four seconds
 * on a loaded 2-core machine, paid by each of two dozen files when each launched its own.
 *
 * What a file leaves behind cannot reach the next one. Each file (and each describe block) starts a service of its
 * own, on a port of its own: another origin, so what its pages keep in storage or the HTTP cache is not another
 * block's (the page keeps only the API key, in sessionStorage, which is a tab's alone and goes with it; the service
 * sets no cookie, the one thing a port does not separate). close() closes the pages opened since the handle was
 * taken, their connections with them, and withdraws the permissions granted meanwhile. A test that changes the
 * whole context (a clock of its own, scripts turned off) launches a browser of its own with launchChromium().
 * (A context of each file's own, from a browser launched without one, made every page about half a second slower
 * to load, more than the launches saved.)
 */
export async function sharedChromium(): Promise<LaunchedBrowser> {
  if (sharedContext === undefined) {
    expectChromiumInstalled();
    const launching = chromium.launchPersistentContext(sharedProfile(), {
      ...chromiumOptions(true),
      // Vitest ends its worker with SIGTERM once the files are run, and SIGKILL half a second later: Playwright's own
      // handler would close the browser gracefully in that time, or not. Without it the worker ends at once, and
      // Chromium with it (its pipe to Playwright closes); the next launch removes the profile left behind.
      handleSIGTERM: false,
    });
    sharedContext = launching;
    // A browser that crashed or was closed is launched afresh for the next file, rather than failing every file after.
    launching.then((context) => context.once('close', () => (sharedContext = undefined)), () => (sharedContext = undefined));
  }
  const context = await sharedContext;
  const before = new Set(context.pages());
  return {
    context,
    close: async () => {
      await Promise.all(context.pages().filter((page) => !before.has(page)).map((page) => page.close()));
      await context.clearPermissions();
    },
  };
}

const SHARED_PROFILE = /^fedsearch-chromium-shared-(\d+)-/;

/**
 * A fresh profile folder named after this process, once those of test processes that are gone are removed: the
 * worker is ended by a signal, with no chance to remove its own (a run leaves one behind, until the next).
 */
function sharedProfile(): string {
  for (const name of readdirSync(tmpdir())) {
    const owner = SHARED_PROFILE.exec(name)?.[1];
    if (owner !== undefined && !processRuns(Number(owner))) rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
  return mkdtempSync(path.join(tmpdir(), `fedsearch-chromium-shared-${process.pid}-`));
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
