import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const scrapeBody = readFileSync(new URL('../fixtures/firecrawl/scrape-v2.json', import.meta.url), 'utf8');

/** The fixture's scrape, as Firecrawl answers when it followed no redirect: the page is where it was asked for. */
function scrapeLandingAt(url: string | undefined, markdown?: string): string {
  const body = JSON.parse(scrapeBody) as { data: { markdown: string; metadata: Record<string, unknown> } };
  delete body.data.metadata.sourceURL;
  if (url === undefined) delete body.data.metadata.url;
  else body.data.metadata.url = url;
  if (markdown !== undefined) body.data.markdown = markdown;
  return JSON.stringify(body);
}
const SCRAPE = '/firecrawl/v2/scrape';

function fetchUrl(service: RunningService, body: Record<string, unknown>) {
  return request(service.origin, '/v1/ops/fetch_url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * Firecrawl fetches from wherever it runs (a self-hosted one from this very network), so the address rules
 * of the direct fetcher must hold before a URL is handed to it: every spelling of a forbidden address is
 * refused here, and the fake Firecrawl never hears of it.
 */
describe('fetch_url applies the address policy before any engine', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  let permissive: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt(undefined) });
    upstream.on('/site/broken', { kind: 'respond', status: 500, body: 'down' });
    const env = { ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', LOG_LEVEL: 'silent' };
    service = await startService(env);
    permissive = await startService({ ...env, FETCH_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await service.stop();
    await permissive.stop();
    await upstream.stop();
  });

  const forbidden: Array<[string, RegExp]> = [
    ['http://127.0.0.1:6379/', /loopback/],
    ['http://[::1]/', /loopback/],
    ['http://169.254.169.254/latest/meta-data/iam/', /metadata/],
    ['http://10.1.2.3/admin', /private/],
    ['http://192.168.0.1/', /private/],
    ['http://2130706433/', /loopback/], // decimal 127.0.0.1
    ['http://0x7f000001/', /loopback/], // hex
    ['http://0x7f.1/', /loopback/], // hex, short form
    ['http://127.1/', /loopback/], // short form
    ['http://0251.0376.0251.0376/', /metadata/], // octal 169.254.169.254
    ['http://[::ffff:127.0.0.1]/', /loopback/], // IPv4-mapped IPv6
    ['http://[::ffff:a9fe:a9fe]/', /metadata/], // IPv4-mapped metadata address, in hex
    ['http://localhost:6379/', /localhost resolves to .*loopback/], // a name resolving to loopback
  ];

  for (const engine of ['firecrawl', 'auto'] as const) {
    it(`refuses every spelling of a forbidden address with engine ${engine}, and Firecrawl gets no request`, async () => {
      const before = upstream.requestsTo(SCRAPE).length;
      for (const [url, reason] of forbidden) {
        const response = await fetchUrl(service, { url, engine });
        const body = await response.json();
        expect({ url, status: response.status, code: body.code }).toEqual({ url, status: 400, code: 'FETCH_FORBIDDEN' });
        expect(body.message).toMatch(reason);
      }
      expect(upstream.requestsTo(SCRAPE).length).toBe(before);
    });
  }

  it('does not hand a name that does not resolve here to Firecrawl, in either mode', async () => {
    const before = upstream.requestsTo(SCRAPE).length;
    for (const engine of ['auto', 'firecrawl']) {
      const response = await fetchUrl(service, { url: 'http://no-such-host.invalid/page', engine });
      const body = await response.json();
      expect(response.status).toBe(502);
      expect(body).toMatchObject({ code: 'FETCH_FAILED' });
      expect(body.message).toMatch(/could not resolve no-such-host\.invalid/);
    }
    expect(upstream.requestsTo(SCRAPE).length).toBe(before);
  });

  it('hands a public address to Firecrawl as the URL that was checked', async () => {
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt('http://93.184.216.34/page?q=1') });
    // 1572395042 is 93.184.216.34 in decimal: Firecrawl gets the normalised form, the one that was checked.
    const response = await fetchUrl(service, { url: 'http://1572395042/page?q=1', engine: 'firecrawl' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ engine: 'firecrawl', title: 'Example page' });
    const sent = upstream.requestsTo(SCRAPE).at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({ url: 'http://93.184.216.34/page?q=1' });
  });

  it('lets FETCH_ALLOW_PRIVATE through to Firecrawl, and auto still falls back to it', async () => {
    const before = upstream.requestsTo(SCRAPE).length;
    const direct = await fetchUrl(permissive, { url: 'http://127.0.0.1:6379/', engine: 'firecrawl' });
    expect(direct.status).toBe(200);
    const fallback = await fetchUrl(permissive, { url: `${upstream.origin}/site/broken`, engine: 'auto' });
    expect(await fallback.json()).toMatchObject({ engine: 'firecrawl' });
    const sent = upstream.requestsTo(SCRAPE).slice(before).map((recorded) => JSON.parse(recorded.body).url);
    expect(sent).toEqual(['http://127.0.0.1:6379/', `${upstream.origin}/site/broken`]);
  });
});

