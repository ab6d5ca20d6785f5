import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, request, startService, type RunningService } from '../support/service.js';

type Line = { reqId?: string; msg?: string; message?: string; req?: { url?: string }; err?: { message?: string } };

/** A caller's credentials for another site, as signed and token URLs carry them: none is fedsearch's own. */
const SECRETS = {
  token: 'tok-3e1f9a77c2',
  signature: '9f86d081884c7d659a2feaa0c55ad015',
  credential: 'AKIAEXAMPLE7Q2/20261127/us-east-1/s3/aws4_request',
  sig: 'sv-2f6b1d04e8c3',
  accessToken: 'ya29.a0-access-93bd72c1',
  auth: 'auth-b81c5e6d02',
  privateToken: 'glpat-5Rk2xq9Lm3',
  apiToken: 'apitok-8d1e4c07',
  subscriptionToken: 'BSAsub-77e2a9f0',
  accessKey: 'akey-0c41e9b7d2',
  subscriptionKey: 'azsub-3b9f61c8e4',
  appSecret: 'appsec-6e0d2a91',
  javaSession: 'JSESS-4f0a9c21e7',
  phpSession: 'phpsess-9c2e71b0',
  apiKey: 'apikey-51d0e8a3c7',
} as const;

/** Every way a secret can sit in a log line: as written, or percent-encoded once or twice inside another URL. */
function spellingsOf(secret: string): string[] {
  const once = encodeURIComponent(secret);
  return [...new Set([secret, once, encodeURIComponent(once)])];
}

function expectNoSecretIn(lines: readonly string[]): void {
  for (const line of lines) {
    for (const secret of Object.values(SECRETS)) for (const spelling of spellingsOf(secret)) expect(line).not.toContain(spelling);
  }
}

/**
 * URLs a caller gives fedsearch to fetch (fetch_url's and paper_read's url, /v1/papers/download?url=) may carry the
 * caller's own credentials for that site in their query string. The caller's answer may quote its own URL; the
 * operator's log keeps the URL's scheme, host, path and other parameters, and writes [redacted] for those values.
 */
