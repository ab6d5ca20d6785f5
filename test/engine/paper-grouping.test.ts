import fc from 'fast-check';
import stringSimilarity from 'string-similarity';
import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { identifierKeys, normalizeTitle, TITLE_OPENING_WORDS } from '../../src/engine/paper-identity.js';
import { titlesAddAWord } from '../../src/engine/added-words.js';
import { titlesReplaceAWord } from '../../src/engine/replaced-words.js';
import { agreeBeyondTitle, isWeakTitle } from '../../src/engine/weak-titles.js';

/**
 * Paper grouping on crowded title blocks, where its shortcuts (bigrams counted once per title, blocks found
 * without splitting, a length bound before counting) could change which pairs merge.
 */

const CAP = 32;

/**
 * The rule on its own terms: union by shared identifier, then title comparisons inside blocks, at most CAP per
 * block, refused when the two sets hold different identifiers of one kind (as identifierKeys spells them).
 */
function referenceGroups(entries: RankedItem[]): number[][] {
  const label = entries.map((_, index) => index);
  // Per root: every identifier key ("doi:…", "arxiv:…", "pmid:…") of its set's members.
  const keysOfRoot = entries.map((entry) => new Set(identifierKeys(entry.item)));
  const find = (index: number): number => (label[index] === index ? index : find(label[index]!));
  const union = (a: number, b: number): void => {
    const [rootA, rootB] = [find(a), find(b)];
    if (rootA === rootB) return;
    const [root, child] = [Math.min(rootA, rootB), Math.max(rootA, rootB)];
    label[child] = root;
    for (const key of keysOfRoot[child]!) keysOfRoot[root]!.add(key);
  };
  const owners = new Map<string, number>();
  entries.forEach((entry, index) => {
    for (const key of identifierKeys(entry.item)) {
      if (owners.has(key)) union(owners.get(key)!, index);
      else owners.set(key, index);
    }
  });
  const kindOf = (key: string): string => key.slice(0, key.indexOf(':'));
  const conflict = (a: number, b: number): boolean =>
    [...keysOfRoot[find(a)]!].some((key) => [...keysOfRoot[find(b)]!].some((other) => kindOf(other) === kindOf(key) && other !== key));
  // Titles alike but for a word in place of another, or a word of subject more, are two works (replaced-words.ts,
  // added-words.ts, tested on their own).
  const similarTitles = (a: string, b: string, givenA: string, givenB: string): boolean =>
    a === b ||
    (a.length >= 8 && b.length >= 8 && stringSimilarity.compareTwoStrings(a, b) >= 0.9 && !titlesReplaceAWord(a, b) && !titlesAddAWord(a, b, givenA, givenB));
  // A generic or very short title matches only with agreement beyond it (weak-titles.ts, tested on its own).
  const similar = (a: number, b: number, titleA: string, titleB: string): boolean =>
    similarTitles(titleA, titleB, entries[a]!.item.title, entries[b]!.item.title) &&
    ((!isWeakTitle(titleA) && !isWeakTitle(titleB)) || agreeBeyondTitle(entries[a]!.item, entries[b]!.item));
  const blocks = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const title = normalizeTitle(entry.item.title);
    if (title === '') return;
    const words = title.split(' ');
    // The head: the first three words after any opening words, or the first three when fewer would be left.
    let opening = 0;
    while (opening < words.length && TITLE_OPENING_WORDS.has(words[opening]!)) opening += 1;
    const head = words.length - opening >= 3 ? words.slice(opening, opening + 3) : words.slice(0, 3);
    // Read as its spellings share it: "ae" and "oe" as "e", each run of Latin letters cut to its first four.
    const spelledAlike = head.join(' ').replace(/[ao]e/g, 'e').replace(/([a-z]{4})[a-z]+/g, '$1');
    const keys = words.length <= 3 ? [`all:${title}`] : [`head:${spelledAlike}`, `tail:${words.slice(-3).join(' ')}`];
    for (const key of keys) {
      const members = blocks.get(key) ?? [];
      blocks.set(key, members);
      let joined = false;
      for (const other of members.slice(0, CAP)) {
        const otherItem = entries[other]!.item;
        const yearsClose = entry.item.year === undefined || otherItem.year === undefined || Math.abs(entry.item.year - otherItem.year) <= 1;
        if (find(other) === find(index)) joined = true;
        else if (yearsClose && !conflict(index, other) && similar(index, other, title, normalizeTitle(otherItem.title))) {
          union(other, index);
          joined = true;
        }
      }
      if (!joined) members.push(index);
    }
  });
  const groups = new Map<number, number[]>();
  entries.forEach((_, index) => groups.set(find(index), [...(groups.get(find(index)) ?? []), index]));
  return [...groups.values()];
}

