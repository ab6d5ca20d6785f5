import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GithubProvider } from '../../src/providers/github.js';
import { HackerNewsProvider } from '../../src/providers/hackernews.js';
import { OpenAlexProvider } from '../../src/providers/openalex.js';
import { PubmedProvider } from '../../src/providers/pubmed.js';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { makeProvider, makeQuery } from '../support/run-provider.js';

/**
 * The query-syntax readers (excluded terms, closed groups, OR and AND rewritten) are for text that holds their syntax.
 * A query of plain words, with no upper-case operator, quote, parenthesis or `-` starting a word, is every provider's
 * that takes text as typed, sent as typed: GitHub's repositories after their `is:public`.
 */
describe('a query of plain words, as each provider that takes text as typed is sent it', () => {
  const providers = [
    { provider: makeProvider(HackerNewsProvider), parameter: 'query', prefix: '' },
    { provider: makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'test-key' }), parameter: 'q', prefix: '' },
    { provider: makeProvider(PubmedProvider), parameter: 'term', prefix: '' },
    { provider: makeProvider(OpenAlexProvider), parameter: 'search', prefix: '' },
    { provider: makeProvider(GithubProvider), parameter: 'q', prefix: 'is:public ' },
    { provider: makeProvider(WikipediaProvider), parameter: 'srsearch', prefix: '' },
  ];
  // Words that look like operators but are none (ANDROID, NOTE, ORACLE, lower-case or, not), inner dashes, C++ and C#.
  const word = fc.oneof(
    fc.constantFrom('ANDROID', 'NOTE', 'ORACLE', 'or', 'not', 'and', 'covid-19', 'C++', 'C#', 'café', '机器学习', 'x86-64', 'NOR', 'AN'),
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9.+#_-]{0,9}$/).filter((candidate) => !/^(?:AND|OR|NOT)$/.test(candidate)),
  );

  it('sends the text unchanged', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const text = words.join(' ');
        for (const { provider, parameter, prefix } of providers) {
          const request = provider.buildRequest(makeQuery(text, provider.settings.kind === 'papers' ? 'papers' : 'web', 5));
          expect(new URL(request.url).searchParams.get(parameter), provider.name).toBe(`${prefix}${text}`);
        }
      }),
      { numRuns: 500 },
    );
  });
});
