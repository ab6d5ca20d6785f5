import { describe, expect, it } from 'vitest';
import { WikipediaProvider } from '../../src/providers/wikipedia.js';
import { wikipediaEditionCode, wikipediaEditionOf, wikipediaEditionOrigin } from '../../src/providers/wikipedia-language.js';
import { makeProvider, makeQuery, response } from '../support/run-provider.js';

/** One page of list=search (https://www.mediawiki.org/wiki/API:Search), with only what the adapter reads. */
const onePage = JSON.stringify({ query: { search: [{ title: 'Rangfusion', snippet: 'Treffer', timestamp: '2024-03-01T12:00:00Z' }] } });

describe("a Wikipedia language edition's origin", () => {
  it.each([
    ['de', 'https://de.wikipedia.org'],
    ['DE', 'https://de.wikipedia.org'],
    ['pt-BR', 'https://pt.wikipedia.org'],
    ['zh-Hans', 'https://zh.wikipedia.org'],
    // Norwegian Bokmål's wiki is no.wikipedia.org (https://meta.wikimedia.org/wiki/List_of_Wikipedias).
    ['nb', 'https://no.wikipedia.org'],
    // Hebrew's withdrawn ISO 639 code, as Java's Locale still writes it.
    ['iw', 'https://he.wikipedia.org'],
  ])('%s is asked at %s', (language, origin) => {
    expect(wikipediaEditionOrigin(language)).toBe(origin);
  });

  it('builds no host from what is not the code of a Wikipedia: neither other text nor a made-up code', () => {
    for (const language of ['', 'deu', 'd', 'd.', 'evil.com/', 'de.evil', '../x', 'ü1', 'x@y', 'qq', 'xx-DE', 'ae']) {
      expect(wikipediaEditionCode(language), language).toBeUndefined();
    }
    expect(wikipediaEditionOrigin('evil.example#')).toBeUndefined();
  });

  it('takes only a base URL that is an edition itself, on https at its root', () => {
    expect(wikipediaEditionOf('https://en.wikipedia.org')).toBe('en');
    expect(wikipediaEditionOf('https://de.wikipedia.org/')).toBe('de');
    for (const other of [
      'http://en.wikipedia.org',
      'https://en.wikipedia.org:8443',
      'https://en.wikipedia.org/mirror',
      'https://en.wikipedia.org.example.com',
      'https://simple.wikipedia.org',
      'https://en.m.wikipedia.org',
      'https://wiki.example.org',
      'http://127.0.0.1:8080/wikipedia',
    ]) {
      expect(wikipediaEditionOf(other), other).toBeUndefined();
    }
  });
});

describe('the wikipedia adapter and a search language', () => {
  it('asks the edition in the language, with the same API path, from the default base URL (not sent)', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.filterProblem?.({ language: 'de' })).toBeUndefined();
    const url = new URL(provider.buildRequest(makeQuery('rank fusion', 'web', 3, { language: 'de' })).url);
    expect(url.origin).toBe('https://de.wikipedia.org');
    expect(url.pathname).toBe('/w/api.php');
    expect(url.searchParams.get('srsearch')).toBe('rank fusion');
    expect(new URL(provider.buildRequest(makeQuery('q', 'web', 3, { language: 'pt-BR' })).url).origin).toBe('https://pt.wikipedia.org');
  });

  it('is skipped for a language Wikipedia has no edition in, rather than send it to a wiki that is not there, saying so', () => {
    expect(makeProvider(WikipediaProvider).filterProblem?.({ language: 'qq' })).toBe('has no edition in qq');
    // The language, without its region: the edition would be chosen by it.
    expect(makeProvider(WikipediaProvider).filterProblem?.({ language: 'ae-IR' })).toBe('has no edition in ae');
  });

  it('asks the configured edition for its own language and for none', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.filterProblem?.({ language: 'en' })).toBeUndefined();
    expect(new URL(provider.buildRequest(makeQuery('q', 'web', 3, { language: 'en' })).url).origin).toBe('https://en.wikipedia.org');
    expect(new URL(provider.buildRequest(makeQuery('q')).url).origin).toBe('https://en.wikipedia.org');
  });

  it('links articles on the wiki asked', () => {
    const provider = makeProvider(WikipediaProvider);
    expect(provider.parseResponse(response(onePage), makeQuery('q', 'web', 3, { language: 'de' }))).toEqual({
      items: [{ title: 'Rangfusion', url: 'https://de.wikipedia.org/wiki/Rangfusion', snippet: 'Treffer', extra: { last_edited: '2024-03-01T12:00:00.000Z' } }],
    });
  });

  it('applies, on a site outside wikipedia.org, only the language configured for it', () => {
    const site = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: 'https://wiki.example.org', WIKIPEDIA_LANGUAGE: 'DE' });
    expect(site.filterProblem?.({ language: 'de' })).toBeUndefined();
    expect(site.filterProblem?.({ language: 'de-AT' })).toBeUndefined();
    expect(site.filterProblem?.({ language: 'fr' })).toBe('searches in de only: WIKIPEDIA_LANGUAGE=de');
    expect(new URL(site.buildRequest(makeQuery('q', 'web', 3, { language: 'de' })).url).origin).toBe('https://wiki.example.org');
    const unset = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: 'https://wiki.example.org' });
    expect(unset.filterProblem?.({ language: 'en' })).toBe("cannot tell its site's language: WIKIPEDIA_LANGUAGE is not set");
    expect(unset.filterProblem?.({})).toBeUndefined();
  });

  it('keeps an edition with a language configured on it, asking it only in that language', () => {
    // Beside the built-in instance, a de.wikipedia.org entry without it would ask fr.wikipedia.org for French too.
    const german = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: 'https://de.wikipedia.org', WIKIPEDIA_LANGUAGE: 'de' });
    expect(german.filterProblem?.({ language: 'fr' })).toBe('searches in de only: WIKIPEDIA_LANGUAGE=de');
    expect(german.filterProblem?.({ language: 'de-CH' })).toBeUndefined();
    expect(new URL(german.buildRequest(makeQuery('q', 'web', 3, { language: 'de' })).url).origin).toBe('https://de.wikipedia.org');
    // Norwegian Bokmål is the edition `no`'s language, here as there.
    const norwegian = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: 'https://wiki.example.org', WIKIPEDIA_LANGUAGE: 'no' });
    expect(norwegian.filterProblem?.({ language: 'nb' })).toBeUndefined();
  });

  it('refuses a configured language that is not two letters, saying what is allowed', () => {
    expect(() => makeProvider(WikipediaProvider, { WIKIPEDIA_LANGUAGE: 'deutsch' })).toThrow(/WIKIPEDIA_LANGUAGE.*a two-letter language code such as de/);
  });

  it('reads a blank language as unset, as every blank provider setting is (an empty KEY= line in an .env file)', () => {
    const site = makeProvider(WikipediaProvider, { WIKIPEDIA_BASE_URL: 'https://wiki.example.org', WIKIPEDIA_LANGUAGE: '   ' });
    expect(site.filterProblem?.({ language: 'de' })).toBe("cannot tell its site's language: WIKIPEDIA_LANGUAGE is not set");
    expect(site.filterProblem?.({})).toBeUndefined();
  });
});
