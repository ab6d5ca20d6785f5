import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FedsearchError, type ErrorCode } from '../../src/domain/errors.js';
import { loadConfig } from '../../src/config.js';
import { safeFetch, type HostResolver } from '../../src/fetch/safe-fetch.js';
import { LoopbackSite } from './loopback-site.js';
import { minimalPdf } from './minimal-pdf.js';

const site = new LoopbackSite();

beforeAll(async () => {
  await site.start();
  site
    .serve('/ok', 'text/plain; charset=utf-8', 'reached')
    .serve('/page', 'text/html; charset=utf-8', '<html><title>Page</title><body><p>hello</p></body></html>')
    .serve('/image', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    .serve('/big', 'text/plain', 'x'.repeat(5000))
    .serve('/paper', 'application/octet-stream', minimalPdf({ lines: ['sniffed'] }))
    .serve('/blob', 'application/octet-stream', 'not a pdf at all')
    .serve('/untyped', undefined, '{"untyped": true}')
    .on('/big-chunked', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      for (let chunk = 0; chunk < 10; chunk += 1) response.write('y'.repeat(1000));
      response.end();
    })
    .on('/hang', () => undefined)
    .redirect('/to-private', 'http://10.0.0.1/secret')
    .redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/')
    .redirect('/to-file', 'file:///etc/passwd')
    .on('/to-loopback', (_request, response) => response.writeHead(302, { location: `${site.origin}/ok` }).end())
    .on('/to-localhost', (_request, response) => response.writeHead(301, { location: `http://localhost:${site.port}/ok` }).end())
    .on('/to-mapped', (_request, response) => response.writeHead(307, { location: `http://[::ffff:7f00:1]:${site.port}/ok` }).end())
    .on('/to-self', (_request, response) => response.writeHead(308, { location: `http://public.test:${site.port}/ok` }).end())
    .redirect('/to-unknown', 'http://intranet.test/admin');
  for (let hop = 1; hop <= 6; hop += 1) site.redirect(`/chain/${hop}`, hop === 6 ? '/ok' : `/chain/${hop + 1}`);
});

afterAll(async () => {
  await site.stop();
});

async function failure(promise: Promise<unknown>): Promise<FedsearchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FedsearchError);
  return error as FedsearchError;
}

async function expectFailure(promise: Promise<unknown>, code: ErrorCode, message: RegExp): Promise<FedsearchError> {
  const error = await failure(promise);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
  return error;
}

