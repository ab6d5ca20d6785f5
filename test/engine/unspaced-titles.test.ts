import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { rankResults } from '../../src/engine/rank.js';

/**
 * Chinese and Japanese titles, written without spaces between words: one "word" to a count of words, yet no more
 * generic than an English title of as many words. One paper from two indexes, each naming its authors its own way
 * (CNKI's 张伟, OpenAlex's Wei Zhang), shares nothing but its title.
 */
function rankedTitles(items: ProviderItem[]): string[][] {
  const entries: RankedItem[] = items.map((item, index) => ({ provider: `p${index}`, rank: 1, weight: 1, item }));
  return rankResults(groupResults('papers', entries)).map((result) => result.sources.map((source) => source.provider));
}

describe('Chinese and Japanese titles', () => {
  it('merge one paper that two indexes give with the same whole title', () => {
    const title = '基于深度学习的图像识别方法研究';
    const items = [
      { title, url: 'https://doi.org/10.3969/j.issn.1000-0001', doi: '10.3969/j.issn.1000-0001', authors: ['张伟'], year: 2021 },
      { title: `${title}。`, url: 'https://openalex.example/W1', authors: ['Wei Zhang'], year: 2021 },
    ];
    expect(rankedTitles(items)).toEqual([['p0', 'p1']]);
  });

  it('merge a Japanese paper given twice, with no author or venue at all on one side', () => {
    const title = '深層学習を用いた画像認識手法の研究';
    expect(rankedTitles([{ title, url: 'https://jstage.example/a', year: 2020 }, { title, url: 'https://openalex.example/W2', year: 2020 }])).toEqual([['p0', 'p1']]);
  });

  it('keep apart two papers whose titles differ by a word at the end (a study and a survey of it) or in the middle', () => {
    const study = { title: '基于深度学习的图像识别方法研究', url: 'https://a.example/1', authors: ['张伟'], year: 2021 };
    const survey = { title: '基于深度学习的图像识别方法研究综述', url: 'https://b.example/2', authors: ['李娜'], year: 2021 };
    const speech = { title: '基于深度学习的语音识别方法研究', url: 'https://c.example/3', authors: ['王芳'], year: 2021 };
    expect(rankedTitles([study, survey, speech])).toEqual([['p0'], ['p1'], ['p2']]);
  });

  it('keep apart a study and a survey of it whose titles differ by a word, where words around Latin ones give the titles spaces', () => {
    // Latin terms keep their spaces: the titles fall in one block (their first three words), and are compared.
    const pairs = [
      ['Vision Transformer と CNN を用いた画像認識手法の研究', 'Vision Transformer と CNN を用いた画像認識手法の研究動向'],
      ['基于 BERT 和 BiLSTM-CRF 的中文命名实体识别方法研究', '基于 BERT 和 BiLSTM-CRF 的中文命名实体识别方法研究综述'],
    ];
    for (const [study, survey] of pairs) {
      expect(rankedTitles([{ title: study!, url: 'https://a.example/1', year: 2021 }, { title: survey!, url: 'https://b.example/2', year: 2021 }])).toEqual([['p0'], ['p1']]);
    }
  });

  it('keep short front matter ("编者按", an editor\'s note) of two journals apart, as in English', () => {
    const items = [
      { title: '编者按', url: 'https://a.example/1', venue: '计算机学报', year: 2021 },
      { title: '编者按', url: 'https://b.example/2', venue: '软件学报', year: 2021 },
    ];
    expect(rankedTitles(items)).toEqual([['p0'], ['p1']]);
  });
});
