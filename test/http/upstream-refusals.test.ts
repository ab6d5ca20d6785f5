import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService } from '../support/service.js';

/**
 * What a search answer says of a provider whose upstream refused it, for each error shape the APIs document:
 * the code a caller can act on (PROVIDER_AUTH: fix the key; PROVIDER_RATE_LIMITED: wait or raise the plan), the
 * upstream's own words and the setting to check, and never the key, though some upstreams echo it and some keys
 * travel in the query string. Each case runs on a service of its own: a limit's wait holds the provider's breaker.
 */
interface Refusal {
  name: string;
  provider: string;
  /** How the search is asked for: a kind with a REST route, or the provider's own operation. */
  kind: 'web' | 'papers' | 'youtube_search' | 'github_search';
  /** The upstream path that refuses, under the provider's `<origin>/<provider>` base URL. */
  path: string;
  status: number;
  headers?: Record<string, string>;
  /** The body; `{{KEY}}` in it stands for the key the request carried (an upstream that echoes it). */
  body: unknown;
  env: Record<string, string>;
  code: string;
  message: string | RegExp;
  retryAfterMs?: number;
}

const KEYS = {
  brave: 'test-key-brave-0001',
  tavily: 'tvly-test-key-0002',
  exa: 'test-key-exa-0003',
  youtube: 'test-key-youtube-0004',
  github: 'test-key-github-0005',
  pubmed: 'test-key-pubmed-0006',
  semanticscholar: 'test-key-s2-0007',
};

const RESET_IN_SECONDS = 120;

