import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh folder under the OS's temp folder, removed with all it holds when the test that made it ends, passed or
 * failed: CI runs the suite over and over on one machine, and folders left behind filled its /tmp by the hundred.
 * Call it inside a test; a folder made in a hook or at a file's top level is removed by that file's own afterAll.
 */
export function temporaryDirectory(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
