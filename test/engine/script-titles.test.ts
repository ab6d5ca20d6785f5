import { describe, expect, it } from 'vitest';
import type { ProviderItem } from '../../src/domain/result.js';
import { groupResults, type RankedItem } from '../../src/engine/merge.js';
import { normalizeTitle, titleBlocks } from '../../src/engine/paper-identity.js';

/**
 * Titles in scripts other than plain Latin. An accent on a Latin, Greek or Cyrillic letter says nothing of which
 * word it is ("café" is "cafe"), nor do Hebrew's points or Arabic's short vowels, which most text leaves unwritten;
 * but kana's voicing marks, Hangul's jamo and the vowel signs of Indic and Thai scripts are parts of their letters:
 * dropped, or taken for spaces, they merge two words or split one.
 */
function groupedProviders(items: ProviderItem[]): string[][] {
  const entries: RankedItem[] = items.map((item, index) => ({ provider: `p${index}`, rank: 1, weight: 1, item }));
  return groupResults('papers', entries).map((group) => group.map((member) => member.provider));
}

/** Two indexes giving a paper each, with nothing in common but the year: only their titles can join them. */
function twoPapers(first: string, second: string): ProviderItem[] {
  return [
    { title: first, url: 'https://index-a.example/1', year: 2022 },
    { title: second, url: 'https://index-b.example/2', year: 2022 },
  ];
}

describe('title normalisation across scripts', () => {
  it.each([
    ['Latin accents', 'Étude du café crème', 'ETUDE DU CAFE CREME'],
    ['Vietnamese, written with or without its tone marks (Latin accents)', 'Nghiên cứu về người Việt', 'Nghien cuu ve nguoi Viet'],
    ['Vietnamese đ and its d', 'Đánh giá đa dạng sinh học', 'Danh gia da dang sinh hoc'],
    ['German ß, ẞ and ss', 'Straße und Verkehr, STRAẞE', 'Strasse und Verkehr, STRASSE'],
    ['Danish and Norwegian ø, Polish ł, Maltese ħ as their letters under the stroke', 'Miljøpolitikk i Łódź, Ħal Qormi', 'Miljopolitikk i Lodz, Hal Qormi'],
    ['Icelandic þ and ð as th and d', 'Þjóðernishyggja á Íslandi', 'Thjodernishyggja a Islandi'],
    ['the ligatures æ and œ as ae and oe', 'Encyclopædia du cœur et de l’Œuvre', 'Encyclopaedia du coeur et de l’Oeuvre'],
    ['Greek with and without tonos, in either case', 'Η ιστορία της γλώσσας', 'Η ΙΣΤΟΡΙΑ ΤΗΣ ΓΛΩΣΣΑΣ'],
    ['Cyrillic with and without the diaeresis of ё', 'Ёлка и её история', 'Елка и ее история'],
    ['a ligature and full-width Latin', 'ﬁnding ＡＢＣ', 'finding ABC'],
    ['half-width katakana with its separate voicing mark', 'ﾃﾞｰﾀの分析', 'データの分析'],
    ['kana with a combining voicing mark and precomposed', 'テ\u3099ータとハ\u309Aターン', 'データとパターン'],
    ['Hangul as conjoining jamo and as syllables', '\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 연구', '한국어 연구'],
    ['Devanagari qa as one code point and as ka with nukta', 'क़ानून', 'क\u093cानून'],
    ['Hebrew pointed and unpointed', 'הַשָּׂפָה הָעִבְרִית', 'השפה העברית'],
    ['Arabic with and without its short vowels', 'اللُّغَةُ العَرَبِيَّةُ', 'اللغة العربية'],
    ['a kanji with and without an ideographic variation selector', '葛\u{E0100}飾区の歴史', '葛飾区の歴史'],
  ])('gives one title for %s', (_script, first, second) => {
    expect(normalizeTitle(first)).toBe(normalizeTitle(second));
  });

  it.each([
    ['katakana with and without dakuten (glass, crow)', 'ガラス', 'カラス'],
    ['katakana with dakuten and handakuten (bus, path)', 'バス', 'パス'],
    ['katakana at the end of a title (card, cart)', 'カード', 'カート'],
    ['Devanagari words told apart by a vowel sign (day, gift)', 'दिन', 'दान'],
    ['Thai words told apart by a tone mark (tiger, mat)', 'เสือ', 'เสื่อ'],
    ['Turkish dotless and dotted i (lukewarm, marrow)', 'ılık', 'ilik'],
  ])('keeps apart %s', (_script, first, second) => {
    expect(normalizeTitle(first)).not.toBe(normalizeTitle(second));
  });

  it('splits no word at a mark that belongs to its letter, and joins none', () => {
    expect(normalizeTitle('ディープラーニングによる画像認識')).toBe('ディープラーニングによる画像認識');
    expect(normalizeTitle('हिन्दी भाषा का इतिहास')).toBe('हिन्दी भाषा का इतिहास');
    expect(normalizeTitle('ประวัติศาสตร์ไทย สมัยใหม่')).toBe('ประวัติศาสตร์ไทย สมัยใหม่');
    expect(normalizeTitle('தமிழ் இலக்கியத்தின் வரலாறு')).toBe('தமிழ் இலக்கியத்தின் வரலாறு');
    // The head block is a key: it is the one of another title opening with the same three words, and not the one of a
    // title whose first word lacks its vowel sign (only runs of Latin letters are cut to their first four).
    const headOf = (title: string): number | undefined => {
      const blocks = titleBlocks(normalizeTitle(title));
      return 'head' in blocks ? blocks.head : undefined;
    };
    const blocks = titleBlocks(normalizeTitle('हिन्दी भाषा का इतिहास'));
    expect(blocks).toEqual({ head: headOf('हिन्दी भाषा का विकास'), tail: 'भाषा का इतिहास' });
    expect(headOf('हिन्दी भाषा का इतिहास')).not.toBe(headOf('हिन्द भाषा का इतिहास'));
  });

  it('writes a lone Greek letter by its name, as other indexes do, and leaves Greek words as they are', () => {
    expect(normalizeTitle('TNF-α and IL-1β in sepsis')).toBe('tnf alpha and il 1beta in sepsis');
    expect(normalizeTitle('α-Synuclein')).toBe(normalizeTitle('alpha-synuclein'));
    expect(normalizeTitle('Ο ρόλος της β-κατενίνης')).toBe('omicron ρολος της beta κατενινης');
  });

  it('drops an emoji with its variation selector, and a mark with no letter under it', () => {
    expect(normalizeTitle('Deep learning ❤\uFE0F for 1\uFE0F\u20E3 task')).toBe('deep learning for 1 task');
    expect(normalizeTitle('\u0301\u3099Deep learning')).toBe('deep learning');
  });
});