/** Resolves the given names as a DNS server would, counting the questions. */
function fakeResolver(records: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe('safeFetch with the default policy', () => {
  it.each([
    ['loopback IPv4', () => `${site.origin}/ok`, /^refused: 127\.0\.0\.1 is a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['loopback IPv6', () => `http://[::1]:${site.port}/ok`, /^refused: ::1 is a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['a private address', () => 'http://10.0.0.1/', /^refused: 10\.0\.0\.1 is a private address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', /^refused: 169\.254\.169\.254 is a cloud metadata address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['a decimal spelling', () => `http://2130706433:${site.port}/ok`, /^refused: 127\.0\.0\.1 is a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['a short spelling', () => `http://127.1:${site.port}/ok`, /^refused: 127\.0\.0\.1 is a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['a hex spelling', () => `http://0x7f.0.0.1:${site.port}/ok`, /^refused: 127\.0\.0\.1 is a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['IPv4-mapped IPv6, dotted', () => `http://[::ffff:127.0.0.1]:${site.port}/ok`, /loopback address \(IPv4 127\.0\.0\.1 inside an IPv6 address\); allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['IPv4-mapped IPv6, hex', () => `http://[::ffff:7f00:1]:${site.port}/ok`, /loopback address \(IPv4 127\.0\.0\.1 inside an IPv6 address\); allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
    ['a name resolving to loopback', () => `http://localhost:${site.port}/ok`, /^refused: localhost resolves to a loopback address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/],
  ])('refuses %s with a 400 naming the reason, before connecting', async (_label, url, message) => {
    const before = site.requestedPaths.length;
    const error = await expectFailure(safeFetch(url()), 'FETCH_FORBIDDEN', message);
    expect(error.httpStatus).toBe(400);
    expect(site.requestedPaths.length).toBe(before);
  });

  it('refuses a name that resolves to a private address', async () => {
    const lookup = fakeResolver({ 'example.test': ['10.0.0.1'] });
    await expectFailure(
      safeFetch('http://example.test/', { lookup }),
      'FETCH_FORBIDDEN',
      /^refused: example\.test resolves to a private address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/,
    );
    expect(lookup.calls).toEqual(['example.test']);
  });

  it('refuses a name when any one of its addresses is forbidden', async () => {
    const lookup = fakeResolver({ 'mixed.test': ['93.184.216.34', 'fd00:ec2::254'] });
    await expectFailure(safeFetch('https://mixed.test/', { lookup }), 'FETCH_FORBIDDEN', /^refused: mixed\.test resolves to a cloud metadata address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/file.txt', 'data:text/plain,hello', 'gopher://example.com/', 'javascript:alert(1)'])(
    'refuses the non-http URL %s',
    async (url) => {
      const error = await expectFailure(safeFetch(url), 'FETCH_FORBIDDEN', /^refused: [a-z]+: URLs are not fetched; allowed: http and https URLs$/);
      expect(error.message).toContain(new URL(url).protocol);
    },
  );

  it('refuses credentials in the URL and says a malformed URL is invalid', async () => {
    await expectFailure(safeFetch('http://user:secret@example.com/'), 'FETCH_FORBIDDEN', /^refused: URLs with a user name or password are not fetched; allowed: http and https URLs without them$/);
    await expectFailure(safeFetch('not a url'), 'QUERY_INVALID', /not a valid absolute URL/);
  });

  it('reports a name that does not resolve', async () => {
    await expectFailure(safeFetch('http://nowhere.test/', { lookup: fakeResolver({}) }), 'FETCH_FAILED', /could not resolve nowhere\.test: no such host/);
  });
});

describe('redirects under the default policy', () => {
  // public.test stands for a public site: it resolves to this loopback server and is exempt by name, so
  // every other hop goes through the production checks.
  const lookup = fakeResolver({ 'public.test': ['127.0.0.1'], localhost: ['127.0.0.1', '::1'] });
  const publicSite = (path: string) => safeFetch(`http://public.test:${site.port}${path}`, { lookup, allowPrivateHosts: ['public.test'] });

  it('follows a redirect between allowed hosts', async () => {
    const document = await publicSite('/to-self');
    expect(document.finalUrl).toBe(`http://public.test:${site.port}/ok`);
    expect(document.redirects).toEqual([`http://public.test:${site.port}/to-self`]);
    expect(document.body.toString()).toBe('reached');
  });

  // The refusal names the URL asked for and where it redirected: "refused: 10.0.0.1 is a private address" alone
  // read as if the caller had asked for 10.0.0.1.
  it.each([
    ['/to-private', 'http://10.0.0.1/secret', '10.0.0.1 is a private address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)'],
    ['/to-metadata', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)'],
    ['/to-loopback', 'http://127.0.0.1:PORT/ok', '127.0.0.1 is a loopback address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)'],
    ['/to-localhost', 'http://localhost:PORT/ok', 'localhost resolves to a loopback address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)'],
    ['/to-mapped', 'http://[::ffff:7f00:1]:PORT/ok', '::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1 inside an IPv6 address); allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)'],
  ])('re-checks the hop after %s and refuses it as a redirect to %s', async (path, target, reason) => {
    const before = site.requestedPaths.filter((requested) => requested === '/ok').length;
    const error = await failure(publicSite(path));
    expect(error.code).toBe('FETCH_FORBIDDEN');
    expect(error.message).toBe(`http://public.test:${site.port}${path} redirected to ${target.replace('PORT', String(site.port))}: refused, ${reason}`);
    expect(site.requestedPaths.filter((requested) => requested === '/ok').length).toBe(before);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const error = await failure(publicSite('/to-file'));
    expect(error.code).toBe('FETCH_FORBIDDEN');
    expect(error.message).toBe(`http://public.test:${site.port}/to-file redirected to file:///etc/passwd: refused, file: URLs are not fetched; allowed: http and https URLs`);
  });

  it('names a redirect to a name that does not resolve as where the redirect led', async () => {
    await expectFailure(
      publicSite('/to-unknown'),
      'FETCH_FAILED',
      new RegExp(`^http://public\\.test:${site.port}/to-unknown redirected to http://intranet\\.test/admin: could not resolve intranet\\.test: no such host$`),
    );
  });

  it('keeps the first hop\'s refusal as it was: no redirect was followed', async () => {
    await expectFailure(safeFetch('http://10.0.0.1/secret', { lookup }), 'FETCH_FORBIDDEN', /^refused: 10\.0\.0\.1 is a private address; allowed: public addresses \(FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only\)$/);
  });
});

describe('safeFetch with private addresses allowed (FETCH_ALLOW_PRIVATE=true)', () => {
  const allowed = { allowPrivate: true };

  it('fetches from the loopback server and reports the type and charset', async () => {
    const document = await safeFetch(`${site.origin}/page`, allowed);
    expect(document).toMatchObject({ status: 200, contentType: 'text/html', charset: 'utf-8', kind: 'html', redirects: [] });
    expect(document.body.toString()).toContain('<p>hello</p>');
  });

  it('connects to the address it checked, without asking DNS again', async () => {
    let answers = 0;
    const lookup: HostResolver = async () => {
      answers += 1;
      return [{ address: answers === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const document = await safeFetch(`http://rebind.test:${site.port}/ok`, { ...allowed, lookup });
    expect(document.body.toString()).toBe('reached');
    expect(answers).toBe(1);
  });

  it('follows 5 redirects and refuses a 6th', async () => {
    const five = await safeFetch(`${site.origin}/chain/2`, allowed);
    expect(five.redirects).toHaveLength(5);
    expect(five.finalUrl).toBe(`${site.origin}/ok`);
    await expectFailure(safeFetch(`${site.origin}/chain/1`, allowed), 'FETCH_FAILED', /too many redirects: more than 5 starting at .*\/chain\/1$/);
  });

  it('refuses an unsupported content type with a 415 naming it', async () => {
    const error = await expectFailure(safeFetch(`${site.origin}/image`, allowed), 'FETCH_UNSUPPORTED_TYPE', /is image\/png, which cannot be read as text/);
    expect(error.httpStatus).toBe(415);
  });

  it('stops at the size cap, declared or streamed', async () => {
    const declared = await expectFailure(
      safeFetch(`${site.origin}/big`, { ...allowed, maxBytes: 1024 }),
      'FETCH_TOO_LARGE',
      /larger than the 1024-byte limit \(FETCH_MAX_BYTES\); it declares 5000 bytes/,
    );
    expect(declared.httpStatus).toBe(413);
    await expectFailure(safeFetch(`${site.origin}/big-chunked`, { ...allowed, maxBytes: 2048 }), 'FETCH_TOO_LARGE', /reading stopped there/);
    const fits = await safeFetch(`${site.origin}/big-chunked`, { ...allowed, maxBytes: 10_000 });
    expect(fits.body.length).toBe(10_000);
  });

  it('gives up at the time cap', async () => {
    const error = await expectFailure(safeFetch(`${site.origin}/hang`, { ...allowed, timeoutMs: 300 }), 'FETCH_TIMEOUT', /took longer than 300 ms/);
    expect(error.httpStatus).toBe(504);
  });

  it('passes on the caller abort as it is', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${site.origin}/hang`, { ...allowed, signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('reports an HTTP error status', async () => {
    const error = await expectFailure(safeFetch(`${site.origin}/missing`, allowed), 'FETCH_FAILED', /answered HTTP 404$/);
    expect(error.details).toEqual({ status: 404 });
  });

  it('believes an octet-stream only when it is a PDF, and sniffs an undeclared type', async () => {
    expect(await safeFetch(`${site.origin}/paper`, allowed)).toMatchObject({ kind: 'pdf', contentType: 'application/pdf' });
    await expectFailure(safeFetch(`${site.origin}/blob`, allowed), 'FETCH_UNSUPPORTED_TYPE', /application\/octet-stream/);
    expect(await safeFetch(`${site.origin}/untyped`, allowed)).toMatchObject({ kind: 'json', contentType: 'application/json' });
  });
});

describe('the fetch settings', () => {
  it('reads FETCH_ALLOW_PRIVATE, FETCH_MAX_BYTES and FETCH_TIMEOUT_MS, refusing private by default', () => {
    expect(loadConfig({}).fetch).toEqual({ allowPrivate: false, nat64Prefixes: [], maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, readTimeoutMs: 45_000, callerLookupSlots: 1 });
    expect(loadConfig({ FETCH_ALLOW_PRIVATE: 'true', FETCH_MAX_BYTES: '2048', FETCH_TIMEOUT_MS: '500' }).fetch).toEqual({
      allowPrivate: true,
      nat64Prefixes: [],
      maxBytes: 2048,
      timeoutMs: 500,
      readTimeoutMs: 45_000,
      callerLookupSlots: 1,
    });
    expect(() => loadConfig({ FETCH_ALLOW_PRIVATE: 'maybe' })).toThrow(/FETCH_ALLOW_PRIVATE/);
  });
});
