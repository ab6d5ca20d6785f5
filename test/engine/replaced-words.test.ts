import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle, titlesSimilar } from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';
import { titlesReplaceAWord } from '../../src/engine/replaced-words.js';

/**
 * Titles near-identical by their bigrams (Dice ≥ 0.9) that differ by one word put in place of another: a false
 * merge drops a paper the caller asked for. One side has a DOI, the other none, as when an index misses it: only the
 * title decides.
 */
const twoWorks: Array<[string, string, string]> = [
  ['Effects of chronic stress on hippocampal neurogenesis in adult mice', 'Effects of chronic stress on hippocampal neurogenesis in adult rats', 'another animal'],
  [
    'Prevalence of antibiotic resistance in Escherichia coli isolates from poultry farms',
    'Prevalence of antibiotic resistance in Escherichia coli isolates from swine farms',
    'another source of the isolates',
  ],
  ['RNA sequencing of tumour-infiltrating lymphocytes in colorectal cancer', 'DNA sequencing of tumour-infiltrating lymphocytes in colorectal cancer', 'a short word one letter away'],
  ['HIV vaccination uptake among adolescent girls in sub-Saharan Africa', 'HPV vaccination uptake among adolescent girls in sub-Saharan Africa', 'a word of three letters, one letter away'],
  [
    'Sublethal effects of neonicotinoid pesticides on bats and birds in agricultural landscapes',
    'Sublethal effects of neonicotinoid pesticides on bees and birds in agricultural landscapes',
    'a word of four letters, two letters away',
  ],
  [
    'Maternal depression during pregnancy and child behavioural outcomes at age five',
    'Paternal depression during pregnancy and child behavioural outcomes at age five',
    'a word one letter away, its first',
  ],
  ['Afferent arteriolar tone in the isolated perfused rat kidney', 'Efferent arteriolar tone in the isolated perfused rat kidney', 'a word one letter away, its first'],
  ['Selective catalytic oxidation of methanol over supported gold nanoparticles', 'Selective catalytic oxidation of ethanol over supported gold nanoparticles', 'a word one letter longer at its start'],
  ['Anion exchange membranes for vanadium redox flow batteries', 'Cation exchange membranes for vanadium redox flow batteries', 'a word two letters away'],
  ['Competitive absorption of carbon dioxide on activated carbon from coconut shells', 'Competitive adsorption of carbon dioxide on activated carbon from coconut shells', 'one letter for another'],
  ['Selective hydrogenation of alkenes over supported palladium catalysts in water', 'Selective hydrogenation of alkynes over supported palladium catalysts in water', 'a vowel for another'],
  ['Bacterial reduction of sulfate in anoxic marine sediments of the Baltic Sea', 'Bacterial reduction of sulfite in anoxic marine sediments of the Baltic Sea', 'a chemical ending for another'],
  ['Chromosome segregation errors during mitosis in aged mouse oocytes', 'Chromosome segregation errors during meiosis in aged mouse oocytes', 'two letters for two others'],
  [
    'Effects of dietary fibre supplementation on gut microbiota composition and short-chain fatty acid production in mice and rats',
    'Effects of dietary fibre supplementation on gut microbiota composition and short-chain fatty acid production in rats and pigs',
    'one animal moved, another put in place of the other',
  ],
];

