import { afterAll, beforeAll, expect } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { BRAVE_AND_TAVILY_KEYS, BRAVE_SEARCH_PATH, providerEnv, request, startService, TAVILY_SEARCH_PATH, type RunningService } from './service.js';

/** One result as Brave's web search writes it (`web.results[]`). */
export interface BraveWebResult {
  title: string;
  url: string;
  description: string;
}

/** One result as Tavily's search writes it (`results[]`). */
export interface TavilyResult {
  title: string;
  url: string;
  content: string;
}

export interface WebResults {
  brave: BraveWebResult[];
  /** Given, Tavily has a key and answers with these; left out, it has no key and is never asked. */
  tavily?: TavilyResult[];
  /** Settings beyond the providers' (CACHE_TTL_SECONDS, say). */
  env?: Record<string, string>;
}

/** The part of a web search's answer every caller reads; a test names the other fields it reads in its own type. */
export interface WebAnswer {
  results: Array<{ url: string }>;
}

export interface WebResultsService {
  /** Ready at once: a test may route more paths on it or read what each provider was sent. */
  readonly upstream: FakeUpstream;
  /** The service's origin, known once the tests run. */
  readonly origin: string;
  /** GET /v1/search/web?<parameters>, expecting 200: the answer. */
  search<Answer extends WebAnswer = WebAnswer>(parameters: string): Promise<Answer>;
  /** The same search: its results' URLs, in the answer's order. */
  urls(parameters: string): Promise<string[]>;
}

/**
 * The real service for the enclosing describe block, its Brave (and Tavily, if given results) answering every web
 * search with the given results from a fake upstream: started before the block's tests, stopped after them.
 */
export function useWebResultsService({ brave, tavily, env = {} }: WebResults): WebResultsService {
  const upstream = new FakeUpstream();
  upstream.json(BRAVE_SEARCH_PATH, { web: { results: brave } });
  if (tavily) upstream.json(TAVILY_SEARCH_PATH, { results: tavily });
  let service: RunningService | undefined;

  beforeAll(async () => {
    await upstream.start();
    const { BRAVE_API_KEY, TAVILY_API_KEY } = BRAVE_AND_TAVILY_KEYS;
    const keys: Record<string, string> = tavily ? { BRAVE_API_KEY, TAVILY_API_KEY } : { BRAVE_API_KEY };
    service = await startService({ ...providerEnv(upstream.origin), ...keys, LOG_LEVEL: 'silent', ...env });
  });
  afterAll(async () => {
    await service?.stop();
    await upstream.stop();
  });

  const origin = (): string => {
    if (!service) throw new Error('the service starts before the tests of its describe block: read its origin in a test');
    return service.origin;
  };
  const search = async <Answer extends WebAnswer = WebAnswer>(parameters: string): Promise<Answer> => {
    const response = await request(origin(), `/v1/search/web?${parameters}`);
    expect(response.status, parameters).toBe(200);
    return (await response.json()) as Answer;
  };
  return {
    upstream,
    get origin() {
      return origin();
    },
    search,
    urls: async (parameters) => (await search(parameters)).results.map((result) => result.url),
  };
}
