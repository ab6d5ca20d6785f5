import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle, titleNotice } from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';

function entry(provider: string, item: ProviderItem): RankedItem {
  return { provider, rank: 1, weight: 1, item };
}

const PREPRINT: ProviderItem = {
  title: 'Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
  url: 'https://arxiv.org/abs/2010.13154',
  arxiv_id: '2010.13154',
  year: 2021,
};

describe('an erratum, a retraction or a reply is not the paper it names', () => {
  it.each([
    'Erratum: Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Correction to: Attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Retraction note: attention is all you need in speech separation with dual-path transformers for monaural mixtures',
    'Comment on "Attention is all you need in speech separation with dual-path transformers for monaural mixtures"',
  ])('keeps "%s" (its own DOI) apart from the preprint it names (an arXiv id only)', (title) => {
    const entries = [entry('arxiv', PREPRINT), entry('crossref', { title, url: 'https://doi.org/10.1000/notice', doi: '10.1000/notice', year: 2021 })];
    const results = rankResults(groupResults('papers', entries));
    // Merged, the preprint would carry the notice's DOI.
    expect(results).toHaveLength(2);
    expect(results.find((result) => result.arxiv_id === '2010.13154')?.doi).toBeUndefined();
  });

  it('still merges two sources of one erratum (one journal, one year), and the preprint with its journal version', () => {
    const entries = [
      entry('crossref', { title: 'Erratum: Attention is all you need in speech separation with dual-path transformers for monaural mixtures', url: 'https://doi.org/10.1000/e', doi: '10.1000/e', year: 2021, venue: 'Speech Letters' }),
      entry('openalex', { title: 'Erratum - attention is all you need in speech separation with dual-path transformers for monaural mixtures.', url: 'https://openalex.org/W1', year: 2021, venue: 'Speech letters.' }),
      entry('arxiv', PREPRINT),
      entry('crossref', { title: 'Attention Is All You Need In Speech Separation With Dual-Path Transformers For Monaural Mixtures', url: 'https://doi.org/10.1000/j', doi: '10.1000/j', year: 2021 }),
    ];
    expect(groupResults('papers', entries).map((group) => group.length)).toEqual([2, 2]);
  });
});

/** The sources of each merged result, one source per paper in the order given. */
function mergedSources(items: ProviderItem[]): string[][] {
  const entries = items.map((item, index) => entry(`p${index}`, item));
  return groupResults('papers', entries).map((group) => group.map((member) => member.provider));
}

const WORK = 'Attention is all you need in speech separation with dual-path transformers for monaural mixtures';

describe('a notice whose opening names what it is stays apart from the work it names', () => {
  it.each([
    `Notice of Retraction: ${WORK}`,
    `Editorial Expression of Concern: ${WORK}`,
    `Commentary: ${WORK}`,
    `Author's reply: ${WORK}`,
    `Authors' reply to "${WORK}"`,
    `Authors' response: ${WORK}`,
    `Retraction Note: ${WORK}`,
    `Reply to "${WORK}"`,
    `Response to: ${WORK}`,
    // A comment or a reply in the form a journal gives it, repeating the title it answers.
    `Letter: ${WORK}`,
    `In Reply: ${WORK}`,
    `Re: ${WORK}`,
    `RE : ${WORK}`,
    `Discussion: ${WORK}`,
    `Rebuttal: ${WORK}`,
    `Correspondence: ${WORK}`,
    // A discussion paper's rejoinder (statistics journals), plural forms, and a journal's note on an article.
    `Rejoinder: ${WORK}`,
    `Replies: ${WORK}`,
    `Addenda: ${WORK}`,
    `Editor's Note: ${WORK}`,
    `Editorial note: ${WORK}`,
    // A notice that names its kind after the title, as Cambridge journals do.
    `${WORK} – CORRIGENDUM`,
    `${WORK} - Erratum`,
    `${WORK}: Addendum`,
    // Its dash as plain text and TeX write one: two hyphens, or three.
    `${WORK} -- Erratum`,
    `${WORK} --- CORRIGENDUM`,
  ])('keeps "%s" apart from the work, neither carrying an identifier', (title) => {
    const work: ProviderItem = { title: WORK, url: 'https://papers.example/work', year: 2021, authors: ['Ann Lee'] };
    // The same authors and venue as the work, as a retraction notice often has: still two results.
    const notice: ProviderItem = { title, url: 'https://papers.example/notice', year: 2021, authors: ['Ann Lee'] };
    expect(mergedSources([work, notice])).toEqual([['p0'], ['p1']]);
  });
});