/** Spellings of one title that indexes give (a typo, British and American spelling, a plural): these must still merge. */
const oneWork: Array<[string, string, string]> = [
  ['Sex differences in the behaviour of zebrafish larvae under chronic stress', 'Sex differences in the behavior of zebrafish larvae under chronic stress', 'behaviour, behavior'],
  ['Multilevel modelling of student achievement in secondary schools', 'Multilevel modeling of student achievement in secondary schools', 'modelling, modeling'],
  [
    'Comparative genomic analysis of antibiotic resistance genes in hospital wastewater',
    'Comparative genomic analyses of antibiotic resistance genes in hospital wastewater',
    'analysis, analyses',
  ],
  ['Effects of chronic stress on hippocampal neurogenesis in adult mice', 'Effects of chronic stress on hippocampal neurogensis in adult mice', 'a letter left out'],
  ['Natural fibre reinforced polymer composites for automotive applications', 'Natural fiber reinforced polymer composites for automotive applications', 'fibre, fiber: two letters swapped'],
  ['Tumour microenvironment remodelling in pancreatic ductal adenocarcinoma', 'Tumor microenvironment remodeling in pancreatic ductal adenocarcinoma', 'tumour, tumor, in a word of five letters'],
  ['Oesophageal adenocarcinoma incidence trends in northern Europe', 'Esophageal adenocarcinoma incidence trends in northern Europe', 'an opening oe written e'],
  ['Organisational culture and nurse burnout in public hospitals of northern Italy', 'Organizational culture and nurse burnout in public hospitals of northern Italy', 'organisational, organizational: s for z'],
  ['Sceptical attitudes towards vaccination among parents of young children in France', 'Skeptical attitudes towards vaccination among parents of young children in France', 'sceptical, skeptical: c for k'],
  ['Testing the hypothesis of niche conservatism in tropical tree species of Amazonia', 'Testing the hypotheses of niche conservatism in tropical tree species of Amazonia', 'a plural in es for is'],
  ['Sulphur dioxide emissions from coal-fired power plants in eastern China', 'Sulfur dioxide emissions from coal-fired power plants in eastern China', 'sulphur, sulfur: two edits'],
  ['Estimating the catalogue of rare variants in population-scale sequencing', 'Estimating the catalog of rare variants in population-scale sequencing', 'catalogue, catalog'],
  ['Case studies of participatory design in public health interventions', 'Case study of participatory design in public health interventions', 'a plural in ies'],
  ['Effects of temperature on growth of juvenile Atlantic salmon in aquaculture', 'Effects of temperature in growth of juvenile Atlantic salmon in aquaculture', 'one small word for another'],
  ['Vitamin D supplementation does not reduce fracture risk in older adults', "Vitamin D supplementation doesn't reduce fracture risk in older adults", 'a contraction'],
  ['Inflow and outflow boundary conditions for incompressible fluid flow', 'Outflow and inflow boundary conditions for incompressible fluid flow', 'words moved'],
  ['Proceedings of the Second Workshop on Gender Bias in Natural Language Processing', 'Proceedings of the 2nd Workshop on Gender Bias in Natural Language Processing', 'a number written two ways'],
  ['alpha-Synuclein aggregation and neuronal death in models of Parkinson disease', 'α-Synuclein aggregation and neuronal death in models of Parkinson disease', 'a Greek letter and its name'],
  ['Role of TNF-alpha signalling in chronic inflammatory bowel disease patients', 'Role of TNF-α signalling in chronic inflammatory bowel disease patients', 'a Greek letter after a hyphen'],
  ['Randomised trial of surgery versus radiotherapy for localised prostate cancer', 'Randomised trial of surgery vs. radiotherapy for localised prostate cancer', 'versus, vs.'],
  ['Machine learning methods for predicting outcomes in intensive care units', 'Machine-learning methods to predict outcomes in intensive care units', 'another ending on one stem'],
  ['Deep learning for automated detection of diabetic retinopathy in fundus photographs', 'Deep learning for automatic detection of diabetic retinopathy in fundus photographs', 'automated, automatic'],
  ['Transcriptional profiling of mouse retinal ganglion cells after optic nerve crush', 'Transcriptional profiling of mice retinal ganglion cells after optic nerve crush', 'mouse, mice'],
  ['Child and adolescent mental health services in low-income countries', 'Children and adolescent mental health services in low-income countries', 'child, children'],
  ['Tooth loss and cognitive decline in older adults: a cohort study', 'Teeth loss and cognitive decline in older adults: a cohort study', 'tooth, teeth'],
  ['Vegetation index time series for winter wheat yield forecasting', 'Vegetation indices time series for winter wheat yield forecasting', 'index, indices'],
  ['Person-centred care for older people with dementia in nursing homes', 'People-centred care for older people with dementia in nursing homes', 'person, people'],
  ['Missing datum imputation for longitudinal electronic health records', 'Missing data imputation for longitudinal electronic health records', 'datum, data'],
];

/** Irregular plurals titles use, each with its singular: one word (the ones a few edits apart were already). */
const IRREGULAR_PLURALS: Array<[string, string]> = [
  ['mouse', 'mice'], ['child', 'children'], ['man', 'men'], ['woman', 'women'], ['foot', 'feet'], ['tooth', 'teeth'],
  ['criterion', 'criteria'], ['phenomenon', 'phenomena'], ['datum', 'data'], ['bacterium', 'bacteria'], ['index', 'indices'],
  ['matrix', 'matrices'], ['vertex', 'vertices'], ['nucleus', 'nuclei'], ['fungus', 'fungi'], ['stimulus', 'stimuli'],
  ['person', 'people'], ['goose', 'geese'], ['cortex', 'cortices'], ['genus', 'genera'], ['corpus', 'corpora'],
];

function entries(first: string, second: string): RankedItem[] {
  const items: ProviderItem[] = [
    { title: first, url: 'https://doi.org/10.1000/first', doi: '10.1000/first', year: 2021 },
    { title: second, url: 'https://papers.example/second', year: 2021 },
  ];
  return items.map((item, index) => ({ provider: index === 0 ? 'crossref' : 'openalex', rank: 1, weight: 1, item }));
}