/**
 * Firecrawl follows redirects itself: a public URL passes the check, then redirects Firecrawl to the metadata
 * endpoint or an intranet name. Where Firecrawl says it landed is checked like the URL it was given, and what it
 * read there is not handed on.
 */
describe('fetch_url refuses what Firecrawl read after a redirect to a forbidden address', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const landings: Array<[string, string, RegExp]> = [
    ['/metadata', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/role', /: 169\.254\.169\.254 is a cloud metadata address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['/loopback', 'http://[::ffff:7f00:1]:6379/', /: ::ffff:7f00:1 is a loopback address \(IPv4 127\.0\.0\.1 inside an IPv6 address\); allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['/intranet', 'http://intranet.invalid/admin', /: could not resolve intranet\.invalid: .*; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
  ];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  for (const [name, landing, reason] of landings) {
    it(`refuses a scrape that landed on ${landing}`, async () => {
      upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt(landing, 'INTERNAL-SECRET-TOKEN') });
      const before = upstream.requestsTo(SCRAPE).length;
      const response = await fetchUrl(service, { url: `http://93.184.215.14${name}`, engine: 'firecrawl' });
      const text = await response.text();
      expect(upstream.requestsTo(SCRAPE).length).toBe(before + 1);
      expect(text).not.toContain('INTERNAL-SECRET-TOKEN');
      expect(response.status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ code: 'FETCH_FORBIDDEN' });
      expect(JSON.parse(text).message).toMatch(reason);
    });
  }

  it('withholds a scrape that does not say where it landed: neither the address asked nor the page\'s og:url stands in', async () => {
    // Firecrawl's v2 scrape reports where it landed in metadata.url; without it, a redirect to 10.0.0.1 looks like
    // this too: sourceURL is what it was asked, og:url whatever the page wrote of itself.
    const body = JSON.parse(scrapeLandingAt(undefined, 'INTERNAL-SECRET-TOKEN')) as { data: { metadata: Record<string, unknown> } };
    body.data.metadata.sourceURL = 'http://93.184.215.14/unsaid';
    body.data.metadata.ogUrl = 'https://93.184.215.15/canonical';
    body.data.metadata['og:url'] = 'https://93.184.215.15/canonical';
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const before = upstream.requestsTo(SCRAPE).length;
    const response = await fetchUrl(service, { url: 'http://93.184.215.14/unsaid', engine: 'firecrawl' });
    const text = await response.text();
    expect(upstream.requestsTo(SCRAPE).length).toBe(before + 1);
    expect(text).not.toContain('INTERNAL-SECRET-TOKEN');
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ code: 'FETCH_FORBIDDEN' });
    expect(JSON.parse(text).message).toMatch(/did not say where it landed .*no http\(s\) metadata\.url.*; allowed: a scrape whose answer names a valid http\(s\) address it landed on \(metadata\.url\), or engine "direct", which reads the page here$/);
  });

  it('still serves a scrape that landed on another public address', async () => {
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt('https://93.184.215.15/moved') });
    const response = await fetchUrl(service, { url: 'http://93.184.215.14/page', engine: 'firecrawl' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ engine: 'firecrawl', final_url: 'https://93.184.215.15/moved' });
  });
});

/**
 * Firecrawl asks DNS for the host itself, after our check: a rebinding name answers a public address to the first
 * question and a private one to the next, so Firecrawl reads the intranet under the very name that passed. The
 * host is asked again once Firecrawl answers, even when it landed where it was sent, and a private answer now
 * withholds what it read.
 */
describe('fetch_url re-checks the host Firecrawl read, against DNS rebinding', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const questions: string[] = [];
  /** rebind.test: public to the first question, private after it; stable.test: always the same public address. */
  const resolveHost = async (hostname: string) => {
    questions.push(hostname);
    const asked = questions.filter((question) => question === hostname).length;
    if (hostname === 'stable.test' || (hostname === 'rebind.test' && asked === 1)) return [{ address: '93.184.215.14', family: 4 }];
    if (hostname === 'rebind.test') return [{ address: '10.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const env = { ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', LOG_LEVEL: 'silent' };
    service = await startService(env, undefined, { resolveHost });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('refuses what Firecrawl read when the name it landed on now resolves to a private address', async () => {
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt('http://rebind.test/admin', 'INTERNAL-SECRET-TOKEN') });
    const before = upstream.requestsTo(SCRAPE).length;
    const response = await fetchUrl(service, { url: 'http://rebind.test/admin', engine: 'firecrawl' });
    const text = await response.text();
    expect(upstream.requestsTo(SCRAPE).length).toBe(before + 1);
    expect(text).not.toContain('INTERNAL-SECRET-TOKEN');
    expect(response.status).toBe(400);
    const body = JSON.parse(text);
    expect(body.code).toBe('FETCH_FORBIDDEN');
    expect(body.message).toMatch(/rebind\.test no longer passes the address rules after Firecrawl read http:\/\/rebind\.test\/admin: rebind\.test resolves to a private address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/);
  });

  it('serves a scrape of a name that still resolves to the public address it had', async () => {
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt('http://stable.test/page') });
    const asked = questions.filter((question) => question === 'stable.test').length;
    const response = await fetchUrl(service, { url: 'http://stable.test/page', engine: 'firecrawl' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ engine: 'firecrawl', final_url: 'http://stable.test/page' });
    expect(questions.filter((question) => question === 'stable.test').length).toBe(asked + 2);
  });
});