const REFUSALS: Refusal[] = [
  {
    name: 'Brave: a bad subscription token is a 422 with its own code',
    provider: 'brave',
    kind: 'web',
    path: '/res/v1/web/search',
    status: 422,
    body: {
      type: 'ErrorResponse',
      error: { id: 'test-id', status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: { component: 'authentication' } },
      time: 1,
    },
    env: { BRAVE_API_KEY: KEYS.brave },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 422: the key was refused: The provided subscription token is invalid. (check BRAVE_API_KEY)',
  },
  {
    name: 'Tavily: 401, a missing or invalid key',
    provider: 'tavily',
    kind: 'web',
    path: '/search',
    status: 401,
    body: { detail: { error: 'Unauthorized: missing or invalid API key.' } },
    env: { TAVILY_API_KEY: KEYS.tavily },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 401: the key was refused: Unauthorized: missing or invalid API key. (check TAVILY_API_KEY)',
  },
  {
    name: "Tavily: 432, the plan's limit reached",
    provider: 'tavily',
    kind: 'web',
    path: '/search',
    status: 432,
    body: { detail: { error: "This request exceeds your plan's set usage limit. Please upgrade your plan." } },
    env: { TAVILY_API_KEY: KEYS.tavily },
    code: 'PROVIDER_RATE_LIMITED',
    message: "HTTP 432: quota or plan limit reached: This request exceeds your plan's set usage limit. Please upgrade your plan.",
  },
  {
    name: 'Tavily: 433, the pay-as-you-go limit reached',
    provider: 'tavily',
    kind: 'web',
    path: '/search',
    status: 433,
    body: { detail: { error: 'This request exceeds the pay-as-you-go limit.' } },
    env: { TAVILY_API_KEY: KEYS.tavily },
    code: 'PROVIDER_RATE_LIMITED',
    message: 'HTTP 433: quota or plan limit reached: This request exceeds the pay-as-you-go limit.',
  },
  {
    name: 'Exa: a bad key is a 400',
    provider: 'exa',
    kind: 'web',
    path: '/search',
    status: 400,
    body: { requestId: 'test-request', error: 'x-api-key header is invalid' },
    env: { EXA_API_KEY: KEYS.exa },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 400: the key was refused: x-api-key header is invalid (check EXA_API_KEY)',
  },
  {
    name: 'Exa: any other 400 is a refused request, as before',
    provider: 'exa',
    kind: 'web',
    path: '/search',
    status: 400,
    body: { requestId: 'test-request', error: 'numResults must not exceed 100' },
    env: { EXA_API_KEY: KEYS.exa },
    code: 'PROVIDER_HTTP',
    message: 'HTTP 400: the provider refused the request as invalid: numResults must not exceed 100',
  },
  {
    name: "Exa: a 500 is the provider's own failure: retry later",
    provider: 'exa',
    kind: 'web',
    path: '/search',
    status: 500,
    body: { requestId: 'test-request', error: 'Internal server error' },
    env: { EXA_API_KEY: KEYS.exa },
    code: 'PROVIDER_HTTP',
    message: 'HTTP 500: the provider is failing on its side: Internal server error; retry later',
  },
  {
    name: 'YouTube: 403 quotaExceeded is a used-up quota, not a bad key',
    provider: 'youtube',
    kind: 'youtube_search',
    path: '/youtube/v3/search',
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'The request cannot be completed because you have exceeded your quota.',
        errors: [{ message: 'The request cannot be completed because you have exceeded your quota.', domain: 'youtube.quota', reason: 'quotaExceeded' }],
      },
    },
    env: { YOUTUBE_API_KEY: KEYS.youtube },
    code: 'PROVIDER_RATE_LIMITED',
    message: 'HTTP 403: quota or plan limit reached: quotaExceeded: The request cannot be completed because you have exceeded your quota.',
  },
  {
    name: 'YouTube: 400 keyInvalid, the key in the query string',
    provider: 'youtube',
    kind: 'youtube_search',
    path: '/youtube/v3/search',
    status: 400,
    body: { error: { errors: [{ domain: 'usageLimits', reason: 'keyInvalid', message: 'Bad Request' }], code: 400, message: 'Bad Request' } },
    env: { YOUTUBE_API_KEY: KEYS.youtube },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 400: the key was refused: keyInvalid: Bad Request (check YOUTUBE_API_KEY)',
  },
  {
    name: 'YouTube: 400 badRequest "API key not valid" with an ErrorInfo',
    provider: 'youtube',
    kind: 'youtube_search',
    path: '/youtube/v3/search',
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        errors: [{ message: 'API key not valid. Please pass a valid API key.', domain: 'global', reason: 'badRequest' }],
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      },
    },
    env: { YOUTUBE_API_KEY: KEYS.youtube },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 400: the key was refused: badRequest: API key not valid. Please pass a valid API key. (check YOUTUBE_API_KEY)',
  },
  {
    name: 'GitHub: 401 Bad credentials',
    provider: 'github',
    kind: 'github_search',
    path: '/search/repositories',
    status: 401,
    body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
    env: { GITHUB_TOKEN: KEYS.github },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 401: the key was refused: Bad credentials (check GITHUB_TOKEN)',
  },
  {
    name: 'GitHub: 403 with x-ratelimit-remaining 0 is its rate limit, with the reset as the wait',
    provider: 'github',
    kind: 'github_search',
    path: '/search/repositories',
    status: 403,
    headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'RESET' },
    body: { message: 'API rate limit exceeded for 203.0.113.7.', documentation_url: 'https://docs.github.com/rest/rate-limit' },
    env: {},
    code: 'PROVIDER_RATE_LIMITED',
    // Sent without a token, under GitHub's far lower limit for anonymous callers: the message says which key raises it.
    message: /^HTTP 403: rate limited \(retry after 1[12]\d s\): API rate limit exceeded for 203\.0\.113\.7\. \(no key was sent: set GITHUB_TOKEN for a higher limit\)$/,
  },
  {
    name: 'GitHub: 403 with Retry-After is its secondary rate limit',
    provider: 'github',
    kind: 'github_search',
    path: '/search/repositories',
    status: 403,
    headers: { 'retry-after': '30' },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
    env: { GITHUB_TOKEN: KEYS.github },
    code: 'PROVIDER_RATE_LIMITED',
    message: 'HTTP 403: rate limited (retry after 30 s): You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    retryAfterMs: 30_000,
  },
  {
    name: 'GitHub: a 403 sent without a token says to set one',
    provider: 'github',
    kind: 'github_search',
    path: '/search/repositories',
    status: 403,
    body: { message: 'Resource not accessible' },
    env: {},
    code: 'PROVIDER_AUTH',
    message: 'HTTP 403: access refused: Resource not accessible (no key was sent: set GITHUB_TOKEN)',
  },
  {
    name: 'PubMed: NCBI refuses a bad api_key with 400 and echoes it',
    provider: 'pubmed',
    kind: 'papers',
    path: '/entrez/eutils/esearch.fcgi',
    status: 400,
    body: { error: 'API key invalid', 'api-key': '{{KEY}}', type: 'invalid', status: 'unknown' },
    env: { PUBMED_API_KEY: KEYS.pubmed },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 400: the key was refused: API key invalid (check PUBMED_API_KEY)',
  },
  {
    name: 'Semantic Scholar: 403 Forbidden for a bad x-api-key',
    provider: 'semanticscholar',
    kind: 'papers',
    path: '/graph/v1/paper/search',
    status: 403,
    body: { message: 'Forbidden' },
    env: { SEMANTIC_SCHOLAR_API_KEY: KEYS.semanticscholar },
    code: 'PROVIDER_AUTH',
    message: 'HTTP 403: the key was refused: Forbidden (check SEMANTIC_SCHOLAR_API_KEY)',
  },
  {
    name: 'Semantic Scholar: 429 to a caller without a key says which key raises the limit',
    provider: 'semanticscholar',
    kind: 'papers',
    path: '/graph/v1/paper/search',
    status: 429,
    body: {
      message: 'Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form',
      code: '429',
    },
    env: {},
    code: 'PROVIDER_RATE_LIMITED',
    message: /^HTTP 429: rate limited: Too Many Requests\. .* \(no key was sent: set SEMANTIC_SCHOLAR_API_KEY for a higher limit\)$/,
  },
  {
    name: 'Tavily: an error in a 200 body is cut, as an error status is',
    provider: 'tavily',
    kind: 'web',
    path: '/search',
    status: 200,
    body: { detail: { error: `Usage report: ${'y'.repeat(1000)} for {{KEY}}` } },
    env: { TAVILY_API_KEY: KEYS.tavily },
    code: 'PROVIDER_UPSTREAM',
    message: `Usage report: ${'y'.repeat(200 - 'Usage report: '.length)}`,
  },
];

