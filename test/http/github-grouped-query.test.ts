import { describe, expect, it } from 'vitest';
import { GITHUB_REPOSITORY_SEARCH_PATH as GITHUB, useGitHubSearchService } from '../support/github-search-service.js';

/**
 * GitHub's search answers a parenthesised group with 422 (github/github-mcp-server#2513: `(Foo OR Bar) -path:vendor
 * language:go`), and fedsearch sent groups as typed, leftover ones too: the caller got GitHub's error, not its answer.
 * The fake GitHub here refuses a q holding a parenthesis outside a phrase as GitHub does.
 */
describe('a query holding parentheses, asked of GitHub', () => {
  const github = useGitHubSearchService();
  const sent = (): string | null => github.sentQuery(GITHUB);

  it("gets GitHub's results for a group that reads the same without its parentheses", async () => {
    expect(await github.search('fusion ( rank) NOT python')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public fusion rank NOT python');
    expect(await github.search('(rank OR fusion)')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank OR fusion');
  });

  it('reports GitHub skipped, naming the group, for one that does not, and sends it nothing', async () => {
    const before = github.upstream.requestsTo(GITHUB).length;
    const outcome = await github.search('(rank OR fusion) typescript');
    expect(outcome).toMatchObject({ provider: 'github', status: 'skipped' });
    expect(outcome.message).toMatch(/^accepts no parentheses .*\(rank OR fusion\) would mean something else/);
    expect(github.upstream.requestsTo(GITHUB)).toHaveLength(before);
  });

  it("gets GitHub's results for a formula, a group glued to a word, sent as a phrase", async () => {
    // Sent as typed (`solver f(x)`, `-(x+1)`, `NOT f` with `(x)` to find), each was GitHub's 422, not its answer.
    for (const [query, q] of [
      ['solver f(x)', 'is:public solver "f(x)"'],
      ['solver -(x+1)', 'is:public solver "-(x+1)"'],
      ['solver -f(x)', 'is:public solver NOT "f(x)"'],
    ] as const) {
      expect(await github.search(query), query).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
      expect(sent(), query).toBe(q);
    }
  });

  it('reports GitHub skipped, naming the formula, for one a phrase would not read as typed, and sends it nothing', async () => {
    const before = github.upstream.requestsTo(GITHUB).length;
    const outcome = await github.search('rank -(2024 OR 2025)');
    expect(outcome).toMatchObject({ provider: 'github', status: 'skipped' });
    expect(outcome.message).toMatch(/^accepts no parentheses .*-\(2024 OR 2025\) cannot be sent without them/);
    expect(github.upstream.requestsTo(GITHUB)).toHaveLength(before);
  });

  it('sends an AND NOT or OR NOT before a number as one NOT after the words', async () => {
    expect(await github.search('rank AND NOT 40')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank NOT 40');
    expect(await github.search('rank OR NOT -40 OR fusion')).toMatchObject({ provider: 'github', status: 'ok', count: 2 });
    expect(sent()).toBe('is:public rank OR fusion NOT -40');
  });
});
