import { describe, expect, it } from 'vitest';
import { hideUrlUserinfo } from '../../src/domain/url-userinfo.js';

describe('hideUrlUserinfo', () => {
  it.each([
    ['http://alice:s3cret@example.org/x.pdf', 'http://[redacted]@example.org/x.pdf'],
    ['https://alice@example.org', 'https://[redacted]@example.org'],
    // WHATWG reads the last @ of the authority as the end of the user information: "b@c:d" is all password.
    ['https://a:b@c:d@example.org/p', 'https://[redacted]@example.org/p'],
    ['http://alice:p%40ss@example.org/', 'http://[redacted]@example.org/'],
    // A URL in another URL's query, percent-encoded once, with upper- or lower-case hex.
    ['/v1/papers/download?url=http%3A%2F%2Falice%3As3cret%40example.org%2Fx.pdf', '/v1/papers/download?url=http%3A%2F%2F[redacted]%40example.org%2Fx.pdf'],
    ['?url=http%3a%2f%2falice%3ap%2540ss%40example.org%2fa%40b', '?url=http%3a%2f%2f[redacted]%40example.org%2fa%40b'],
    ['?url=http://alice:s3cret@example.org/x.pdf&id=1', '?url=http://[redacted]@example.org/x.pdf&id=1'],
    ['url: "http://alice:s3cret@exa mple.com/" is not a URL', 'url: "http://[redacted]@exa mple.com/" is not a URL'],
  ])('hides the credentials in %s', (text, hidden) => {
    expect(hideUrlUserinfo(text)).toBe(hidden);
  });

  it.each([
    'https://medium.com/@name/post',
    'http%3A%2F%2Fexample.org%2Fpath%40x',
    'https://example.org/search?q=a@b',
    'mailto:alice@example.org',
    'see https://example.org and write to alice@example.org',
    '/v1/search/web?q=plain',
  ])('leaves %s as it is: no @ ends a URL authority there', (text) => {
    expect(hideUrlUserinfo(text)).toBe(text);
  });
});
