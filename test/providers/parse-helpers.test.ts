import { describe, expect, it } from 'vitest';
import { htmlToText, isoDate, normalizeArxivId, normalizeDoi, normalizePmid, retryAfterMs, yearFrom } from '../../src/providers/parse-helpers.js';

describe('parse helpers', () => {
  it('reads the date forms upstreams send, in UTC whatever the server zone', () => {
    expect(isoDate('2024-05-02T10:00:00')).toBe('2024-05-02T10:00:00.000Z');
    expect(isoDate('2024-01-15 08:30:00')).toBe('2024-01-15T08:30:00.000Z');
    expect(isoDate('2018 Jun 19')).toBe('2018-06-19');
    expect(isoDate('2018 Jun')).toBe('2018-06');
    expect(isoDate('2020')).toBe('2020');
    expect(isoDate('Thu, 02 May 2024 10:00:00 GMT')).toBe('2024-05-02T10:00:00.000Z');
    expect(isoDate(1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(isoDate('2024-13-45')).toBeUndefined();
    expect(isoDate('yesterday')).toBeUndefined();
    expect(isoDate('')).toBeUndefined();
  });

  it('strips tags but keeps comparison signs in plain text', () => {
    expect(htmlToText('a <span class="searchmatch">b</span> &amp; c')).toBe('a b & c');
    expect(htmlToText('if a < b and c > d')).toBe('if a < b and c > d');
  });

  it('normalises identifiers', () => {
    expect(normalizeDoi('https://doi.org/10.1371/JOURNAL.PONE.0033693')).toBe('10.1371/journal.pone.0033693');
    expect(normalizeDoi('doi:10.1000/xyz')).toBe('10.1000/xyz');
    expect(normalizeDoi('not a doi')).toBeUndefined();
    expect(normalizeArxivId('http://arxiv.org/abs/1605.08386v1')).toBe('1605.08386');
    expect(normalizeArxivId('arXiv:hep-th/9901001v2')).toBe('hep-th/9901001');
    expect(normalizePmid(29915538)).toBe('29915538');
    expect(normalizePmid('PMC123')).toBeUndefined();
    expect(yearFrom('published 2019-03-01')).toBe(2019);
    expect(yearFrom(999)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
