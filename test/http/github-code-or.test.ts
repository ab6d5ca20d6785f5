import { describe, expect, it } from 'vitest';
import { GITHUB_CODE_SEARCH_PATH as CODE, GITHUB_REPOSITORY_SEARCH_PATH as REPOSITORIES, useGitHubSearchService } from '../support/github-search-service.js';

/**
 * GitHub's code search API reads the legacy code search syntax, which has no boolean operators (GitHub staff, community
 * discussion #125409: an OR found fewer files than either of its words). fedsearch sent it `rank OR fusion` as typed,
 * and answered with files holding neither alternative alone. Its repository search reads OR, and is sent it still.
 */
describe('an OR asked of GitHub code search', () => {
  const github = useGitHubSearchService();

  it('reports GitHub skipped for code, saying it reads no OR, and sends it nothing', async () => {
    const before = github.upstream.requestsTo(CODE).length;
    for (const query of ['rank OR fusion', 'rank OR fusion language:go', '"rank fusion" OR score -python']) {
      const outcome = await github.search(query, 'code');
      expect(outcome, query).toMatchObject({ provider: 'github', status: 'skipped' });
      expect(outcome.message, query).toMatch(/^code search reads no OR .*legacy code search syntax.*search for each alternative on its own$/);
    }
    expect(github.upstream.requestsTo(CODE)).toHaveLength(before);
  });

  it('still searches code for a text with no OR outside its phrases, and repositories for one with an OR', async () => {
    expect(await github.search('"rank OR fusion" score', 'code')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(github.sentQuery(CODE)).toBe('"rank OR fusion" score');
    expect(await github.search('fusion NOT rank', 'code')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(await github.search('rank OR fusion', 'repositories')).toMatchObject({ provider: 'github', status: 'ok' });
    expect(github.sentQuery(REPOSITORIES)).toBe('is:public rank OR fusion');
  });
});
