import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { sideBySideDirectory } from '../../bench/floor-comparison.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

/** The shipped wrk script's shape: a local counter that thread:set cannot reach. */
const SHADOWING = `local template = os.getenv("PATH_TEMPLATE")
local counter = 0
local thread_id = 0
setup = function(thread)
  thread:set("thread_id", thread_id)
  thread_id = thread_id + 1
end
request = function()
  counter = counter + 1
  return wrk.format("GET", string.format(template, string.format("q%d-%d", thread_id or 0, counter)))
end
`;

function benchDirectory(script: string): string {
  const directory = path.join(temporaryDirectory('side-by-side-test-'), 'bench');
  mkdirSync(path.join(directory, 'searx'), { recursive: true });
  writeFileSync(path.join(directory, 'uniq.lua'), script);
  writeFileSync(path.join(directory, 'side-by-side.py'), '# the tool\n');
  writeFileSync(path.join(directory, 'searx', 'start.sh'), '# its helper\n');
  return directory;
}

describe('the side-by-side tool the bench runs', () => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);

  it('is a copy whose wrk script keeps the thread number where thread:set writes it, everything else as shipped', () => {
    const shipped = benchDirectory(SHADOWING);
    const used = sideBySideDirectory(false, shipped);
    // The copy is in a temp folder of its own, which the bench keeps (it runs the tool from there): the test removes it.
    onTestFinished(() => rmSync(path.dirname(used), { recursive: true, force: true }));
    expect(used).not.toBe(shipped);
    const script = readFileSync(path.join(used, 'uniq.lua'), 'utf8');
    expect(script).not.toMatch(/^local thread_id/m);
    expect(script).toMatch(/^thread_id = 0$/m);
    expect(script.replace(/^thread_id = 0$/m, 'local thread_id = 0')).toBe(SHADOWING);
    expect(readFileSync(path.join(used, 'side-by-side.py'), 'utf8')).toBe('# the tool\n');
    expect(readFileSync(path.join(used, 'searx', 'start.sh'), 'utf8')).toBe('# its helper\n');
    // The shipped directory is left as it was.
    expect(readFileSync(path.join(shipped, 'uniq.lua'), 'utf8')).toBe(SHADOWING);
  });

  it('is the shipped directory when asked for it, or when its script has no such local', () => {
    const shipped = benchDirectory(SHADOWING);
    expect(sideBySideDirectory(true, shipped)).toBe(shipped);
    const fixed = benchDirectory(SHADOWING.replace('local thread_id = 0', 'thread_id = 0'));
    expect(sideBySideDirectory(false, fixed)).toBe(fixed);
  });
});