describe('two notices of one kind about one work merge by title only with more in common', () => {
  const comment = (authors: string[] | undefined, fields: Partial<ProviderItem> = {}): ProviderItem => ({
    title: `Comment on "${WORK}"`,
    url: `https://papers.example/comment/${authors?.join('-') ?? 'anonymous'}/${fields.venue ?? ''}`,
    year: 2021,
    ...(authors === undefined ? {} : { authors }),
    ...fields,
  });

  it('keeps two comments on one work by different authors apart', () => {
    expect(mergedSources([comment(['Bo Chen']), comment(['Cy Diaz'])])).toEqual([['p0'], ['p1']]);
  });

  it('keeps two "Author\'s reply" of different papers apart: the title names no work at all', () => {
    const reply = (authors: string[]): ProviderItem => ({ title: "Author's reply", url: `https://papers.example/reply/${authors[0]}`, year: 2020, authors });
    expect(mergedSources([reply(['Ann Lee']), reply(['Bo Chen'])])).toEqual([['p0'], ['p1']]);
  });

  it('merges one comment found twice: an author in common, or one venue in one year when a side lists no author', () => {
    expect(mergedSources([comment(['Bo Chen', 'Ann Lee']), comment(['B. Chen'])])).toEqual([['p0', 'p1']]);
    expect(mergedSources([comment(['Bo Chen'], { venue: 'Speech Letters' }), comment(undefined, { venue: 'speech letters' })])).toEqual([['p0', 'p1']]);
    expect(mergedSources([comment(['Bo Chen'], { venue: 'Speech Letters' }), comment(undefined, { venue: 'Other Letters' })])).toEqual([['p0'], ['p1']]);
  });

  it('merges a corrigendum named after the title only as a notice: one found twice, not two of two journals', () => {
    const corrigendum = (title: string, venue: string): ProviderItem => ({ title, url: `https://papers.example/${venue}/${title.length}`, year: 2021, venue });
    expect(mergedSources([corrigendum(`${WORK} – CORRIGENDUM`, 'Speech Letters'), corrigendum(`${WORK} - Corrigendum.`, 'speech letters')])).toEqual([['p0', 'p1']]);
    expect(mergedSources([corrigendum(`${WORK} – CORRIGENDUM`, 'Speech Letters'), corrigendum(`${WORK} - Corrigendum.`, 'Other Letters')])).toEqual([['p0'], ['p1']]);
  });

  it('still merges a notice with its work when they share an identifier: a DOI outweighs any title', () => {
    const work: ProviderItem = { title: WORK, url: 'https://papers.example/work', year: 2021, doi: '10.1000/shared' };
    const notice: ProviderItem = { title: `Erratum: ${WORK}`, url: 'https://papers.example/notice', year: 2021, doi: '10.1000/shared' };
    expect(mergedSources([work, notice])).toEqual([['p0', 'p1']]);
  });
});

describe('a research title that opens or ends like a notice ("Correction of…", "Response to…", "Letter recognition…", "Re-evaluation…", "… printing errata") is still one work', () => {
  it.each([
    ['Response to drought stress in wheat cultivars under field conditions', 'Response to Drought Stress in Wheat Cultivars Under Field Conditions.'],
    ['Correction of adolescent idiopathic scoliosis with posterior instrumentation', 'Correction of Adolescent Idiopathic Scoliosis With Posterior Instrumentation'],
    ['Letter recognition and reading fluency in children with developmental dyslexia', 'Letter Recognition and Reading Fluency in Children With Developmental Dyslexia.'],
    ['Discussion on the stability of slopes reinforced with anchored piles in soft clay', 'Discussion on the Stability of Slopes Reinforced With Anchored Piles in Soft Clay'],
    ['Correspondence analysis of species abundance in alpine meadow plant communities', 'Correspondence Analysis of Species Abundance in Alpine Meadow Plant Communities'],
    ['Re-evaluation of the diagnostic criteria for gestational diabetes in pregnant women', 'Reevaluation of the diagnostic criteria for gestational diabetes in pregnant women'],
    // Ending with a word a notice names itself with after the title, but as part of its last phrase, not set apart.
    ['On the evolution of printing errata in early modern European books and their errata', 'On the Evolution of Printing Errata in Early Modern European Books and Their Errata.'],
    ['A catalogue of medieval manuscript marginalia, glosses and scribal addenda', 'A Catalogue of Medieval Manuscript Marginalia, Glosses and Scribal Addenda'],
  ])('merges "%s" found twice without authors or venue', (title, otherSpelling) => {
    const items: ProviderItem[] = [
      { title, url: 'https://papers.example/one', year: 2020 },
      { title: otherSpelling, url: 'https://papers.example/other', year: 2020 },
    ];
    expect(mergedSources(items)).toEqual([['p0', 'p1']]);
  });

  it('keeps two responses to comments on one work apart when their authors differ', () => {
    const response = (author: string): ProviderItem => ({ title: `Response to comment on "${WORK}"`, url: `https://papers.example/${author}`, year: 2021, authors: [author] });
    expect(mergedSources([response('Ann Lee'), response('Bo Chen')])).toEqual([['p0'], ['p1']]);
  });
});

