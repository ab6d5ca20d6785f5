import { FedsearchError, invalidQuery, parseError, upstreamError } from '../domain/errors.js';
import type { SearchFilters, SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError, errorEnvelopeMessage } from './error-envelope.js';
import { ONLY_EXCLUDED_TERMS, booleanQueryProblem } from './excluded-terms.js';
import { githubCodeQueryProblem, githubSearch, type GithubSearchText } from './github-query.js';
import { answerItems, asArray, compact, extraFields, httpUrl, isRecord, isoDate, itemsOf, listedCount, numberOrUndefined, parseJsonObject, plainText } from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** GitHub: `{"message", "documentation_url"}`, with `errors[]` for validation failures (422). */
const ERROR_BODIES = [ERROR_ENVELOPES.message];

/** GitHub search pages hold up to 100 items… */
const MAX_PER_PAGE = 100;
/** …and a search gives its first 1,000 results at most. */
const MAX_DEPTH = 1000;
const SCOPES = ['repositories', 'code'] as const;
type Scope = (typeof SCOPES)[number];

/**
 * GitHub REST search: GET /search/repositories (default) or GET /search/code (`scope: code`; GitHub requires
 * a token for it). Token optional otherwise, sent as a Bearer token. https://docs.github.com/rest/search/search
 */
