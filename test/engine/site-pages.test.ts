import { describe, expect, it } from 'vitest';
import { canonicalFileUrl, canonicalUrl, parsedUrlIdentity } from '../../src/engine/canonical-url.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { distinctPdfLinks } from '../../src/engine/pdf-links.js';
import { rankResults } from '../../src/engine/rank.js';

/** Pages a site names by several URLs (site-pages.ts), and pages that only look alike. */
const samePage: Array<[string, string, string]> = [
  ['https://youtu.be/OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'YouTube’s short link'],
  ['https://youtu.be/OLdeHYobcDI?si=Hk3_qOmLZ9yYb2Xw', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'a share link’s si'],
  ['https://www.youtube.com/watch?v=OLdeHYobcDI&si=Hk3_qOmLZ9yYb2Xw', 'https://youtube.com/watch?v=OLdeHYobcDI', 'si on a watch link'],
  ['https://www.youtube.com/watch?v=OLdeHYobcDI&t=42s', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'the time a video starts at'],
  ['https://youtu.be/OLdeHYobcDI?t=42', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'a short link’s start time'],
  ['https://www.youtube.com/watch?feature=youtu.be&v=OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'feature says where it was shared from'],
  ['https://www.youtube.com/watch?v=OLdeHYobcDI&ab_channel=Veritasium', 'https://m.youtube.com/watch?v=OLdeHYobcDI', 'ab_channel'],
  ['https://www.youtube.com/shorts/OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'a short’s page'],
  ['https://www.youtube.com/embed/OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'an embedded player'],
  ['https://www.youtube.com/watch?v=OLdeHYobcDI&list=PL1234567890', 'https://youtu.be/OLdeHYobcDI?list=PL1234567890&si=x', 'a playlist’s video, through both links'],
  ['https://arxiv.org/abs/1706.03762v5', 'https://arxiv.org/abs/1706.03762', 'an arXiv paper’s version'],
  ['https://arxiv.org/pdf/1706.03762', 'https://arxiv.org/abs/1706.03762', 'its PDF'],
  ['https://arxiv.org/pdf/1706.03762v2', 'https://arxiv.org/abs/1706.03762v1', 'two versions’ PDF and abstract'],
  ['https://arxiv.org/pdf/1706.03762.pdf', 'http://export.arxiv.org/abs/1706.03762', 'the old PDF link and the export mirror'],
  ['https://arxiv.org/html/2401.00007v1', 'https://arxiv.org/abs/2401.00007', 'its HTML version'],
  ['https://arxiv.org/abs/hep-th/9711200v3', 'https://arxiv.org/abs/hep-th/9711200', 'an old-style id'],
  ['https://example.com/catalog/item;jsessionid=0A1B2C3D4E5F', 'https://example.com/catalog/item', 'a servlet’s session id'],
  ['https://example.com/catalog/item;jsessionid=0A1B2C3D4E5F?id=7', 'https://example.com/catalog/item?id=7', 'a session id before the query'],
  ['https://example.com/catalog/;jsessionid=0A1B2C3D4E5F', 'https://example.com/catalog/', 'a directory’s session id'],
  ['https://example.com/a%20b;jsessionid=0A1B2C3D4E5F', 'https://example.com/a b', 'through the parser'],
];

const differentPages: Array<[string, string, string]> = [
  ['https://youtu.be/OLdeHYobcDI', 'https://youtu.be/-WB0T0XmDrY', 'two videos'],
  ['https://youtu.be/OLdeHYobcDI', 'https://www.youtube.com/watch?v=-WB0T0XmDrY', 'two videos, two kinds of link'],
  ['https://www.youtube.com/watch?v=OLdeHYobcDI&list=PL1234567890', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'a playlist shows more than the video'],
  ['https://www.youtube.com/@veritasium', 'https://www.youtube.com/@veritasium?si=x', 'a channel’s page keeps what it is given'],
  ['https://music.youtube.com/watch?v=OLdeHYobcDI', 'https://www.youtube.com/watch?v=OLdeHYobcDI', 'YouTube Music is a site of its own'],
  ['https://vimeo.com/76979871?t=30', 'https://vimeo.com/76979871', 't on another site'],
  ['https://example.com/video?t=30', 'https://example.com/video', 't names a page elsewhere'],
  ['https://example.com/watch?si=1', 'https://example.com/watch', 'si elsewhere'],
  ['https://arxiv.org/abs/1706.03762', 'https://arxiv.org/abs/1706.03763', 'two arXiv papers'],
  ['https://arxiv.org/abs/hep-th/9711200', 'https://arxiv.org/abs/hep-ph/9711200', 'two archives'],
  ['https://arxiv.org/list/cs.CL/recent', 'https://arxiv.org/list/cs.LG/recent', 'listings'],
  ['https://notarxiv.org/abs/1706.03762', 'https://arxiv.org/abs/1706.03762', 'another host'],
  ['https://example.com/a;jsessionid=1/b', 'https://example.com/a/c', 'the rest of the path still counts'],
  ['https://example.com/a;version=2', 'https://example.com/a', 'another path parameter names a page'],
  ['https://example.com/a?x=1;jsessionid=2', 'https://example.com/a?x=1', 'a query’s own ;'],
];

describe('pages a site names by several URLs', () => {
  it.each(samePage)('%s and %s are one page: %s', (a, b) => {
    expect(canonicalUrl(a)).toBe(canonicalUrl(b));
    // The hot path and the parser agree on each.
    expect(canonicalUrl(a)).toBe(parsedUrlIdentity(a).key);
    expect(canonicalUrl(b)).toBe(parsedUrlIdentity(b).key);
  });

  it.each(differentPages)('%s and %s are two pages: %s', (a, b) => {
    expect(canonicalUrl(a)).not.toBe(canonicalUrl(b));
    expect(parsedUrlIdentity(a).key).not.toBe(parsedUrlIdentity(b).key);
  });

  it('merges one video from two providers into one result that shows a link a provider gave', () => {
    const entry = (provider: string, rank: number, url: string): RankedItem => ({ provider, rank, weight: 1, item: { title: `${provider} ${rank}`, url } });
    const results = rankResults(
      groupResults('web', [
        entry('youtube', 1, 'https://www.youtube.com/watch?v=OLdeHYobcDI'),
        entry('brave', 1, 'https://youtu.be/OLdeHYobcDI?si=Hk3_qOmLZ9yYb2Xw'),
        entry('exa', 1, 'https://arxiv.org/pdf/1706.03762v7'),
        entry('tavily', 1, 'https://arxiv.org/abs/1706.03762'),
        entry('searxng', 1, 'https://www.youtube.com/watch?v=-WB0T0XmDrY&t=10s'),
      ]),
    );
    expect(results.map((result) => result.sources.map((source) => source.provider).sort())).toEqual([['brave', 'youtube'], ['exa', 'tavily'], ['searxng']]);
    expect(results[0]!.url).toBe('https://www.youtube.com/watch?v=OLdeHYobcDI');
  });

  it('keeps an arXiv abstract page and its PDF two files: a paper\'s PDF links are what paper_read fetches', () => {
    expect(canonicalFileUrl('https://arxiv.org/abs/1706.03762')).not.toBe(canonicalFileUrl('https://arxiv.org/pdf/1706.03762'));
    const member = (provider: string, pdf_url: string): RankedItem => ({ provider, rank: 1, weight: 1, item: { title: 'Attention is all you need', url: 'https://arxiv.org/abs/1706.03762', pdf_url } });
    expect(distinctPdfLinks([member('openalex', 'https://arxiv.org/abs/1706.03762'), member('semanticscholar', 'https://arxiv.org/pdf/1706.03762')])).toEqual([
      'https://arxiv.org/abs/1706.03762',
      'https://arxiv.org/pdf/1706.03762',
    ]);
  });
});
