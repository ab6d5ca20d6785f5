import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, request, startService, type RunningService } from '../support/service.js';
import { prefixesOf } from '../support/secret-prefixes.js';

/**
 * Keys with characters a query string has to escape: `+`, `/`, `=` and a `%` of their own, and `!` and `(`, which
 * form encoding escapes and encodeURIComponent does not (a space, which the two also write apart, is refused in a
 * key at start-up).
 */
const YOUTUBE_KEY = 'AIza+yt/key=with!paren(%2F-0123456789';
const PUBMED_KEY = 'ncbi+key/0123=45!67%89abcdef';

/** `text` with its percent escapes in lower case (`%2b`), as some upstreams re-encode what they quote. */
function lowerCaseHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** Every way the tests' keys can be written in a URL an upstream echoes, the raw value first. */
function spellingsOf(key: string): string[] {
  const percent = encodeURIComponent(key);
  const form = new URLSearchParams([['', key]]).toString().slice(1);
  return [key, percent, form, lowerCaseHex(percent), lowerCaseHex(form)];
}


/** The part of a URL that names what was asked, as an upstream quotes it back: path and query, still encoded. */
function requested(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/**
 * Upstreams that quote back the URL they were asked, as proxies and API gateways do in error bodies: the key
 * sits in it percent-encoded (as URLSearchParams wrote it, or with the hex in lower case), never as it was
 * configured, and must reach neither an answer nor a log line in any of those spellings.
 */
describe('secrets echoed encoded in a URL', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/youtube/youtube/v3/videos', {
      kind: 'handler',
      handle: (request, response) => {
        const message = `API key not valid for ${lowerCaseHex(requested(request.url))}`;
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, errors: [{ reason: 'badRequest' }] } }));
      },
    });
    upstream.on('/pubmed/entrez/eutils/esearch.fcgi', {
      kind: 'handler',
      handle: (request, response) => {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `invalid api_key in ${request.url.search}` }));
      },
    });
    service = await startService({ ...providerEnv(upstream.origin), YOUTUBE_API_KEY: YOUTUBE_KEY, PUBMED_API_KEY: PUBMED_KEY, CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('a failed call whose upstream quoted the URL in lower-case hex answers and logs no spelling of the key', async () => {
    const response = await callOperation(service, 'youtube_video_details', { ids: ['abcDEF12345'] });
    expect(response.status).toBe(502);
    const body = await response.json();
    // The key was sent encoded, and its quote runs past the transport's 160-character cut: unredacted, the cut
    // would leave a start of it; redacted first, the whole quote is one marker.
    const sent = requested(upstream.requestsTo('/youtube/youtube/v3/videos')[0]!.url);
    expect(sent).toContain(`key=${new URLSearchParams([['', YOUTUBE_KEY]]).toString().slice(1)}`);
    expect(body.message).toMatch(/^youtube: HTTP 400: the key was refused: badRequest: API key not valid for \/youtube\/youtube\/v3\/videos\?.*&key=\[redacted\] \(check YOUTUBE_API_KEY\)$/);

    const logged = service.logs.filter((line) => (JSON.parse(line) as { reqId?: string }).reqId === body.request_id);
    expect(logged.some((line) => line.includes('"msg":"request failed"'))).toBe(true);
    for (const text of [JSON.stringify(body), ...service.logs]) {
      for (const prefix of spellingsOf(YOUTUBE_KEY).flatMap(prefixesOf)) expect(text).not.toContain(prefix);
    }
  });

  it('a search whose upstream quoted its query string shows no spelling of the key in the outcome or the logs', async () => {
    const body = await (await request(service.origin, '/v1/search/papers?q=leak&providers=pubmed')).json();
    const outcome = body.providers.find((provider: { provider: string }) => provider.provider === 'pubmed');
    expect(outcome).toMatchObject({ status: 'error', code: 'PROVIDER_AUTH' });
    expect(outcome.message).toMatch(/^HTTP 401: the key was refused: invalid api_key in \?db=pubmed&.*&api_key=\[redacted\] \(check PUBMED_API_KEY\)$/);

    const listing = await (await request(service.origin, '/v1/providers')).json();
    const health = listing.providers.find((provider: { name: string }) => provider.name === 'pubmed').health;
    // Every caller reads provider health: it keeps our words, not the upstream's (which quoted the request).
    expect(health.last_error.message).toBe('HTTP 401: the key was refused (check PUBMED_API_KEY)');
    for (const text of [JSON.stringify(body), JSON.stringify(listing), ...service.logs]) {
      for (const spelling of spellingsOf(PUBMED_KEY)) expect(text).not.toContain(spelling);
    }
  });
});