/**
 * On an IPv6-only network with DNS64, every IPv4 host is reached through the network's own NAT64 prefix, and such an
 * address looks like any public IPv6 one. With FETCH_NAT64_PREFIXES the policy sees the IPv4 address the gateway
 * would reach: an intranet host behind it is refused, a public one still read.
 */
describe('fetch_url under the network\'s NAT64 prefix', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const resolveHost = async (hostname: string) => {
    if (hostname === 'intranet.test') return [{ address: '2a01:db9:64::a00:1', family: 6 }];
    if (hostname === 'public.test') return [{ address: '2a01:db9:64::5db8:d70e', family: 6 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(SCRAPE, { kind: 'respond', headers: { 'content-type': 'application/json' }, body: scrapeLandingAt('http://public.test/page') });
    const env = { ...providerEnv(upstream.origin), FIRECRAWL_API_KEY: 'fc-key-1234567890', FETCH_NAT64_PREFIXES: '2a01:db9:64::/96', LOG_LEVEL: 'silent' };
    service = await startService(env, undefined, { resolveHost });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it.each([
    ['http://[2a01:db9:64::a00:1]/admin', 'direct', /refused: 2a01:db9:64::a00:1 is a private address \(IPv4 10\.0\.0\.1 inside/],
    ['http://[2a01:db9:64::a9fe:a9fe]/latest/meta-data/', 'firecrawl', /a cloud metadata address \(IPv4 169\.254\.169\.254 inside/],
    ['http://intranet.test/admin', 'firecrawl', /refused: intranet\.test resolves to a private address/],
  ])('refuses %s (engine %s) before any engine hears of it', async (url, engine, message) => {
    const before = upstream.requestsTo(SCRAPE).length;
    const response = await fetchUrl(service, { url, engine });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('FETCH_FORBIDDEN');
    expect(body.message).toMatch(message);
    expect(upstream.requestsTo(SCRAPE).length).toBe(before);
  });

  it('hands on a name whose NAT64 address stands for a public IPv4 host', async () => {
    const before = upstream.requestsTo(SCRAPE).length;
    const response = await fetchUrl(service, { url: 'http://public.test/page', engine: 'firecrawl' });
    expect(response.status).toBe(200);
    expect(upstream.requestsTo(SCRAPE).length).toBe(before + 1);
  });
});

/**
 * A PDF's size is capped when it is fetched, not the text it holds: one content stream shown on many pages
 * reads as far more characters than the file has bytes. fetch_url reads at most FETCH_MAX_BYTES characters of it.
 */
describe('fetch_url reads a PDF up to FETCH_MAX_BYTES characters', () => {
  let upstream: FakeUpstream;
  let service: RunningService;
  const pdf = minimalPdf({ lines: Array.from({ length: 30 }, () => 'Lorem ipsum dolor sit amet, consectetur adipiscing elit sed.'), pages: 400 });
  const maxBytes = pdf.length + 1000;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on('/site/heavy.pdf', { kind: 'respond', headers: { 'content-type': 'application/pdf' }, body: pdf.toString('latin1') });
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', FETCH_MAX_BYTES: String(maxBytes), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('stops there and says so at the end of the text', async () => {
    const response = await fetchUrl(service, { url: `${upstream.origin}/site/heavy.pdf`, offset: maxBytes - 200, max_chars: 1000 });
    expect(response.status).toBe(200);
    const page = await response.json();
    expect(page.next_offset).toBeNull();
    expect(page.text).toMatch(new RegExp(`\\[Reading stopped at ${maxBytes} characters \\(FETCH_MAX_BYTES\\), at page \\d+ of 400; the rest of the PDF was not read\\.\\]$`));
    expect(page.total_chars).toBe(page.offset + page.text.length);
    expect(page.total_chars).toBeLessThan(maxBytes + 200);
  });
});