describe('a dataset or a notice known by its signs ("Data from: …", "… [Retraction]") is not the paper it names', () => {
  it.each([
    // Dryad's and other repositories' name for a paper's dataset, and the label some give it after the title.
    `Data from: ${WORK}`,
    `${WORK} (dataset)`,
    `${WORK} (Data Set)`,
    `Response: ${WORK}`,
    `${WORK}: a reply`,
    `${WORK} [Retraction]`,
  ])('keeps "%s" apart from the work, with the same authors and year', (title) => {
    const work: ProviderItem = { title: WORK, url: 'https://papers.example/work', year: 2021, authors: ['Ann Lee'] };
    const other: ProviderItem = { title, url: 'https://papers.example/other', year: 2021, authors: ['Ann Lee'] };
    expect(mergedSources([work, other])).toEqual([['p0'], ['p1']]);
  });

  it('still merges one dataset found twice (one author in common)', () => {
    const dataset = (title: string, url: string): ProviderItem => ({ title, url, year: 2021, authors: ['Ann Lee'] });
    expect(mergedSources([dataset(`Data from: ${WORK}`, 'https://datadryad.example/a'), dataset(`Data from: ${WORK.toUpperCase()}`, 'https://data.example/b')])).toEqual([['p0', 'p1']]);
  });

  it.each([
    ['Data from the Framingham heart study on blood pressure in ageing adults', 'Data From the Framingham Heart Study on Blood Pressure in Ageing Adults.'],
    ['Eyelid retraction in thyroid eye disease treated with botulinum toxin injections', 'Eyelid Retraction in Thyroid Eye Disease Treated With Botulinum Toxin Injections'],
    ['Response of maize yield to nitrogen fertiliser under conservation tillage', 'Response of Maize Yield to Nitrogen Fertiliser Under Conservation Tillage'],
  ])('still merges the research title "%s" found twice without authors or venue', (title, otherSpelling) => {
    const items: ProviderItem[] = [
      { title, url: 'https://papers.example/one', year: 2020 },
      { title: otherSpelling, url: 'https://papers.example/other', year: 2020 },
    ];
    expect(mergedSources(items)).toEqual([['p0', 'p1']]);
  });
});

describe('a notice naming its kind after the title, however the title is set apart from it, is read as that notice', () => {
  /** A title's notice reading, as paper grouping reads it. */
  const noticeOf = (title: string) => titleNotice(title, normalizeTitle(title));

  // Compared with the notice that opens with the same word: a closing word is of the kind of the same opening. Read
  // directly, as a merge with the work keeps some of these apart for other reasons even unread.
  it.each([
    [`${WORK}：Erratum`, `Erratum: ${WORK}`],
    [`${WORK} ： Corrigendum`, `Corrigendum: ${WORK}`],
    [`${WORK} − Erratum`, `Erratum: ${WORK}`],
    [`${WORK} − ADDENDUM.`, `Addendum: ${WORK}`],
    [`${WORK}. Erratum`, `Erratum: ${WORK}`],
    [`${WORK}. CORRIGENDUM.`, `Corrigendum: ${WORK}`],
    [`${WORK} ERRATUM`, `Erratum: ${WORK}`],
    [`${WORK} CORRIGENDA`, `Corrigenda: ${WORK}`],
    // Brackets in their full-width forms, as titles set in CJK fonts write them.
    [`${WORK} （Erratum）`, `Erratum: ${WORK}`],
    [`${WORK}（Corrigendum）.`, `Corrigendum: ${WORK}`],
    [`${WORK}【Erratum】`, `Erratum: ${WORK}`],
    [`${WORK} ［ADDENDUM］`, `Addendum: ${WORK}`],
  ])('reads "%s" as certainly a notice of the kind of "%s"', (title, opened) => {
    expect(noticeOf(opened)).toMatchObject({ certain: true });
    expect(noticeOf(title)).toEqual({ kind: noticeOf(opened).kind, certain: true });
  });

  it.each([
    // The full stop of an abbreviation ends no sentence; a comma ends a list's last item; a minus sign joining words
    // is no dash; a title all in capitals, or in title case, does not set its last word apart.
    'A comparison of printing misprints vs. errata',
    'Tables of misprints cf. Errata',
    'Medieval manuscript marginalia, glosses, addenda',
    'Medieval manuscript glosses−addenda',
    'Medieval manuscript glosses−Addenda',
    'ON THE EVOLUTION OF PRINTING ERRATA',
    'On the Evolution of Printing Errata',
  ])('reads the research title "%s" as no notice', (title) => {
    expect(noticeOf(title)).toEqual({ kind: 0, certain: false });
  });
});