function paper(title: string, year?: number, identifiers: Partial<ProviderItem> = {}): ProviderItem {
  return { title, url: `https://papers.example/${encodeURIComponent(title)}`, ...(year === undefined ? {} : { year }), ...identifiers };
}

function entriesOf(items: ProviderItem[]): RankedItem[] {
  return items.map((item, index) => ({ provider: `p${index % 4}`, rank: Math.floor(index / 4) + 1, weight: 1, item }));
}

function indexGroups(entries: RankedItem[]): number[][] {
  return groupResults('papers', entries).map((group) => group.map((member) => entries.indexOf(member)));
}

describe('paper grouping on crowded title blocks', () => {
  it('compares a title with the first 32 works of a crowded block, and still finds a later one through its other block', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
    // 34 works that share their first three words and no other: one crowded head block, 34 tail blocks.
    const works = Array.from({ length: 34 }, (_, index) =>
      paper(`Deep graph learning ${words[index % 20]} ${index < 20 ? 'models' : 'systems'}`, 2020, { doi: `10.1000/work.${index}` }),
    );
    const items = [
      ...works,
      // 34: the first work again, spelled otherwise: found in the crowded head block.
      paper('Deep Graph Learning Alpha Models.', 2021),
      // 35: the 32nd work with its last word changed (another tail block): the last work the head block compares.
      paper('Deep graph learning lima system', 2020),
      // 36: the 33rd work with its last word changed: past the 32 the head block compares, and in no other block with it.
      paper('Deep graph learning mike system', 2020),
      // 37: the 34th work again: past the 32 of the head block, found in its tail block.
      paper('Deep graph: learning november systems', 2020),
      // 38, 39: alike, but three years apart or with another DOI: never the same work.
      paper('Deep graph learning bravo models', 2023),
      paper('Deep graph learning charlie models', 2020, { doi: '10.1000/other' }),
    ];
    const groups = indexGroups(entriesOf(items));
    expect(groups.filter((group) => group.length > 1)).toEqual([
      [0, 34],
      [31, 35],
      [33, 37],
    ]);
    expect(groups).toHaveLength(items.length - 3);
  });

  it('heads a title by its words after an opening like "a survey of": titles opening alike do not crowd one block', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
    // 40 works opening "a survey of" (one block of 40 if the opening counted, past the 32 compared).
    const works = Array.from({ length: 40 }, (_, index) => paper(`A survey of ${words[index % 20]} ${words[Math.floor(index / 20) + 5]} methods`, 2020));
    // The 40th work with its last word changed: no tail block in common, so only its head block can find it.
    const items = [...works, paper('A Survey of Tango Golf Method', 2020)];
    expect(indexGroups(entriesOf(items)).filter((group) => group.length > 1)).toEqual([[39, 40]]);
  });

  it('merges exactly the pairs the rule merges, on blocks crowded past the comparison cap', () => {
    const word = fc.constantFrom('a', 'survey', 'of', 'deep', 'graph', 'learning', 'learnings');
    const topic = fc.constantFrom(...'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike oscar papa'.split(' '));
    // Either a few common words in any order, or one opening and two of many topics ("deep graph learning" makes a
    // head block past 32 titles; "a survey of" is skipped as an opening), the last one perhaps in the plural: a near
    // duplicate in another tail block, found only in the head block.
    const title = fc.oneof(
      fc.array(word, { minLength: 2, maxLength: 7 }).map((words) => words.join(' ')),
      fc.tuple(fc.constantFrom('a survey of', 'deep graph learning'), topic, topic, fc.constantFrom('', 's')).map(
        ([opening, first, second, plural]) => `${opening} ${first} ${second}${plural}`,
      ),
    );
    /** Mostly absent: identifiers that every other paper had would join or split everything. */
    const rarely = <T>(values: T[]) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.constantFrom(...values), weight: 1 });
    const item = fc.record({
      title: fc.tuple(title, fc.constantFrom('', '.', '!', ' (extended)')).map(([text, ending]) => `${text}${ending}`),
      // NaN too: a year that is not a number takes the comparison's slower way.
      year: fc.option(fc.oneof({ arbitrary: fc.integer({ min: 2018, max: 2021 }), weight: 9 }, { arbitrary: fc.constant(Number.NaN), weight: 1 }), { nil: undefined }),
      doi: rarely(['10.1000/a', '10.1000/b', '10.48550/arXiv.2101.00001', '']),
      arxiv_id: rarely(['2101.00001', '2202.00002', '']),
      pmid: rarely(['1', '2']),
      // Short titles ("deep graph") match only with an author, or a venue and a year, in common.
      authors: rarely([['Ann Lee'], ['A. Lee', 'Bo Chen'], ['Cy Diaz']]),
      venue: rarely(['Graph Letters', 'graph letters.', 'Deep Journal']),
    });
    fc.assert(
      fc.property(fc.array(item, { minLength: 0, maxLength: 150, size: 'max' }), (items) => {
        const entries = entriesOf(items.map(({ title: text, ...rest }) => ({ ...paper(text), ...rest })));
        expect(indexGroups(entries)).toEqual(referenceGroups(entries));
      }),
      { numRuns: 150 },
    );
  });
});

