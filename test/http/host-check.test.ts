import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createHostRule, parseHostEntry } from '../../src/http/host-check.js';

describe('ALLOWED_HOSTS entries', () => {
  it.each([
    ['fedsearch.example.com', { name: 'fedsearch.example.com', withSubdomains: false, port: undefined }],
    ['FedSearch.Example.com:8443', { name: 'fedsearch.example.com', withSubdomains: false, port: '8443' }],
    ['.example.com', { name: 'example.com', withSubdomains: true, port: undefined }],
    ['.example.com:443', { name: 'example.com', withSubdomains: true, port: '443' }],
    ['fedsearch', { name: 'fedsearch', withSubdomains: false, port: undefined }],
    ['srv-captain--fedsearch', { name: 'srv-captain--fedsearch', withSubdomains: false, port: undefined }],
    ['my_service:8080', { name: 'my_service', withSubdomains: false, port: '8080' }],
    ['10.0.0.5:8080', { name: '10.0.0.5', withSubdomains: false, port: '8080' }],
    ['[fd00::5]:8080', { name: '[fd00::5]', withSubdomains: false, port: '8080' }],
    // Fully qualified: the same name.
    ['fedsearch.example.com.', { name: 'fedsearch.example.com', withSubdomains: false, port: undefined }],
    ['.example.com.:443', { name: 'example.com', withSubdomains: true, port: '443' }],
  ])('%s is %j', (raw, entry) => {
    expect(parseHostEntry(raw)).toEqual({ entry });
  });

  it.each([
    ['https://fedsearch.example.com', '"https://fedsearch.example.com" is a URL: give its host name only'],
    ['*.example.com', '"*.example.com": write .example.com for a domain and its subdomains'],
    ['fedsearch.example.com:', '"fedsearch.example.com:" has no valid port (1 to 65535)'],
    ['fedsearch.example.com:99999', '"fedsearch.example.com:99999" has no valid port (1 to 65535)'],
    ['fedsearch.example.com:http', '"fedsearch.example.com:http" has no valid port (1 to 65535)'],
    ['::1', '"::1": write an IPv6 address in brackets ([::1])'],
    ['[::1', '"[::1" is not a host name'],
    ['[not-ip]', '"[not-ip]" is not a host name'],
    ['fedsearch.example.com/path', '"fedsearch.example.com/path" is not a host name'],
    ['-bad.example.com', '"-bad.example.com" is not a host name'],
    ['a..example.com', '"a..example.com" is not a host name'],
    ['.', '"." is not a host name'],
    ['..', '".." is not a host name'],
    ['fedsearch.example.com..', '"fedsearch.example.com.." is not a host name'],
    ['999.1.1.1', '"999.1.1.1" is not a host name'],
  ])('%s is refused: %s', (raw, problem) => {
    expect(parseHostEntry(raw)).toEqual({ problem });
  });

  it('refuses start-up with every malformed entry named, and says what is allowed', () => {
    expect(() => loadConfig({ ALLOWED_HOSTS: 'fedsearch.example.com, *.example.com, https://x.example' })).toThrow(
      'Invalid configuration: ALLOWED_HOSTS: "*.example.com": write .example.com for a domain and its subdomains; "https://x.example" is a URL: give its host name only; give a comma list of host names, each with an optional :port (fedsearch.example.com, fedsearch.example.com:8443), .example.com for a domain and its subdomains, or * for any host',
    );
    expect(() => loadConfig({ ALLOWED_HOSTS: ' , ' })).toThrow('ALLOWED_HOSTS: no host given (unset it for the default)');
  });

  it('keeps the entries in lower case; unset or empty is undefined', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'Fedsearch.Example.com, .example.org:8443, *' }).ALLOWED_HOSTS).toEqual([
      'fedsearch.example.com',
      '.example.org:8443',
      '*',
    ]);
    expect(loadConfig({}).ALLOWED_HOSTS).toBeUndefined();
    expect(loadConfig({ ALLOWED_HOSTS: '' }).ALLOWED_HOSTS).toBeUndefined();
  });
});

describe('host rule', () => {
  const keyless = createHostRule(undefined, false)!;

  it.each([
    '127.0.0.1',
    '127.0.0.1:8080',
    '10.1.2.3:80',
    '0.0.0.0:8080',
    '255.255.255.255',
    'localhost',
    'LOCALHOST:3000',
    'localhost:8080',
    'app.localhost',
    'a.b.localhost:5173',
    '[::1]',
    '[::1]:8080',
    '[FD00::AB:1]:443',
    '[::ffff:127.0.0.1]:80',
  ])('always admits %s, with no list and no keys', (host) => {
    expect(keyless(host)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'attacker.example',
    'attacker.example:8080',
    'localhost.attacker.example',
    'localhostx',
    '.localhost',
    '.localhost.',
    // Written fully qualified, localhost may be asked of DNS, where a hostile resolver can rebind it.
    'localhost.',
    'LOCALHOST.:3000',
    'a.b.localhost.:5173',
    'localhost..',
    'localhost.:',
    '.',
    'attacker.example.',
    'localhost.attacker.example.',
    '127.0.0.1.nip.io',
    '127.0.0.1.attacker.example:8080',
    '256.0.0.1',
    '1.2.3',
    '1.2.3.4.5',
    '01234.1.1.1',
    '::1',
    '[::1',
    '[attacker.example]',
    '[::1]x',
    '127.0.0.1:',
    '127.0.0.1:80:80',
    '127.0.0.1:8o',
    '127.0.0.1:123456',
    ':8080',
  ])('refuses %s with no list and no keys', (host) => {
    expect(keyless(host)).toBe(false);
  });

  it('admits a listed host on any port, or on its port only', () => {
    const rule = createHostRule(['fedsearch.example.com', 'api.example.org:8443'], false)!;
    expect(rule('fedsearch.example.com')).toBe(true);
    expect(rule('fedsearch.example.com:8080')).toBe(true);
    expect(rule('FEDSEARCH.example.COM:8080')).toBe(true);
    expect(rule('api.example.org:8443')).toBe(true);
    expect(rule('api.example.org:9443')).toBe(false);
    expect(rule('api.example.org')).toBe(false);
    expect(rule('www.fedsearch.example.com')).toBe(false);
    expect(rule('fedsearch.example.co')).toBe(false);
    expect(rule('xfedsearch.example.com')).toBe(false);
    expect(rule('127.0.0.1:8080')).toBe(true);
  });

  it('admits a domain and its subdomains for a dot entry, and no look-alike', () => {
    const rule = createHostRule(['.example.com'], false)!;
    expect(rule('example.com')).toBe(true);
    expect(rule('search.example.com:8080')).toBe(true);
    expect(rule('a.b.example.com')).toBe(true);
    expect(rule('evilexample.com')).toBe(false);
    expect(rule('example.com.attacker.example')).toBe(false);
    expect(rule('.example.com')).toBe(false);
  });

  it('admits every Host (no rule at all) for *, and by default when API keys are required', () => {
    expect(createHostRule(['*'], false)).toBeUndefined();
    expect(createHostRule(['fedsearch.example.com', '*'], false)).toBeUndefined();
    expect(createHostRule(undefined, true)).toBeUndefined();
  });

  it('keeps a list when API keys are required too', () => {
    const rule = createHostRule(['fedsearch.example.com'], true)!;
    expect(rule('fedsearch.example.com')).toBe(true);
    expect(rule('attacker.example')).toBe(false);
  });
});
