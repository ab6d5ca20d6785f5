import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { checkFetchTarget, type HostResolver } from '../../src/fetch/fetch-target.js';

/** A resolver that knows only the given names, as a DNS server would answer for them. */
function resolver(records: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(promise: Promise<unknown>): Promise<FedsearchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FedsearchError);
  return error as FedsearchError;
}

describe('checkFetchTarget, the gate in front of every fetch engine', () => {
  it('passes a public name with every address it resolved to, and the URL in its normalised form', async () => {
    const lookup = resolver({ 'public.test': ['93.184.216.34', '2606:2800:220:1::1'] });
    const target = await checkFetchTarget('HTTP://Public.Test/a b?x=1', { lookup });
    expect(target.url.href).toBe('http://public.test/a%20b?x=1');
    expect(target.addresses.map((entry) => entry.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });

  it('refuses a name if any one of its addresses is forbidden', async () => {
    const lookup = resolver({ 'mixed.test': ['93.184.216.34', '169.254.169.254'] });
    const error = await refusal(checkFetchTarget('http://mixed.test/', { lookup }));
    expect(error.code).toBe('FETCH_FORBIDDEN');
    expect(error.message).toBe('refused: mixed.test resolves to a cloud metadata address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)');
  });

  it('refuses a name that does not resolve: what it would reach cannot be checked', async () => {
    const error = await refusal(checkFetchTarget('https://nowhere.test/', { lookup: resolver({}) }));
    expect(error.code).toBe('FETCH_FAILED');
    expect(error.message).toBe('could not resolve nowhere.test: no such host');
  });

  it('checks a literal as it will be dialled, without asking DNS', async () => {
    const lookup: HostResolver = async () => {
      throw new Error('DNS must not be asked for a literal');
    };
    const error = await refusal(checkFetchTarget('http://0x7f.1:6379/', { lookup }));
    expect(error.message).toBe('refused: 127.0.0.1 is a loopback address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)');
  });

  // The house form of a refusal: what is wrong, then what would pass, so a caller need not guess the rule.
  it.each([
    ['a scheme other than http(s)', 'ftp://files.test/paper.pdf', 'refused: ftp: URLs are not fetched; allowed: http and https URLs'],
    ['a user name and password', 'http://alice:Hunter2Secret@public.test/', 'refused: URLs with a user name or password are not fetched; allowed: http and https URLs without them'],
    [
      'a private literal address',
      'http://10.0.0.7/',
      'refused: 10.0.0.7 is a private address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)',
    ],
    [
      'a name resolving to loopback',
      'http://intranet.test/',
      'refused: intranet.test resolves to a loopback address; allowed: public addresses (FETCH_ALLOW_PRIVATE=true admits the others: tests and private deployments only)',
    ],
  ])('refuses %s saying what is allowed, never repeating user info', async (_label, url, message) => {
    const lookup = resolver({ 'public.test': ['93.184.216.34'], 'intranet.test': ['127.0.0.1'] });
    const error = await refusal(checkFetchTarget(url, { lookup }));
    expect(error.code).toBe('FETCH_FORBIDDEN');
    expect(error.message).toBe(message);
    expect(error.message).not.toMatch(/alice|Hunter2/);
  });

  it('lets everything through with allowPrivate (FETCH_ALLOW_PRIVATE), but still only http(s)', async () => {
    const lookup = resolver({ 'intranet.test': ['10.0.0.7'] });
    const target = await checkFetchTarget('http://intranet.test/', { lookup, allowPrivate: true });
    expect(target.addresses).toEqual([{ address: '10.0.0.7', family: 4 }]);
    const error = await refusal(checkFetchTarget('file:///etc/passwd', { allowPrivate: true }));
    expect(error.code).toBe('FETCH_FORBIDDEN');
  });
});
