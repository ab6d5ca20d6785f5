import { describe, expect, it } from 'vitest';
import { singleSpaced } from '../../src/domain/query-text.js';

describe('singleSpaced: the words of a search as providers are sent them and its answer is kept', () => {
  it('writes each run of white space as one space: several spaces, a tab, a line break, a no-break or ideographic space', () => {
    expect(singleSpaced('rank  fusion')).toBe('rank fusion');
    expect(singleSpaced('rank\tfusion\r\nexplained')).toBe('rank fusion explained');
    expect(singleSpaced('rank\u00a0fusion \u3000\u2003explained')).toBe('rank fusion explained');
  });

  it('leaves a zero-width no-break space between letters: it joins them into one word, as Unicode reads it', () => {
    expect(singleSpaced('data\ufeffbase')).toBe('data\ufeffbase');
    expect(singleSpaced('data \ufeff base')).toBe('data \ufeff base');
  });

  it('leaves text with single spaces as it is, accents and quotes included', () => {
    for (const text of ['rank fusion', 'café "crème brûlée"', '机器学习 NOT 深度学习', 'a']) expect(singleSpaced(text)).toBe(text);
  });

  it('reads as white space exactly the code units the pattern collapses, in every script', () => {
    const misread: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const unit = String.fromCharCode(code);
      for (const text of [`a${unit}${unit}b`, `a ${unit}b`, `a${unit} b`]) {
        if (singleSpaced(text) !== text.replace(/[^\S\uFEFF]+/g, ' ')) misread.push(JSON.stringify(text));
      }
    }
    expect(misread).toEqual([]);
    const cjk = '机器学习 深度学习';
    expect(singleSpaced(cjk)).toBe(cjk);
  });
});