/**
 * A client's own key to fedsearch (API_KEYS) sent in a URL, which fedsearch never reads it from but a client
 * may put there all the same: under a parameter name written with escapes, or any name at all, the request's
 * log lines must not hold it in any spelling.
 */
describe("a client's API key in a logged request URL", () => {
  const CALLER_KEY = 'caller+key/0123=abc!def(%41';
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ API_KEYS: CALLER_KEY });
  });
  afterAll(async () => {
    await service.stop();
  });

  it.each([
    ['a percent-encoded parameter name', `api%5Fkey=${new URLSearchParams([['', CALLER_KEY]]).toString().slice(1)}`],
    ["a header's name as a parameter", `x-api-key=${encodeURIComponent(CALLER_KEY)}`],
    ['a name no list knows, hex in lower case', `credential=${lowerCaseHex(encodeURIComponent(CALLER_KEY))}`],
  ])('under %s', async (_case, parameter) => {
    const response = await request(service.origin, `/v1/providers?${parameter}`, { headers: { 'x-api-key': CALLER_KEY } });
    // /v1/providers takes no parameters: the request is refused, and its URL logged all the same.
    expect(response.status).toBe(400);
    const id = response.headers.get('x-request-id');
    // The request's line is written once its answer is done, which may be just after the client has read it.
    const completed = () =>
      service.logs
        .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; req?: { url?: string } })
        .filter((line) => line.reqId === id && line.msg === 'request completed');
    await expect.poll(completed).toHaveLength(1);
    expect(completed()[0]!.req?.url).toMatch(/^\/v1\/providers\?[^=]+=\[redacted\]$/);
    for (const line of service.logs) {
      for (const spelling of spellingsOf(CALLER_KEY)) expect(line).not.toContain(spelling);
    }
  });

  it('sent as the value of a parameter the refusal quotes: the answer quotes it to its caller, the log line does not', async () => {
    const response = await request(service.origin, `/v1/search/web?q=x&providers=local&time_range=${encodeURIComponent(CALLER_KEY)}`, {
      headers: { 'x-api-key': CALLER_KEY },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(`"${CALLER_KEY}" is not allowed`);
    const id = response.headers.get('x-request-id');
    const rejected = () =>
      service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; message?: string }).filter((line) => line.reqId === id && line.msg === 'request rejected');
    await expect.poll(rejected).toHaveLength(1);
    expect(rejected()[0]!.message).toBe('time_range: "[redacted]" is not allowed; allowed: "day", "week", "month", "year"');
    for (const line of service.logs) {
      for (const spelling of spellingsOf(CALLER_KEY)) expect(line).not.toContain(spelling);
    }
  });
});

/**
 * The scraper's METRICS_TOKEN, which fedsearch reads only from the Authorization header, sent in a URL all the
 * same (a Prometheus job given it as a `params` entry under a name of its own choosing): it is a configured
 * secret like the API keys, and no log line may hold it in any spelling, whatever the parameter is called.
 */
describe("the metrics token in a logged request URL", () => {
  const METRICS_TOKEN = 'scrape+token/0123=abc!def(%42';
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await service.stop();
  });

  /** The lines the request with this id wrote, once its `msg` line is there (written as its answer is done). */
  async function linesOf(id: string | null, msg: string): Promise<Array<{ msg?: string; message?: string; req?: { url?: string } }>> {
    const lines = () => service.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string }).filter((line) => line.reqId === id);
    await expect.poll(() => lines().filter((line) => line.msg === msg)).toHaveLength(1);
    return lines();
  }

  it('under a parameter name no list knows', async () => {
    const response = await request(service.origin, `/metrics?bearer=${encodeURIComponent(METRICS_TOKEN)}`);
    // The token counts only in the Authorization header: the scrape is refused, and its URL logged all the same.
    expect(response.status).toBe(401);
    const lines = await linesOf(response.headers.get('x-request-id'), 'request completed');
    expect(lines.find((line) => line.msg === 'request completed')!.req?.url).toBe('/metrics?bearer=[redacted]');
    for (const line of service.logs) {
      for (const spelling of spellingsOf(METRICS_TOKEN)) expect(line).not.toContain(spelling);
    }
  });

  it('as the value of a parameter a refusal quotes', async () => {
    const response = await request(service.origin, `/v1/search/web?q=x&providers=local&time_range=${encodeURIComponent(METRICS_TOKEN)}`);
    expect(response.status).toBe(400);
    const lines = await linesOf(response.headers.get('x-request-id'), 'request rejected');
    expect(lines.find((line) => line.msg === 'request rejected')!.message).toBe('time_range: "[redacted]" is not allowed; allowed: "day", "week", "month", "year"');
    for (const line of service.logs) {
      for (const spelling of spellingsOf(METRICS_TOKEN)) expect(line).not.toContain(spelling);
    }
  });
});
