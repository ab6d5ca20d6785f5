import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { titlesOpposite } from '../../src/engine/opposite-titles.js';
import { normalizeTitle, titlesSimilar } from '../../src/engine/paper-identity.js';
import { rankResults } from '../../src/engine/rank.js';

/**
 * Titles near-identical by their bigrams (Dice ≥ 0.9) that say opposite things: a false merge drops a paper the
 * caller asked for. One side has a DOI, the other none, as when an index misses it: only the title decides.
 */
const oppositeTitles: Array<[string, string]> = [
  ['Hyperthyroidism in pregnancy: a clinical review', 'Hypothyroidism in pregnancy: a clinical review'],
  ['Hypertension management in patients with chronic kidney disease', 'Hypotension management in patients with chronic kidney disease'],
  ['Effects of metformin on glucose uptake in vivo', 'Effects of metformin on glucose uptake in vitro'],
  ['Preoperative anxiety in children undergoing tonsillectomy', 'Postoperative anxiety in children undergoing tonsillectomy'],
  ['Pre-operative anxiety in children undergoing tonsillectomy', 'Post-operative anxiety in children undergoing tonsillectomy'],
  ['Prenatal exposure to air pollution and childhood asthma', 'Postnatal exposure to air pollution and childhood asthma'],
  ['Intracellular calcium signalling in cardiac myocytes', 'Extracellular calcium signalling in cardiac myocytes'],
  ['Anti-inflammatory effects of curcumin in murine macrophages', 'Pro-inflammatory effects of curcumin in murine macrophages'],
  ['Upregulation of TP53 in human colorectal carcinoma', 'Downregulation of TP53 in human colorectal carcinoma'],
  ['Vitamin D supplementation does reduce fracture risk in older adults', 'Vitamin D supplementation does not reduce fracture risk in older adults'],
  ["Vitamin D supplementation does reduce fracture risk in older adults", "Vitamin D supplementation doesn't reduce fracture risk in older adults"],
  ['Metformin is associated with lower mortality in sepsis patients', 'Metformin is not associated with lower mortality in sepsis patients'],
  ['Outcomes of cardiac surgery in patients with diabetes mellitus', 'Outcomes of cardiac surgery in patients without diabetes mellitus'],
  ['Exercise training increases insulin sensitivity in obese adults', 'Exercise training decreases insulin sensitivity in obese adults'],
  ['Type 2 diabetes and cardiovascular disease in women', 'Type 2 diabetes and cardiovascular disease in men'],
  ['Supervised representation learning for remote sensing image classification', 'Unsupervised representation learning for remote sensing image classification'],
  ['Linear dynamics of coupled oscillator networks with delays', 'Nonlinear dynamics of coupled oscillator networks with delays'],
  ['Synchronous consensus protocols for blockchain networks', 'Asynchronous consensus protocols for blockchain networks'],
  ['Chemotherapy outcomes in small cell lung cancer patients', 'Chemotherapy outcomes in non-small cell lung cancer patients'],
  ['Inhibition of the MAPK signalling pathway by protein kinase C in cortical neurons of adult transgenic mice', 'Activation of the MAPK signalling pathway by protein kinase C in cortical neurons of adult transgenic mice'],
  ['Acute kidney injury after cardiac surgery in adults with congenital heart disease', 'Chronic kidney injury after cardiac surgery in adults with congenital heart disease'],
];

/** Spellings of one title that indexes give: these must still merge. */
const oneTitle: Array<[string, string]> = [
  ['Non-linear dynamics of coupled oscillator networks with delays', 'Nonlinear dynamics of coupled oscillator networks with delays'],
  ['Anti-inflammatory effects of curcumin in murine macrophages', 'Antiinflammatory effects of curcumin in murine macrophages'],
  ['Inflow and outflow boundary conditions for incompressible fluid flow', 'Outflow and inflow boundary conditions for incompressible fluid flow'],
  ['Aetiology of community-acquired pneumonia in hospitalised adults', 'Etiology of community-acquired pneumonia in hospitalised adults'],
  ['Vitamin D supplementation does not reduce fracture risk in older adults', "Vitamin D supplementation doesn't reduce fracture risk in older adults"],
  ['Self-supervised pre-training for speech recognition in noisy rooms', 'Self-supervised pretraining for speech recognition in noisy rooms'],
  ['Technical report no. 5: coastal erosion in the northern territories', 'Technical report 5: coastal erosion in the northern territories'],
  // Written apart in one and joined in the other, with another word differing beside it (model, models).
  ['A non-linear model for the dynamics of coupled oscillator networks with delays', 'Nonlinear models for the dynamics of coupled oscillator networks with delays'],
];

function entries(first: string, second: string): RankedItem[] {
  const items: ProviderItem[] = [
    { title: first, url: 'https://doi.org/10.1000/first', doi: '10.1000/first', year: 2021 },
    { title: second, url: 'https://papers.example/second', year: 2021 },
  ];
  return items.map((item, index) => ({ provider: index === 0 ? 'crossref' : 'openalex', rank: 1, weight: 1, item }));
}

describe('titles that say opposite things', () => {
  it.each(oppositeTitles)('"%s" and "%s" are two papers', (first, second) => {
    // The premise: by bigrams alone they are one title.
    expect(titlesSimilar(normalizeTitle(first), normalizeTitle(second))).toBe(true);
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results.map((result) => result.title).sort()).toEqual([first, second].sort());
  });

  it.each(oneTitle)('"%s" and "%s" are one paper', (first, second) => {
    const results = rankResults(groupResults('papers', entries(first, second)));
    expect(results).toHaveLength(1);
    expect(results[0]!.sources.map((source) => source.provider).sort()).toEqual(['crossref', 'openalex']);
  });

  it('never takes one title written two ways (hyphens, spaces, case, apostrophes) for two', () => {
    // Words whose hyphen an index may keep, drop or close up, among words the rule reads.
    const words = ['non-linear', 'pre-training', 'in vivo', 'anti-inflammatory', 'with', 'without', 'not', 'hyper-thyroidism', 'post-operative', 'a', 'the', 'of', 'in', 'de-noising', 'un-supervised', 'self-supervised', 'x-ray', 'no.', '5', "don't", 'co-operation', 'up-regulation', 'multi-modal', 'bi-lateral'];
    const spellings = (word: string): string[] => [word, word.replace(/-/g, ' '), word.replace(/-/g, ''), word.toUpperCase(), word.replace(/'/g, '’')];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 3, maxLength: 10 }), fc.nat(), fc.nat(4), (title, position, spelling) => {
        const other = title.slice();
        const index = position % title.length;
        other[index] = spellings(title[index]!)[spelling]!;
        expect(titlesOpposite(normalizeTitle(title.join(' ')), normalizeTitle(other.join(' ')))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
