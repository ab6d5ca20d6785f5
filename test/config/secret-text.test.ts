import { describe, expect, it } from 'vitest';
import { secretProblem } from '../../src/config/secret-text.js';

describe('secretProblem', () => {
  it.each([
    // Keys as the providers issue them: hex, base64url, prefixed, UUIDs.
    'BSAh3x9QZ0k4_ab-CD12efGH34ij',
    'tvly-dev-0123456789abcdefABCDEF',
    'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8',
    // A quote inside is odd but possible in a generated token; only quotes at an end are a slip.
    'abc"def0123456789',
  ])('accepts %s', (value) => {
    expect(secretProblem(value)).toBeUndefined();
  });

  it.each([
    ['"abc0123456789"', 'starts and ends with a quote (")'],
    ["'abc0123456789'", "starts and ends with a quote (')"],
    ['"abc0123456789', 'starts with a quote (")'],
    ['abc0123456789`', 'ends with a quote (`)'],
    ['\u201cabc0123456789\u201d', 'starts and ends with a quote (U+201C)'],
    ['abc0123456789\u2019', 'ends with a quote (U+2019)'],
    ['abc 0123456789', 'holds a space at character 4'],
    ['abc0123\t456789', 'holds a tab at character 8'],
    ['abc0123456789\nxyz', 'holds a line break at character 14'],
    ['abc\u00a00123456789', 'holds a non-breaking space (U+00A0) at character 4'],
    ['\u200babc0123456789', 'holds a zero-width space (U+200B) at character 1'],
    ['ключ0123456789', 'holds U+043A at character 1'],
    // A character beyond the Basic Multilingual Plane is one character, not two halves.
    ['\u{1F511}abc0123456789', 'holds U+1F511 at character 1'],
    ['ab\u{1F511}c\u00e9', 'holds U+1F511 at character 3'],
  ])('refuses %j: %s', (value, problem) => {
    expect(secretProblem(value)).toContain(problem);
  });

  it('never repeats the value or any run of it', () => {
    for (const value of ['"s3cr3t-value-0123"', 's3cr3t value 0123', 's3cr3t\u00a0value0123']) {
      const problem = secretProblem(value) ?? '';
      expect(problem).not.toBe('');
      expect(problem).not.toMatch(/s3cr3t|value0123|0123/);
    }
  });
});