describe('papers whose titles differ only in a mark that belongs to a letter', () => {
  it('keep apart two Japanese titles told apart by a voicing mark', () => {
    expect(groupedProviders(twoPapers('電子商取引システムにおけるカード', '電子商取引システムにおけるカート'))).toEqual([['p0'], ['p1']]);
  });

  it('keep apart two Korean titles one syllable apart (decomposed into jamo, they differed by one letter in many and merged)', () => {
    expect(groupedProviders(twoPapers('한국어 문장의 의미 분석에 관한 연구', '한국어 문장의 의미 분류에 관한 연구'))).toEqual([['p0'], ['p1']]);
  });

  it('keep apart two Hindi titles told apart by vowel signs', () => {
    expect(groupedProviders(twoPapers('दिन का महत्व', 'दान का महत्व'))).toEqual([['p0'], ['p1']]);
  });
});

describe('one paper from two indexes, spelled two ways', () => {
  it.each([
    ['Japanese, half-width and full-width', 'ﾃﾞｨｰﾌﾟﾗｰﾆﾝｸﾞを用いた画像認識手法の研究', 'ディープラーニングを用いた画像認識手法の研究'],
    ['Korean, as jamo and as syllables', '딥러닝을 이용한 영상 인식 방법에 관한 연구'.normalize('NFD'), '딥러닝을 이용한 영상 인식 방법에 관한 연구'],
    ['Hebrew, pointed and unpointed', 'תּוֹלְדוֹת הַשָּׂפָה הָעִבְרִית בִּימֵי הַבֵּינַיִם', 'תולדות השפה העברית בימי הביניים'],
    ['Thai, the same title', 'การศึกษาพฤติกรรมการอ่านของนักเรียนไทย', 'การศึกษาพฤติกรรมการอ่านของนักเรียนไทย'],
    // Letters NFKD leaves whole: written by their letter under the stroke, or as the letters they are read as, these
    // titles kept too few bigrams in common to merge.
    ['Norwegian, with ø and written o', 'Økonomisk vekst og miljøpolitikk i Norge', 'Okonomisk vekst og miljopolitikk i Norge'],
    ['Polish, with ł and written l', 'Łódź i jej mieszkańcy', 'Lodz i jej mieszkancy'],
    ['Icelandic, with þ and ð and written th and d', 'Þjóðernishyggja á Íslandi', 'Thjodernishyggja a Islandi'],
    ['French, with œ and written oe', "Le cœur de l'œuvre de Proust", "Le coeur de l'oeuvre de Proust"],
  ])('merge: %s', (_script, first, second) => {
    expect(groupedProviders(twoPapers(first, second))).toEqual([['p0', 'p1']]);
  });

  it('merge Vietnamese with its tones, with its tones placed the old way or the new, and without any mark', () => {
    // Tones are dropped with the other accents, a choice: one paper from two indexes keeps its tones, but an index
    // that writes titles in ASCII drops them, and "hoà" (the old placement) is "hòa" (the new), which a comparison
    // keeping tones would have to tell apart first. Two works whose titles differ by their tones alone are rarer.
    const items: ProviderItem[] = [
      { title: 'Đánh giá hiệu quả điều trị đái tháo đường tại Hòa Bình', url: 'https://index-a.example/1', year: 2022 },
      { title: 'Đánh giá hiệu quả điều trị đái tháo đường tại Hoà Bình', url: 'https://index-b.example/2', year: 2022 },
      { title: 'Danh gia hieu qua dieu tri dai thao duong tai Hoa Binh', url: 'https://index-c.example/3', year: 2022 },
    ];
    expect(groupedProviders(items)).toEqual([['p0', 'p1', 'p2']]);
  });

  it('keep apart a Thai study and a survey of it, one word longer, as Chinese and Japanese ones', () => {
    expect(groupedProviders(twoPapers('การศึกษาพฤติกรรมการอ่านของนักเรียนไทย', 'การศึกษาพฤติกรรมการอ่านของนักเรียนไทยในชนบท'))).toEqual([['p0'], ['p1']]);
  });
});
