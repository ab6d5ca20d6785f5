import { describe, expect, it } from 'vitest';
import { FedsearchError } from '../../src/domain/errors.js';
import { redactAndCut, redactedError, redactSecrets, secretSpellings } from '../../src/engine/redact.js';

const KEY = 'exa-key-0123456789abcdef0123456789abc';
const OTHER_KEY = 'yt-key-9876543210';

describe('redacting secrets from text', () => {
  it('replaces every whole secret with the marker, and leaves secrets under 4 characters alone', () => {
    expect(redactSecrets(`key ${KEY}, again ${KEY}; ${OTHER_KEY}`, [KEY, OTHER_KEY, 'abc'])).toBe('key [redacted], again [redacted]; [redacted]');
  });

  it('redacts before cutting: a key across the cut is hidden whole, not left in part', () => {
    const text = `${'x'.repeat(117)} invalid key ${KEY}`;
    expect(text.indexOf(KEY)).toBeLessThan(160);
    expect(text.length).toBeGreaterThan(160);
    expect(redactAndCut(text, 160, [KEY])).toBe(`${'x'.repeat(117)} invalid key [redacted]`);
  });

  it('masks a cut that ends inside the start of a secret (4 characters or more), whatever follows it', () => {
    // The upstream echoed the key mangled (no whole match), so only the cut can hide what is left of it.
    const text = `${'x'.repeat(150)}${KEY.slice(0, 20)}…`;
    expect(redactAndCut(text, 160, [OTHER_KEY, KEY])).toBe(`${'x'.repeat(150)}[redacted]`);
    // Three characters of a key are not masked: too common a string to say anything.
    expect(redactAndCut(`${'x'.repeat(157)}${KEY.slice(0, 20)}`, 160, [KEY])).toBe(`${'x'.repeat(157)}exa`);
  });

  it('leaves text under the limit as redaction alone leaves it', () => {
    expect(redactAndCut(`rejected ${KEY} (ends exa-)`, 160, [KEY])).toBe('rejected [redacted] (ends exa-)');
  });
});

describe('redacting secrets a URL carries encoded', () => {
  // Every character a query string escapes: `+`, `/`, `=`, a space, and a `%` of the key's own.
  const ODD_KEY = 'yt+key/with=odd chars%2F-0123';

  it('lists each secret raw, as encodeURIComponent and URLSearchParams write it, and with lower-case hex; longest first', () => {
    const spellings = secretSpellings([ODD_KEY, undefined, 'a+b']);
    expect(new Set(spellings)).toEqual(
      new Set([
        ODD_KEY,
        'yt%2Bkey%2Fwith%3Dodd%20chars%252F-0123',
        // Only the escapes are lower-cased: `2F` after `%25` is the key's own text.
        'yt%2bkey%2fwith%3dodd%20chars%252F-0123',
        'yt%2Bkey%2Fwith%3Dodd+chars%252F-0123',
        'yt%2bkey%2fwith%3dodd+chars%252F-0123',
      ]),
    );
    expect(spellings).toHaveLength(5);
    expect(spellings.map((spelling) => spelling.length)).toEqual([...spellings.map((spelling) => spelling.length)].sort((a, b) => b - a));
    // A secret under 4 characters is not hidden, however long its encoded spelling (`a%2Bb`) comes out.
    expect(spellings.some((spelling) => spelling.startsWith('a'))).toBe(false);
  });

  it('hides every spelling of a key in an echoed URL', () => {
    const echoed = [
      `GET /v3/search?q=x&key=yt%2Bkey%2Fwith%3Dodd+chars%252F-0123 failed`,
      `proxy saw key=yt%2bkey%2fwith%3dodd%20chars%252F-0123`,
      `decoded: ${ODD_KEY}.`,
    ].join('\n');
    expect(redactSecrets(echoed, secretSpellings([ODD_KEY]))).toBe(
      ['GET /v3/search?q=x&key=[redacted] failed', 'proxy saw key=[redacted]', 'decoded: [redacted].'].join('\n'),
    );
  });

  it('replaces a longer spelling before a shorter secret inside it, leaving none of it behind', () => {
    // `abcd` is inside `abcd+ef` (the form spelling of the other key): replaced first, it would leave `+ef`.
    expect(redactSecrets('sent key=abcd+ef and key=abcd', secretSpellings(['abcd', 'abcd ef']))).toBe('sent key=[redacted] and key=[redacted]');
  });

  it('masks a cut that ends inside the start of an encoded spelling', () => {
    // The upstream echoed the URL cut short (no whole spelling to match): the cut leaves `yt%2Bkey%2F`.
    const text = `${'x'.repeat(149)}yt%2Bkey%2Fwi…`;
    expect(redactAndCut(text, 160, secretSpellings([ODD_KEY]))).toBe(`${'x'.repeat(149)}[redacted]`);
  });
});

