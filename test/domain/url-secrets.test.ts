import { describe, expect, it } from 'vitest';
import { hideUrlSecrets, holdsNestedUrl } from '../../src/domain/url-secrets.js';

describe('hideUrlSecrets', () => {
  it.each([
    [
      'a signed S3 URL in a message, its other parameters kept',
      'could not fetch https://files.example/r.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1&X-Amz-Security-Token=IQo1&X-Amz-Signature=abc123: refused',
      'could not fetch https://files.example/r.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[redacted]&X-Amz-Security-Token=[redacted]&X-Amz-Signature=[redacted]: refused',
    ],
    [
      'a URL inside another URL\'s query, percent-encoded (hex in lower case too)',
      '/v1/papers/download?url=https%3a%2f%2ffiles.example%2fr.pdf%3fsig%3ds1%26v%3D2%26X-Goog-Signature%3dg2',
      '/v1/papers/download?url=https%3a%2f%2ffiles.example%2fr.pdf%3fsig%3d[redacted]%26v%3D2%26X-Goog-Signature%3d[redacted]',
    ],
    [
      'a URL given unencoded as another\'s value',
      '/v1/papers/download?url=https://files.example/r.pdf?access_token=a1&page=2',
      '/v1/papers/download?url=https://files.example/r.pdf?access_token=[redacted]&page=2',
    ],
    ['a name written with escapes or in another case', 'https://h.example/?Api%5FKey=k1&AUTH=k2', 'https://h.example/?Api%5FKey=[redacted]&AUTH=[redacted]'],
    ['a quoted URL cut short by a message', 'url: "https://h.example/r.pdf?token=tok-3e1f9..." is not a URL', 'url: "https://h.example/r.pdf?token=[redacted]..." is not a URL'],
    [
      "names a site gives its credentials, which end like a credential's",
      'could not fetch https://git.example/api?private_token=g1&api_token=a1&auth_token=t1&X-Subscription-Token=b1&access_key=k1&Subscription-Key=z1&app_secret=s1&oauth_signature=o1&db_password=p1: refused',
      'could not fetch https://git.example/api?private_token=[redacted]&api_token=[redacted]&auth_token=[redacted]&X-Subscription-Token=[redacted]&access_key=[redacted]&Subscription-Key=[redacted]&app_secret=[redacted]&oauth_signature=[redacted]&db_password=[redacted]: refused',
    ],
    [
      'a bearer token passed as a JSON Web Token, alone or named after what it is for',
      'could not fetch https://hub.example/.well-known/mercure?topic=news&jwt=eyJhbGciOi.e30.c2ln&auth_jwt=eyJ2: refused',
      'could not fetch https://hub.example/.well-known/mercure?topic=news&jwt=[redacted]&auth_jwt=[redacted]: refused',
    ],
    ['a user name and password as well', 'https://ann:pw@h.example/?sig=s1', 'https://[redacted]@h.example/?sig=[redacted]'],
    [
      "parameters after a `;` (read as `&` by many a site), and a path's session id",
      'could not fetch https://h.example/app;jsessionid=J1?x=1;token=t1&PHPSESSID=p1&ASP.NET_SessionId=a1&page=2: refused',
      'could not fetch https://h.example/app;jsessionid=[redacted]?x=1;token=[redacted]&PHPSESSID=[redacted]&ASP.NET_SessionId=[redacted]&page=2: refused',
    ],
    [
      "a `;` inside another URL's query, and a name percent-encoded there once more (api%255Fkey is the nested URL's api%5Fkey)",
      '/v1/papers/download?url=https%3A%2F%2Fh.example%2Fr.pdf%3Fx%3D1%3Btoken%3Dt1%26api%255Fkey%3Dk1%26v%3D2',
      '/v1/papers/download?url=https%3A%2F%2Fh.example%2Fr.pdf%3Fx%3D1%3Btoken%3D[redacted]%26api%255Fkey%3D[redacted]%26v%3D2',
    ],
    [
      "a URL in a URL in another's query: percent-encoded twice, a name's escape once more (api%25255Fkey is its api%5Fkey)",
      '/login?next=https%253A%252F%252Fh.example%252F%253Fapi_key%253DK1%2526v%253D2%253Bsig%253ds2%2526api%25255Fkey%253Dk3: refused',
      '/login?next=https%253A%252F%252Fh.example%252F%253Fapi_key%253D[redacted]%2526v%253D2%253Bsig%253d[redacted]%2526api%25255Fkey%253D[redacted]: refused',
    ],
    [
      // The separators encoded once are the middle URL's: its own parameters after the nested key are no part of it.
      'a URL encoded twice inside one encoded once: the middle URL\'s next parameters kept',
      '/v1/fetch?url=https%3A%2F%2Flogin.example%2F%3Freturn%3Dhttps%253A%252F%252Fh.example%252F%253Fapi_key%253DK1%26lang%3Den%3Bpage%3D2',
      '/v1/fetch?url=https%3A%2F%2Flogin.example%2F%3Freturn%3Dhttps%253A%252F%252Fh.example%252F%253Fapi_key%253D[redacted]%26lang%3Den%3Bpage%3D2',
    ],
    [
      'secret-named values of JSON quoted in a message, other values kept',
      'upstream answered 400: {"api_key":"abc1","q":"x","token": "t2", "page": 2}',
      'upstream answered 400: {"api_key":"[redacted]","q":"x","token": "[redacted]", "page": 2}',
    ],
    [
      "a literal's single quotes, and JSON quoted inside a JSON string",
      "sent {'access_token': 'x1', 'page': '2'} and {\\\"client_secret\\\":\\\"s3\\\",\\\"q\\\":\\\"y\\\"}",
      "sent {'access_token': '[redacted]', 'page': '2'} and {\\\"client_secret\\\":\\\"[redacted]\\\",\\\"q\\\":\\\"y\\\"}",
    ],
  ])('%s', (_case, text, hidden) => {
    expect(hideUrlSecrets(text)).toBe(hidden);
  });

  it.each([
    ['a search', '/v1/search/web?q=signed+urls&providers=brave'],
    ['parameters whose names only contain a secret\'s', 'https://h.example/?keyword=k&tokens=2&signature_version=4'],
    ['an empty secret parameter', 'https://h.example/?token=&q=x'],
    ['a `;` in a value before no secret', 'https://h.example/?q=a;b=c&session=2'],
    ['text with no URL', 'the page answered HTTP 404'],
    ['quoted values under names no credential has, and an empty secret', 'answered {"title": "token: abc", "keywords": "x", "key": ""}: the provider\'s answer'],
  ])('leaves %s as it is', (_case, text) => {
    expect(hideUrlSecrets(text)).toBe(text);
  });
});

describe('holdsNestedUrl', () => {
  it('finds a URL in a query, encoded or not, and nothing in a plain search', () => {
    expect(holdsNestedUrl('/v1/papers/download?url=https%3A%2F%2Fh.example%2Fa.pdf')).toBe(true);
    expect(holdsNestedUrl('/v1/papers/download?url=https://h.example/a.pdf')).toBe(true);
    expect(holdsNestedUrl('/login?next=https%253A%252F%252Fh.example%252F%253Fapi_key%253DK')).toBe(true);
    expect(holdsNestedUrl('/v1/search/web?q=token%3Dabc')).toBe(false);
  });
});
