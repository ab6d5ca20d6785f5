import { describe, expect, it } from 'vitest';
import { normalizeArxivId, readPaperIdentifier } from '../../src/domain/paper-identifiers.js';
import { identifierKeys } from '../../src/engine/paper-identity.js';
import { ArxivProvider } from '../../src/providers/arxiv.js';
import { makeProvider } from '../support/run-provider.js';

/**
 * An old-style arXiv id may be written with its subject class (`math.GT/0309136`), which is not part of the
 * identifier: arXiv's own id for that paper is `math/0309136` (its feed, its abs pages, "arXiv:math/0611800v2" as
 * the preferred form of `math.CA/0611800v2`). Kept and lower-cased, `math.gt/0309136` matched no other source's id
 * and named no arXiv paper when looked up.
 */
describe('old-style arXiv ids with a subject class', () => {
  it('reduces the id to archive and number, in any spelling', () => {
    expect(normalizeArxivId('math.GT/0309136')).toBe('math/0309136');
    expect(normalizeArxivId('arXiv:math.CA/0611800v2')).toBe('math/0611800');
    expect(normalizeArxivId('https://arxiv.org/abs/math.GT/0309136v1')).toBe('math/0309136');
    expect(normalizeArxivId('hep-th/9901001')).toBe('hep-th/9901001');
    expect(normalizeArxivId('cond-mat/0102536v1')).toBe('cond-mat/0102536');
  });

  it('merges a paper cited with its subject class with the arXiv record of it', () => {
    const fromArxiv = { title: 'The entropy formula for the Ricci flow', url: 'https://arxiv.org/abs/math/0211159', arxiv_id: normalizeArxivId('http://arxiv.org/abs/math/0211159v1') };
    const cited = { title: 'The entropy formula for the Ricci flow and its geometric applications', url: 'https://example.org/p', arxiv_id: normalizeArxivId('math.DG/0211159') };
    expect(identifierKeys(cited)).toEqual(identifierKeys(fromArxiv));
  });

  it('looks the paper up at arXiv by the id arXiv knows', () => {
    const identifier = readPaperIdentifier('arXiv:math.GT/0309136');
    expect(identifier).toEqual({ type: 'arxiv', value: 'math/0309136' });
    const lookup = makeProvider(ArxivProvider).buildLookupRequest(identifier!);
    expect(new URL(lookup!.url).searchParams.get('id_list')).toBe('math/0309136');
  });
});