export class GithubProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'github',
    kind: 'code',
    // Callers read this (GET /v1/providers, list_providers): it names github_search's parameter, not the filter
    // (`scope`) the operation hands this adapter, which a caller sending it is refused.
    description: 'GitHub search: repositories, or code with type=code (needs GITHUB_TOKEN).',
    baseUrl: 'https://api.github.com',
    credentials: [{ env: 'GITHUB_TOKEN', required: false, secret: true }],
    // GitHub search API: 10 requests per minute unauthenticated, 30 with a token (code search: 10).
    rateLimit: { rate: '10/min', withCredential: { env: 'GITHUB_TOKEN', rate: '30/min' } },
  };
  readonly settings = GithubProvider.settings;

  /**
   * A text with no word at all (`(`, `AND "`) is skipped: GitHub refuses one of operators alone with 422; so is one of
   * excluded terms alone (`-python`), which NOT has nothing to leave out of, and one GitHub would refuse (past its
   * operators or length, or with a group it would need parentheses for: githubQueryProblem), or, in code search, with
   * an OR it does not read (githubCodeQueryProblem).
   */
  override queryProblem(text: string, filters?: SearchFilters): string | undefined {
    const { sent, problem } = this.searchTextFor(text);
    if (problem !== undefined || sent === undefined) return problem;
    return filters?.scope === 'code' ? githubCodeQueryProblem(sent) : undefined;
  }

  /** The last text worked out (githubSearch): a search's request is built from the text its check has just read. */
  private lastSearchText: { text: string; search: GithubSearchText } | undefined;

  /**
   * githubSearch of this text, worked out once for a search's check and its request. One text is remembered: another
   * search in between (one waiting for a rate-limit slot) only means its text is worked out again, never a wrong one.
   */
  private searchTextFor(text: string): GithubSearchText {
    const last = this.lastSearchText;
    if (last !== undefined && last.text === text) return last.search;
    const search = githubSearch(text);
    this.lastSearchText = { text, search };
    return search;
  }

  /** GitHub's code search takes no request without a token: such a search is not_configured, no slot or request spent on it. */
  override missingSettingsFor(filters: SearchFilters): readonly string[] {
    return filters.scope === 'code' && !this.credential('GITHUB_TOKEN') ? CODE_SEARCH_NEEDS : [];
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const scope = searchScope(query.filters.scope);
    const token = this.credential('GITHUB_TOKEN');
    if (scope === 'code' && !token) throw new FedsearchError('PROVIDER_NOT_CONFIGURED', 'GITHUB_TOKEN is required for code search');
    const url = this.endpoint(`/search/${scope}`);
    // Only public repositories: a token may read its owner's private ones, and every caller (and the shared
    // answer cache) would be given them. Code search takes no such qualifier; its results are filtered below. The
    // qualifier goes first, where nothing typed can reach it: after the text, `rust NOT` negated it and `rust "async`
    // took it into the phrase (githubSearchText also closes both, and leaves out an AND or OR that would join it).
    const text = this.searchTextFor(query.text).sent;
    const problem = booleanQueryProblem(text);
    if (problem !== undefined || text === undefined) throw invalidQuery(problem ?? ONLY_EXCLUDED_TERMS);
    const codeProblem = scope === 'code' ? githubCodeQueryProblem(text) : undefined;
    if (codeProblem !== undefined) throw invalidQuery(codeProblem);
    url.searchParams.set('q', scope === 'repositories' ? `is:public ${text}` : text);
    url.searchParams.set('per_page', String(Math.min(query.limit, MAX_PER_PAGE)));
    url.searchParams.set('page', '1');
    const headers: Record<string, string> = {
      // The text-match media type adds text_matches[] (the matching fragments) to each code result.
      Accept: scope === 'code' ? 'application/vnd.github.text-match+json' : 'application/vnd.github+json',
      'X-GitHub-Api-Version': '2022-11-28',
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    return { url: url.toString(), headers };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const body = parseJsonObject(response);
    // incomplete_results: true only means the search timed out early; the items found so far are good.
    if (!Array.isArray(body.items)) {
      if (body.message !== undefined) throw upstreamError(errorEnvelopeMessage(body, ERROR_BODIES) ?? 'GitHub reported an error');
      throw parseError('the body has no items');
    }
    // An item that is not an object (null) is skipped; the others are still the answer. Private ones are not listed at all.
    const listed = body.items.filter((item) => !isPrivate(item));
    return { items: answerItems(listed.length, itemsOf(listed, toItem)) };
  }

  /** The next `page` of `per_page` items, while the page was full and the search's first 1,000 reach past it. */
  override nextPageRequest(_query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const perPage = numberParameter(page.request, 'per_page', MAX_PER_PAGE);
    const pageNumber = numberParameter(page.request, 'page', 1);
    // The items listed, not those read: private repositories and unreadable items are skipped from a page that was full.
    if (listedItems(page.response) < perPage || (pageNumber + 1) * perPage > MAX_DEPTH) return undefined;
    return withParameters(page.request, { page: String(pageNumber + 1) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    return describeJsonError(response, ERROR_BODIES);
  }
}

const CODE_SEARCH_NEEDS: readonly string[] = Object.freeze(['GITHUB_TOKEN']);

function searchScope(scope: string | undefined): Scope {
  if (scope === undefined) return 'repositories';
  if ((SCOPES as readonly string[]).includes(scope)) return scope as Scope;
  throw invalidQuery(`scope: "${scope}" is not a GitHub search scope; allowed: ${SCOPES.join(', ')}`, { scope });
}

/**
 * A private repository, or code in one: what only the operator's token may read, never handed to callers. GitHub
 * counts it in per_page, so whether a page was full is judged by what it listed (listedItems).
 */
function isPrivate(item: unknown): boolean {
  return isRecord(item) && (item.private === true || (isRecord(item.repository) && item.repository.private === true));
}

/** Code results carry a path and their repository; everything else is read as a repository. */
function toItem(item: Record<string, unknown>): ProviderItem | undefined {
  return isRecord(item.repository) && typeof item.path === 'string' ? codeItem(item, item.repository) : repositoryItem(item);
}

/** Undefined for an item with no link, name or id: nothing to show or search for (a search for "" was made). */
function repositoryItem(repository: Record<string, unknown>): ProviderItem | undefined {
  const fullName = plainText(repository.full_name) ?? plainText(repository.name);
  const url =
    httpUrl(repository.html_url) ??
    (fullName ? `https://github.com/${fullName}` : undefined) ??
    (repository.id === undefined || repository.id === null ? undefined : `https://github.com/search?type=repositories&q=${encodeURIComponent(String(repository.id))}`);
  if (url === undefined) return undefined;
  const extra = extraFields({
    stars: numberOrUndefined(repository.stargazers_count),
    language: plainText(repository.language),
    forks: numberOrUndefined(repository.forks_count) ?? numberOrUndefined(repository.forks),
  });
  return compact({
    title: fullName ?? url,
    url,
    snippet: plainText(repository.description),
    published_at: isoDate(repository.pushed_at) ?? isoDate(repository.updated_at),
    extra,
  });
}

function codeItem(item: Record<string, unknown>, repository: Record<string, unknown>): ProviderItem | undefined {
  const repositoryName = plainText(repository.full_name);
  const path = plainText(item.path);
  const name = plainText(item.name) ?? path;
  const url =
    httpUrl(item.html_url) ??
    (repositoryName && path ? `https://github.com/${repositoryName}/blob/HEAD/${path}` : undefined) ??
    httpUrl(repository.html_url) ??
    (name === undefined ? undefined : `https://github.com/search?type=code&q=${encodeURIComponent(name)}`);
  if (url === undefined) return undefined;
  const fragments = asArray(item.text_matches)
    .map((match) => (isRecord(match) ? plainText(match.fragment) : undefined))
    .filter((fragment): fragment is string => fragment !== undefined);
  const extra = extraFields({ repository: repositoryName, path });
  return compact({
    title: [name, repositoryName && `(${repositoryName})`].filter(Boolean).join(' ') || url,
    url,
    snippet: fragments.length > 0 ? fragments.join(' … ') : undefined,
    extra,
  });
}

/** How many items a search page listed, private ones and unreadable ones included (parseResponse found `items` a list). */
function listedItems(response: UpstreamResponse): number {
  return listedCount(parseJsonObject(response).items);
}
