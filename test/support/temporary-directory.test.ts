import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from './temporary-directory.js';

describe('a temporary directory made in a test', () => {
  let made = '';

  it('is a new, empty folder under the OS temp folder, named with the prefix', () => {
    made = temporaryDirectory('fedsearch-temporary-');
    expect(path.dirname(made)).toBe(tmpdir());
    expect(path.basename(made)).toMatch(/^fedsearch-temporary-.+/);
    expect(existsSync(made)).toBe(true);
    // Something to remove besides the folder itself: what tests write there.
    mkdirSync(path.join(made, 'nested'));
    writeFileSync(path.join(made, 'nested', 'providers.yaml'), 'providers: []\n');
  });

  it('is gone, with what was written in it, once the test that made it has ended', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });
});