describe("a caller's credentials for another site, inside a URL it asks fedsearch to fetch", () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let nobody: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/files/missing.pdf', { kind: 'respond', status: 404, body: 'no such file' });
    upstream.on('/files/slow.pdf', { kind: 'hang' });
    nobody = await closedPort();
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  const linesOf = (id: string | null): Line[] => service.logs.map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === id);
  /** The request's lines, once its own line (written as its answer is done) is there. */
  async function loggedLines(id: string | null): Promise<Line[]> {
    await expect.poll(() => linesOf(id).some((line) => line.msg === 'request completed' || line.msg === 'request errored')).toBe(true);
    return linesOf(id);
  }

  const signedQuery = `token=${SECRETS.token}&X-Amz-Signature=${SECRETS.signature}&X-Amz-Credential=${encodeURIComponent(SECRETS.credential)}&page=2`;

  it.each([
    ['fetch_url', 'a connection refused (FETCH_FAILED)', () => `http://127.0.0.1:${nobody}/report.pdf?${signedQuery}`, 502, 'FETCH_FAILED'],
    ['fetch_url', 'an HTTP error (FETCH_FAILED)', () => `${upstream.origin}/files/missing.pdf?${signedQuery}`, 502, 'FETCH_FAILED'],
    ['paper_read', 'an HTTP error (FETCH_FAILED)', () => `${upstream.origin}/files/missing.pdf?${signedQuery}`, 502, 'FETCH_FAILED'],
  ])('%s failing with %s: the answer quotes the caller its URL, the log line redacts its credentials', async (operation, _case, url, status, code) => {
    const asked = url();
    const response = await callOperation(service, operation, { url: asked });
    const body = (await response.json()) as { code?: string; message?: string };
    expect({ status: response.status, code: body.code }).toEqual({ status, code });
    // The caller's own URL, which it wrote: nobody else reads this answer.
    expect(body.message).toContain(SECRETS.token);

    const lines = await loggedLines(response.headers.get('x-request-id'));
    const failure = lines.find((line) => line.msg === 'request failed');
    expect(failure?.err?.message).toMatch(/\/(report|missing)\.pdf\?token=\[redacted\]&X-Amz-Signature=\[redacted\]&X-Amz-Credential=\[redacted\]&page=2\b/);
    expectNoSecretIn(service.logs);
  });

  it('fetch_url failing with FETCH_TIMEOUT: the log line redacts the credentials its message quotes', async () => {
    const response = await callOperation(service, 'fetch_url', { url: `${upstream.origin}/files/slow.pdf?sig=${SECRETS.sig}&auth=${SECRETS.auth}`, timeout_ms: 300 });
    const body = (await response.json()) as { code?: string };
    expect({ status: response.status, code: body.code }).toEqual({ status: 504, code: 'FETCH_TIMEOUT' });
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.msg === 'request failed')?.err?.message).toContain('/files/slow.pdf?sig=[redacted]&auth=[redacted]');
    expectNoSecretIn(service.logs);
  });

  it('GET /v1/papers/download?url= logs the nested URL with its credentials redacted, its host, path and other parameters kept', async () => {
    const nested = `http://127.0.0.1:${nobody}/paper.pdf?access_token=${SECRETS.accessToken}&sig=${SECRETS.sig}&v=3`;
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(nested)}`);
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    const requestLine = lines.find((line) => line.req?.url !== undefined);
    expect(requestLine?.req?.url).toBe(
      `/v1/papers/download?url=http%3A%2F%2F127.0.0.1%3A${nobody}%2Fpaper.pdf%3Faccess_token%3D[redacted]%26sig%3D[redacted]%26v%3D3`,
    );
    expectNoSecretIn(service.logs);
  });

  it('GET /v1/papers/download?url= with the nested URL written unencoded: its credentials are redacted too', async () => {
    const response = await request(service.origin, `/v1/papers/download?url=http://127.0.0.1:${nobody}/paper.pdf?signature=${SECRETS.signature}`);
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(`/v1/papers/download?url=http://127.0.0.1:${nobody}/paper.pdf?signature=[redacted]`);
    expectNoSecretIn(service.logs);
  });

  /** Credentials under the names sites give them, which end like one's rather than being one of a few whole names. */
  const namedQuery =
    `private_token=${SECRETS.privateToken}&api_token=${SECRETS.apiToken}&X-Subscription-Token=${SECRETS.subscriptionToken}` +
    `&access_key=${SECRETS.accessKey}&subscription-key=${SECRETS.subscriptionKey}&app_secret=${SECRETS.appSecret}&page=2`;
  const namedRedacted =
    'private_token=[redacted]&api_token=[redacted]&X-Subscription-Token=[redacted]&access_key=[redacted]&subscription-key=[redacted]&app_secret=[redacted]&page=2';

  it("fetch_url failing: the log line redacts credentials under a site's own names (api_token, private_token, X-Subscription-Token, …)", async () => {
    const response = await callOperation(service, 'fetch_url', { url: `http://127.0.0.1:${nobody}/api/v4/projects?${namedQuery}` });
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.msg === 'request failed')?.err?.message).toContain(`/api/v4/projects?${namedRedacted}`);
    expectNoSecretIn(service.logs);
  });

  it("GET /v1/papers/download?url= logs a nested URL's credentials under a site's own names redacted", async () => {
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(`http://127.0.0.1:${nobody}/paper.pdf?${namedQuery}`)}`);
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(
      `/v1/papers/download?url=${encodeURIComponent(`http://127.0.0.1:${nobody}/paper.pdf?`)}${namedRedacted.replace(/=/g, '%3D').replace(/&/g, '%26')}`,
    );
    expectNoSecretIn(service.logs);
  });

  it("a refused url's message quotes the caller its URL, and the log line redacts its credentials", async () => {
    // Not a URL (a blank in its host): the refusal quotes what was sent, cut short, and says what is allowed.
    const response = await callOperation(service, 'fetch_url', { url: `https://files example/r.pdf?token=${SECRETS.token}` });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(`r.pdf?token=${SECRETS.token}`);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    const rejected = lines.find((line) => line.msg === 'request rejected');
    expect(rejected?.message).toContain('r.pdf?token=[redacted]');
    expectNoSecretIn(service.logs);
  });

  it("fetch_url failing: the log line redacts a session id and credentials after a `;` (a path's ;jsessionid=, a query's ;token=)", async () => {
    const asked = `http://127.0.0.1:${nobody}/app/report;jsessionid=${SECRETS.javaSession}?x=1;token=${SECRETS.token}&PHPSESSID=${SECRETS.phpSession}&page=2`;
    const response = await callOperation(service, 'fetch_url', { url: asked });
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.msg === 'request failed')?.err?.message).toContain('/app/report;jsessionid=[redacted]?x=1;token=[redacted]&PHPSESSID=[redacted]&page=2');
    expectNoSecretIn(service.logs);
  });

  it("GET /v1/papers/download?url= redacts a nested URL's parameter whose name is itself percent-encoded (api%5Fkey, sent as api%255Fkey)", async () => {
    const nested = `http://127.0.0.1:${nobody}/paper.pdf?api%5Fkey=${SECRETS.apiKey}&v=3`;
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(nested)}`);
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(
      `/v1/papers/download?url=${encodeURIComponent(`http://127.0.0.1:${nobody}/paper.pdf?`)}api%255Fkey%3D[redacted]%26v%3D3`,
    );
    expectNoSecretIn(service.logs);
  });

  it("GET /v1/papers/download?url= redacts the credential of a URL in the nested URL's query, there encoded twice", async () => {
    const nested = `http://127.0.0.1:${nobody}/login?next=${encodeURIComponent(`https://h.example/?api_key=${SECRETS.apiKey}&v=3`)}`;
    const response = await request(service.origin, `/v1/papers/download?url=${encodeURIComponent(nested)}`);
    expect(response.status).toBe(502);
    const lines = await loggedLines(response.headers.get('x-request-id'));
    expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(
      `/v1/papers/download?url=${encodeURIComponent(`http://127.0.0.1:${nobody}/login?next=`)}https%253A%252F%252Fh.example%252F%253Fapi_key%253D[redacted]%2526v%253D3`,
    );
    expectNoSecretIn(service.logs);
  });

  it('a request URL with a credential after a `#` or a `;` that follows another parameter: its line redacts it', async () => {
    for (const target of [`/nowhere?q=rust#api_key=${SECRETS.apiKey}`, `/nowhere?q=rust;access_token=${SECRETS.accessToken}`]) {
      const id = await requestAsWritten(service.origin, target);
      const lines = await loggedLines(id ?? null);
      expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toMatch(/^\/nowhere\?q=rust[#;](api_key|access_token)=\[redacted\]$/);
    }
    expectNoSecretIn(service.logs);
  });
  it("a request URL with a path's parameter before its query: the query's first credential is redacted, its search kept", async () => {
    // Read from the `;` to the next `&`, `v`'s value took in `?api_key=…`, logged whole; `;jsessionid=`'s took `?q=rust`.
    const cases = [
      [`/nowhere;v=1?api_key=${SECRETS.apiKey}&q=rust`, '/nowhere;v=1?api_key=[redacted]&q=rust'],
      [`/nowhere;jsessionid=${SECRETS.javaSession}?q=rust`, '/nowhere;jsessionid=[redacted]?q=rust'],
      // Inside the query a `?` is part of a value (Fastify reads this key as `apikey-…?…`): ending the value at it
      // logged the credential's end as it was.
      [`/nowhere?api_key=rest-of-key?${SECRETS.apiKey}&q=rust`, '/nowhere?api_key=[redacted]&q=rust'],
      [`/nowhere;v=1?q=rust&token=ab?${SECRETS.token}`, '/nowhere;v=1?q=rust&token=[redacted]'],
    ] as const;
    for (const [target, logged] of cases) {
      const id = (await request(service.origin, target)).headers.get('x-request-id');
      const lines = await loggedLines(id);
      expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(logged);
    }
    expectNoSecretIn(service.logs);
  });

  it('a credential whose value holds a `;` or a `#` is redacted whole: the parser ends a value only at `&`', async () => {
    // Fastify reads `token` as `ab;tok-…` and `ab#apikey-…`; ending the value at the `;` or `#`, as another parameter's
    // is ended to find a key after it, logged the credential's end.
    const cases = [
      [`/nowhere?q=rust&token=ab;${SECRETS.token}`, '/nowhere?q=rust&token=[redacted]'],
      [`/nowhere?api_key=ab#${SECRETS.apiKey}&q=rust`, '/nowhere?api_key=[redacted]&q=rust'],
      [`/nowhere?q=rust;access_token=ab;${SECRETS.accessToken}&page=2`, '/nowhere?q=rust;access_token=[redacted]&page=2'],
      // A search's own value keeps what it holds.
      ['/nowhere?q=a;b#c?d&page=2', '/nowhere?q=a;b#c?d&page=2'],
    ] as const;
    for (const [target, logged] of cases) {
      const lines = await loggedLines((await requestAsWritten(service.origin, target)) ?? null);
      expect(lines.find((line) => line.req?.url !== undefined)?.req?.url).toBe(logged);
    }
    expectNoSecretIn(service.logs);
  });
});

/** Sends `path` as written and resolves with the answer's request id: a fetch() would drop what follows a `#`. */
function requestAsWritten(origin: string, path: string): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    get({ hostname, port, path }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.headers['x-request-id'] as string | undefined));
    }).on('error', reject);
  });
}

describe('a configured API key that holds a `;`, sent in a request URL', () => {
  const key = 'fs-key;b7e20c94d1a85f36';
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: key });
  });
  afterAll(async () => {
    await service.stop();
  });

  it('is redacted whole from the line: the parameters\' redaction, which ends a value at a `;`, does not cut it in two first', async () => {
    const response = await request(service.origin, `/v1/providers?api_key=${key}`, { headers: { 'x-api-key': key } });
    const id = response.headers.get('x-request-id');
    await expect.poll(() => service.logs.some((line) => line.includes(`"reqId":"${id}"`) && line.includes('"req"'))).toBe(true);
    const line = service.logs.find((logged) => logged.includes(`"reqId":"${id}"`) && logged.includes('"req"'));
    expect(line).toContain('/v1/providers?api_key=[redacted]');
    expect(line).not.toContain(key.slice(key.indexOf(';') + 1));
  });
});