describe('paper grouping against identifiers', () => {
  const TITLE = 'Graph neural networks for molecular property prediction';
  const conference = paper(TITLE, 2019, { doi: '10.1000/conf.2019.1' });
  const journal = paper(TITLE, 2020, { doi: '10.2000/journal.2020.7' });
  const noIdentifier = paper(TITLE, 2019);

  /** The DOIs of each group of more than one paper, and of each paper alone. */
  function doisByGroup(items: ProviderItem[]): Array<Array<string | undefined>> {
    return groupResults('papers', entriesOf(items)).map((group) => group.map((member) => member.item.doi));
  }

  it('keeps two works with different DOIs apart when a paper without identifiers matches both by title', () => {
    // Crossref's two DOIs first, OpenAlex's identifier-less copy last: it joins the first, and the second stays.
    expect(doisByGroup([conference, journal, noIdentifier])).toEqual([['10.1000/conf.2019.1', undefined], ['10.2000/journal.2020.7']]);
  });

  it('keeps them apart whichever paper comes first: the identifier-less one joins the first work it matches', () => {
    expect(doisByGroup([noIdentifier, conference, journal])).toEqual([[undefined, '10.1000/conf.2019.1'], ['10.2000/journal.2020.7']]);
    expect(doisByGroup([noIdentifier, journal, conference])).toEqual([[undefined, '10.2000/journal.2020.7'], ['10.1000/conf.2019.1']]);
    expect(doisByGroup([conference, noIdentifier, journal])).toEqual([['10.1000/conf.2019.1', undefined], ['10.2000/journal.2020.7']]);
  });

  it('keeps two "Editorial" papers with different DOIs apart beside a third "Editorial" without one', () => {
    // One journal and year: an "Editorial" title alone would not make two papers one work (weak-titles.ts).
    const editorial = (doi?: string): ProviderItem => ({
      title: 'Editorial',
      url: `https://journal.example/${doi ?? 'none'}`,
      venue: 'Journal of Examples',
      year: 2020,
      ...(doi ? { doi } : {}),
    });
    expect(doisByGroup([editorial('10.1000/one'), editorial('10.1000/two'), editorial()])).toEqual([['10.1000/one', undefined], ['10.1000/two']]);
    expect(doisByGroup([editorial(), editorial('10.1000/one'), editorial('10.1000/two')])).toEqual([[undefined, '10.1000/one'], ['10.1000/two']]);
  });

  it('refuses a second DOI to a work that got its DOI from a paper it joined by title, not from the one compared', () => {
    // The PMID paper stays in the title block; the DOI paper joins it there, so the block holds no DOI of its own.
    const items = [paper(TITLE, 2019, { pmid: '31000001' }), conference, journal];
    expect(doisByGroup(items)).toEqual([[undefined, '10.1000/conf.2019.1'], ['10.2000/journal.2020.7']]);
  });

  it('merges an arXiv preprint known by its arXiv DOI with the journal version of the same title a year later', () => {
    const preprint = paper('Sparse attention mechanisms for long document summarization', 2021, { doi: '10.48550/arxiv.2101.00001' });
    const published = paper('Sparse attention mechanisms for long document summarization', 2022, { doi: '10.3000/jrnl.2022.5' });
    expect(doisByGroup([preprint, published])).toEqual([['10.48550/arxiv.2101.00001', '10.3000/jrnl.2022.5']]);
    expect(doisByGroup([published, preprint])).toEqual([['10.3000/jrnl.2022.5', '10.48550/arxiv.2101.00001']]);
  });

  it('still keeps an arXiv preprint apart from another arXiv paper of the same title', () => {
    const first = paper('Sparse attention mechanisms for long document summarization', 2021, { doi: '10.48550/arxiv.2101.00001' });
    const second = paper('Sparse attention mechanisms for long document summarization', 2021, { arxiv_id: '2101.00002' });
    expect(doisByGroup([first, second])).toEqual([['10.48550/arxiv.2101.00001'], [undefined]]);
  });

  it('joins papers that share a DOI even when their arXiv ids differ: one shared identifier makes one work', () => {
    const items = [paper('A title', 2020, { doi: '10.1000/x', arxiv_id: '2101.00001' }), paper('Another title', 2020, { doi: '10.1000/x', arxiv_id: '2101.00002' })];
    expect(doisByGroup(items)).toEqual([['10.1000/x', '10.1000/x']]);
  });
});
