import { describe, expect, it } from 'vitest';
import { markdownText } from '../../src/providers/markdown-text.js';

describe('markdownText: what cutting leaves of Markdown', () => {
  it('drops the address half of a link whose words were cut off, keeping the words', () => {
    expect(markdownText('model settings into\n...\nranked search](https://docs.exa')).toBe('model settings into ... ranked search');
    expect(markdownText('in [JSON](https://')).toBe('in JSON');
  });

  it('drops the tail of an address that continues a link cut in the previous piece', () => {
    expect(markdownText('web search](https://ex\n...\nample.org/tools#web), [reading](https://example.org/read), and more')).toBe(
      'web search ... reading, and more',
    );
    // A piece that held nothing but the cut address leaves nothing between the separators.
    expect(markdownText('see the\n...\n](https://ex\n...\nample.org/guide) for setup')).toBe('see the ... for setup');
  });

  it('keeps the words of a link still open at the end of a piece, and of a bracket never closed', () => {
    expect(markdownText('or install [community packages](https://example.org/p')).toBe('or install community packages');
    expect(markdownText('Define agents in [YAML\n...\nor code')).toBe('Define agents in YAML ... or code');
  });

  it('drops a backtick whose code span was cut, keeping the code', () => {
    expect(markdownText('Tools get their context from\n...\n`FusionDependencies')).toBe('Tools get their context from ... FusionDependencies');
    expect(markdownText('call `run()` then `stop')).toBe('call run() then stop');
  });

  it('drops a ** or __ whose partner was cut away', () => {
    expect(markdownText('Install it today and build your first index!**. Then ship it.')).toBe(
      'Install it today and build your first index!. Then ship it.',
    );
    expect(markdownText('the tool is fast__, and small')).toBe('the tool is fast, and small');
    expect(markdownText('read the guide **')).toBe('read the guide');
  });

  it('leaves text alone where stars, underscores, brackets and parentheses are not leftovers', () => {
    expect(markdownText('def f(*args, **kwargs): return 2**3')).toBe('def f(*args, **kwargs): return 2**3');
    expect(markdownText('a*b and x ** 2 in snake_case')).toBe('a*b and x ** 2 in snake_case');
    expect(markdownText('override __init__ and __repr__.')).toBe('override __init__ and __repr__.');
    expect(markdownText('[PDF] Rank fusion (see below), e.g.) here')).toBe('[PDF] Rank fusion (see below), e.g.) here');
    // The tail rule only applies after a piece that ended inside an address.
    expect(markdownText('first piece\n...\ne.g.) a list [1]')).toBe('first piece ... e.g.) a list [1]');
  });

  it('still strips whole syntax and joins pieces as Exa wrote them', () => {
    expect(markdownText('# Install\n...\nRun `pip install fusion` with **care** and [docs](https://example.org).')).toBe(
      'Install ... Run pip install fusion with care and docs.',
    );
  });
});
