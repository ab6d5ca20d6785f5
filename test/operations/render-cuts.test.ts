import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/engine/search-service.js';
import { renderLinks } from '../../src/operations/render-links.js';
import { renderSections } from '../../src/operations/render-sections.js';

/** A lone half of a surrogate pair: JSON carries it as `\udXXX`, and a client encoding the text as UTF-8 refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EMOJI = '\u{1F600}';

function response(snippet: string): SearchResponse {
  return {
    query: 'q',
    kind: 'web',
    results: [{ title: 'T', url: 'https://t.example/', snippet, sources: [{ provider: 'brave', rank: 1 }] } as SearchResponse['results'][number]],
    providers: [],
    page: 1,
    has_more: false,
    took_ms: 1,
    cached: false,
    cache_age_ms: 0,
  };
}

/** Texts cut to fit what a model reads: a cut never leaves half of a character written as two UTF-16 units. */
describe('cut texts of tool answers', () => {
  it("a page's link text, shortened to 80 characters", () => {
    const text = `${'a'.repeat(78)}${EMOJI}${'b'.repeat(20)}`;
    const rendered = renderLinks([{ text, url: 'https://link.example/' }]);
    expect(rendered).toContain(`- ${'a'.repeat(78)}…: https://link.example/`);
    expect(rendered).not.toMatch(LONE_SURROGATE);
  });

  it("a section cut to its share of the answer", () => {
    // Each snippet is within the 300 shown, and together they pass a section's share: the cut falls in their text.
    const snippet = `${EMOJI.repeat(149)}`;
    const sections = Array.from({ length: 60 }, (_, index) => ({ title: `S${index}`, response: response(snippet) }));
    const rendered = renderSections(sections);
    expect(rendered).toContain('…');
    expect(rendered).not.toMatch(LONE_SURROGATE);
  });
});
