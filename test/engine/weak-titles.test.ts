import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle } from '../../src/engine/paper-identity.js';
import { agreeBeyondTitle, isWeakTitle } from '../../src/engine/weak-titles.js';

function paper(title: string, fields: Partial<ProviderItem> = {}): ProviderItem {
  return { title, url: `https://papers.example/${encodeURIComponent(title)}/${fields.doi ?? fields.venue ?? 'none'}`, ...fields };
}

/** The providers of each group, one provider per paper in the order given. */
function groupedProviders(items: ProviderItem[]): string[][] {
  const entries: RankedItem[] = items.map((item, index) => ({ provider: `p${index}`, rank: 1, weight: 1, item }));
  return groupResults('papers', entries).map((group) => group.map((member) => member.provider));
}

describe('which titles are too generic or too short to make one work alone', () => {
  it.each([
    'Editorial',
    'INTRODUCTION',
    'Chapter 1: Introduction',
    'Volume 12, Issue 3 — Contents',
    'Volume 12, Issue 3: Thank You to Our Reviewers',
    'Chapter 1: Introduction to the Special Issue',
    'Part II. In This Issue',
    'Letter to the Editor',
    'Letter to the editor regarding "Sepsis outcomes in older adults"',
    'Book Review: The Structure of Scientific Revolutions',
    'In This Issue',
    'Thank You to Our Reviewers',
    'Acknowledgments',
    'Deep learning',
    'News in brief',
    'Instructions for Authors',
    'Instructions to authors',
    'Information for authors',
    'Guide for Authors',
    'Inside Front Cover',
    'Inside back cover',
    'Table of Contents',
    'Masthead',
    'Cover Image',
    'Issue Information',
  ])('"%s" is weak', (title) => {
    expect(isWeakTitle(normalizeTitle(title))).toBe(true);
  });

  it.each(['Attention Is All You Need', 'Graph Attention Networks', 'An introduction to variational autoencoders', 'Editorial policies of open-access journals'])(
    '"%s" is not',
    (title) => {
      expect(isWeakTitle(normalizeTitle(title))).toBe(false);
    },
  );
});

describe('agreement beyond a weak title', () => {
  it('takes one family name in common, however the given names are written', () => {
    expect(agreeBeyondTitle(paper('Deep learning', { authors: ['Yann LeCun'] }), paper('Deep learning', { authors: ['Y. LeCun', 'G. Hinton'] }))).toBe(true);
  });

  it('refuses authors who all differ, even in one journal and year: two editors\' editorials', () => {
    const one = paper('Editorial', { authors: ['Roger Watson'], venue: 'Nursing Open', year: 2020 });
    const other = paper('Editorial', { authors: ['Ann Lee'], venue: 'Nursing Open', year: 2020 });
    expect(agreeBeyondTitle(one, other)).toBe(false);
  });

  it('takes one venue in one year when a side lists no author, and not a venue alone', () => {
    const crossref = paper('In this issue', { venue: 'JAMA', year: 2020, doi: '10.1001/jama.2020.0001' });
    expect(agreeBeyondTitle(crossref, paper('In This Issue.', { venue: 'jama', year: 2020, authors: ['Ann Lee'] }))).toBe(true);
    expect(agreeBeyondTitle(crossref, paper('In this issue', { venue: 'JAMA', year: 2021 }))).toBe(false);
    expect(agreeBeyondTitle(crossref, paper('In this issue', { venue: 'JAMA' }))).toBe(false);
    expect(agreeBeyondTitle(crossref, paper('In this issue', { venue: 'The Lancet', year: 2020 }))).toBe(false);
    expect(agreeBeyondTitle(paper('Editorial'), paper('Editorial'))).toBe(false);
  });
});

describe('grouping papers with weak titles', () => {
  it('keeps two reviews of one book by two reviewers apart, and merges one review found twice', () => {
    const book = 'Book review: The Structure of Scientific Revolutions';
    const items = [
      paper(book, { authors: ['Ann Lee'], venue: 'Isis', year: 1963, doi: '10.1086/349812' }),
      paper(book, { authors: ['Cy Diaz'], venue: 'Philosophy of Science', year: 1963 }),
      paper(`${book}.`, { authors: ['A. Lee'], year: 1963 }),
    ];
    expect(groupedProviders(items)).toEqual([['p0', 'p2'], ['p1']]);
  });

  it('keeps chapter introductions of two books apart when neither lists an author', () => {
    const items = [paper('Chapter 1. Introduction', { venue: 'Handbook of Coastal Ecology', year: 2021 }), paper('Chapter 1: Introduction', { venue: 'Advances in Graph Theory', year: 2021 })];
    expect(groupedProviders(items)).toEqual([['p0'], ['p1']]);
  });

  it('keeps the front matter of two journals apart: every issue of every journal has its "News in brief" and "Inside front cover"', () => {
    for (const title of ['News in brief', 'Instructions for authors', 'Inside front cover']) {
      const items = [paper(title, { venue: 'Nature Medicine', year: 2022 }), paper(title, { venue: 'The Lancet Oncology', year: 2022 })];
      expect(groupedProviders(items)).toEqual([['p0'], ['p1']]);
    }
  });

  it('still merges a specific title found twice with nothing else in common', () => {
    const items = [paper('Graph Attention Networks', { year: 2018 }), paper('Graph attention networks.', { authors: ['Petar Veličković'] })];
    expect(groupedProviders(items)).toEqual([['p0', 'p1']]);
  });
});