describe('redacting a long list of secrets (a large API key file)', () => {
  // 100 keys of 24 characters, five spellings for those that need encoding: past the list that is searched one by one.
  const keys = Array.from({ length: 100 }, (_, index) => `key+${String(index).padStart(3, '0')}/0123456789abcdef`);
  const spellings = secretSpellings(keys);

  it('hides each key in every spelling, wherever it sits, and leaves the rest of the text as it was', () => {
    const message = `GET /v1/search?q=a&api_key=${encodeURIComponent(keys[57]!)}&x=${keys[3]!} tail ${new URLSearchParams([['k', keys[99]!]])}`;
    expect(spellings.length).toBeGreaterThan(64);
    expect(redactSecrets(message, spellings)).toBe('GET /v1/search?q=a&api_key=[redacted]&x=[redacted] tail k=[redacted]');
    expect(redactSecrets('GET /v1/search?q=nothing+secret', spellings)).toBe('GET /v1/search?q=nothing+secret');
  });

  it('hides two secrets that overlap as one run, leaving no part of either', () => {
    const first = 'AAAAbbbbCCCC';
    const second = 'CCCCddddEEEE';
    const overlapping = [...spellings, first, second];
    expect(redactSecrets(`x AAAAbbbbCCCCddddEEEE y`, overlapping)).toBe('x [redacted] y');
  });
});

describe('a redacted copy of an error', () => {
  it('keeps the class, code and status, with message, stack and every cause redacted', () => {
    const socket = Object.assign(new Error(`socket closed while sending key=${KEY}`), { code: 'ECONNRESET', headers: { 'x-api-key': KEY } });
    const upstream = new FedsearchError('PROVIDER_HTTP', `HTTP 400: API key not valid: ${KEY}`, { upstreamStatus: 400, cause: socket });
    const copy = redactedError(upstream, [KEY]) as FedsearchError;

    expect(copy).toBeInstanceOf(FedsearchError);
    expect(copy).not.toBe(upstream);
    expect(copy).toMatchObject({ name: 'FedsearchError', code: 'PROVIDER_HTTP', upstreamStatus: 400, message: 'HTTP 400: API key not valid: [redacted]' });
    expect(copy.stack).toMatch(/^FedsearchError: HTTP 400: API key not valid: \[redacted\]\n/);
    const cause = copy.cause as Error & { code?: string; headers?: unknown };
    expect(cause).toMatchObject({ message: 'socket closed while sending key=[redacted]', code: 'ECONNRESET' });
    expect(cause.headers).toBeUndefined();
    expect(Object.keys(copy)).not.toContain('cause');
    // The original is left as it was: it may be shared with another caller.
    expect(upstream.message).toContain(KEY);
  });

  it('ends a cause chain at a bounded depth', () => {
    let error: Error = new Error(`innermost ${KEY}`);
    for (let level = 0; level < 20; level += 1) error = new Error(`level ${level}`, { cause: error });
    let depth = 0;
    for (let current = redactedError(error, [KEY]) as Error | undefined; current; current = current.cause as Error | undefined) depth += 1;
    expect(depth).toBe(9);
  });
});
