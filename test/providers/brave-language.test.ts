import { describe, expect, it } from 'vitest';
import { BraveProvider } from '../../src/providers/brave.js';
import { useFakeUpstream } from '../support/fake-upstream.js';
import { makeProvider, makeQuery, runProvider } from '../support/run-provider.js';

/**
 * Brave's `search_lang` takes its own codes, in lower case (`pt-br`, `en-gb`, `zh-hans`, `jp` for Japanese, `nb`
 * for Norwegian) and refuses anything else with a 422: `language=pt-BR`, the example the API documents, or `ja`
 * turned every Brave search into an error.
 */
describe('brave search_lang', () => {
  const upstream = useFakeUpstream();

  it.each([
    ['pt-BR', 'pt-br'],
    ['en-GB', 'en-gb'],
    ['en-US', 'en'],
    ['de-AT', 'de'],
    ['ja', 'jp'],
    ['zh', 'zh-hans'],
    ['zh-CN', 'zh-hans'],
    ['zh-TW', 'zh-hant'],
    ['no', 'nb'],
    ['fr', 'fr'],
  ])('sends language %s as Brave code %s', async (language, expected) => {
    upstream.json('GET /brave/res/v1/web/search', { type: 'search', web: { results: [{ title: 'A', url: 'https://example.org/a' }] } });
    const provider = makeProvider(BraveProvider, { BRAVE_API_KEY: 'k', BRAVE_BASE_URL: `${upstream.origin}/brave` });
    await runProvider(provider, makeQuery('rank fusion', 'web', 1, { language }));
    expect(upstream.requestsTo('/brave/res/v1/web/search').at(-1)!.url.searchParams.get('search_lang')).toBe(expected);
  });
});