describe('titles that differ by a word in place of another', () => {
  it.each(twoWorks)('"%s" and "%s" are two papers (%s)', (first, second) => {
    // The premise: by bigrams alone they are one title.
    expect(titlesSimilar(normalizeTitle(first), normalizeTitle(second))).toBe(true);
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results.map((result) => result.title).sort()).toEqual([first, second].sort());
  });

  it.each(oneWork)('"%s" and "%s" are one paper (%s)', (first, second) => {
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results).toHaveLength(1);
    expect(results[0]!.sources.map((source) => source.provider).sort()).toEqual(['crossref', 'openalex']);
  });

  it.each(IRREGULAR_PLURALS)('reads "%s" and its plural "%s" as one word, either way round', (singular, plural) => {
    const title = (word: string): string => `seasonal variation of the ${word} measured across three temperate regions`;
    expect(titlesReplaceAWord(title(singular), title(plural))).toBe(false);
    expect(titlesReplaceAWord(title(plural), title(singular))).toBe(false);
  });

  it('reads an irregular plural as the plural of its own singular only', () => {
    const title = (word: string): string => `health literacy and screening uptake among ${word} in rural districts`;
    // "men" is "man", not "women"; "mice" is "mouse", not "rats" or "mouses".
    expect(titlesReplaceAWord(title('men'), title('women'))).toBe(true);
    expect(titlesReplaceAWord(title('mice'), title('rats'))).toBe(true);
    expect(titlesReplaceAWord(title('children'), title('women'))).toBe(true);
  });

  it('keeps apart two comments by one author on two works whose titles differ by a word', () => {
    // A comment joins another only with agreement beyond its title (an author in common): here it is there.
    const first = 'Comment on: Effects of chronic stress on hippocampal neurogenesis in adult mice';
    const second = 'Comment on: Effects of chronic stress on hippocampal neurogenesis in adult rats';
    expect(titlesSimilar(normalizeTitle(first), normalizeTitle(second))).toBe(true);
    const items: ProviderItem[] = [
      { title: first, url: 'https://papers.example/1', year: 2020, authors: ['Ana Silva'] },
      { title: second, url: 'https://papers.example/2', year: 2020, authors: ['Ana Silva'] },
    ];
    const grouped = groupResults('papers', items.map((item, index) => ({ provider: `p${index}`, rank: 1, weight: 1, item })));
    expect(grouped.map((group) => group.map((member) => member.item.title))).toEqual([[first], [second]]);
  });

  it('never reads a one-letter typo after a word\'s first letter as another word', () => {
    const words = ['hippocampal', 'neurogenesis', 'chronic', 'stress', 'adult', 'mice', 'graph', 'neural', 'networks', 'for', 'the', 'of', 'in', 'lung'];
    /**
     * One edit past the first letter: a letter dropped, doubled, or swapped with its neighbour. (A letter changed for
     * another is another word unless spellings trade those letters: "absorption", "adsorption"; see below.)
     */
    const typo = (word: string, at: number, kind: number): string => {
      const index = 1 + (at % (word.length - 1));
      if (kind === 0) return word.slice(0, index) + word.slice(index + 1);
      if (kind === 1) return word.slice(0, index) + word[index] + word.slice(index);
      if (kind === 2) return `${word.slice(0, index)}${word[index] === 'q' ? 'z' : 'q'}${word.slice(index + 1)}`;
      return index + 1 < word.length ? word.slice(0, index) + word[index + 1] + word[index] + word.slice(index + 2) : word;
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 4, maxLength: 12 }), fc.nat(), fc.nat(), fc.constantFrom(0, 1, 3), (title, position, at, kind) => {
        // Words of four letters or more: a word of three or fewer is one letter away from many others.
        const candidates = title.map((word, index) => index).filter((index) => title[index]!.length >= 4);
        fc.pre(candidates.length > 0);
        const index = candidates[position % candidates.length]!;
        const other = title.slice();
        other[index] = typo(title[index]!, at, kind);
        expect(titlesReplaceAWord(title.join(' '), other.join(' '))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('reads only where the titles differ, and leaves titles of a word more or less to the other rules', () => {
    const read = (a: string, b: string): boolean => titlesReplaceAWord(normalizeTitle(a), normalizeTitle(b));
    expect(read('Deep learning for medical image segmentation', 'Deep learning for medical image segmentation.')).toBe(false);
    expect(read('Self-supervised pre-training for speech recognition', 'Self-supervised pretraining for speech recognition')).toBe(false);
    expect(read('Graph attention networks for molecular property prediction', 'Graph attention networks for molecular property prediction tasks')).toBe(false);
    expect(read('Graph attention networks for molecular property prediction', 'Graph attention networks for protein property prediction')).toBe(true);
  });
});