describe('what a search answer says of an upstream that refused', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  for (const refusal of REFUSALS) {
    it(refusal.name, async () => {
      const key = KEYS[refusal.provider as keyof typeof KEYS];
      const reset = String(Math.floor(Date.now() / 1000) + RESET_IN_SECONDS);
      const headers = Object.fromEntries(Object.entries(refusal.headers ?? {}).map(([name, value]) => [name, value === 'RESET' ? reset : value]));
      const body = JSON.stringify(refusal.body).replaceAll('{{KEY}}', key);
      upstream.on(`/${refusal.provider}${refusal.path}`, { kind: 'respond', status: refusal.status, headers: { 'content-type': 'application/json', ...headers }, body });
      const service = await startService({ ...providerEnv(upstream.origin), ...refusal.env, CACHE_TTL_SECONDS: '0' });
      try {
        const asked =
          refusal.kind === 'web' || refusal.kind === 'papers'
            ? request(service.origin, `/v1/search/${refusal.kind}?q=refused&providers=${refusal.provider}`)
            : callOperation(service, refusal.kind, { query: 'refused' });
        const answer = await (await asked).json();
        const outcome = answer.providers.find((provider: { provider: string }) => provider.provider === refusal.provider);
        expect(outcome).toMatchObject({ status: 'error', code: refusal.code });
        if (typeof refusal.message === 'string') expect(outcome.message).toBe(refusal.message);
        else expect(outcome.message).toMatch(refusal.message);
        if (refusal.retryAfterMs !== undefined) expect(outcome.retry_after_ms).toBe(refusal.retryAfterMs);
        if (refusal.code === 'PROVIDER_RATE_LIMITED' && refusal.headers?.['x-ratelimit-reset']) {
          expect(outcome.retry_after_ms).toBeGreaterThan((RESET_IN_SECONDS - 10) * 1000);
        }
        expect(upstream.requestsTo(`/${refusal.provider}${refusal.path}`).length).toBeGreaterThan(0);
        for (const text of [JSON.stringify(answer), ...service.logs]) {
          expect(text).not.toContain(key);
          expect(text).not.toContain('test-key');
        }
      } finally {
        await service.stop();
        upstream.requests.length = 0;
      }
    });
  }
});

describe('what a direct provider call says of an upstream that refused', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.stop());

  it('youtube_video_details on a used-up quota answers PROVIDER_RATE_LIMITED with Google\'s reason, without the key', async () => {
    const quota = { error: { code: 403, message: 'quota', errors: [{ message: 'The request cannot be completed because you have exceeded your quota.', domain: 'youtube.quota', reason: 'quotaExceeded' }] } };
    upstream.json('/youtube/youtube/v3/videos', quota, 403);
    const service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: KEYS.youtube });
    try {
      const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
      const body = await response.json();
      expect(response.status).toBe(502);
      expect(body).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', message: 'youtube: HTTP 403: quota or plan limit reached: quotaExceeded: quota' });
      for (const text of [JSON.stringify(body), ...service.logs]) expect(text).not.toContain(KEYS.youtube);
    } finally {
      await service.stop();
    }
  });
});
