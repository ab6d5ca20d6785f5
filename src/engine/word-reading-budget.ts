/**
 * How much the word rules (opposite-titles.ts, replaced-words.ts, added-words.ts) may read while papers are grouped.
 * They read only pairs of titles already alike by their bigrams, and only the words where the two differ (their common
 * opening and ending words aside), so their cost grows with those differing words. In a real result list a title has
 * few such near-twins, differing in a few words: a typo, a spelling, a word added or put in place of another. A hostile
 * upstream's titles at their length bound, each alike to every other (the same words in other orders, the same letters
 * spaced otherwise), differ in all of their words, up to a hundred and more.
 */

/**
 * Differing words (of both titles of a pair) the word rules may read for the title being placed: 64 near-twins that
 * differ in a word each, three or four that differ in twenty, one that differs in a hundred. The first pair is always
 * read, unless the other title is one of a crowd (CROWD_WORDS).
 */
const MAX_DIFFERING_WORDS_READ_PER_TITLE = 128;

/**
 * Differing words read in pairs a title was in, whichever of the two was being placed, that make it one of a crowd: a
 * pair found to differ counts DIFFERING_PAIR_WEIGHT times its words. Found to differ from near-twins in 128 words (64
 * other works named by a word in place of one, or one or two pairs of a hostile upstream's titles), or read against
 * 512 words of near-twins that were its own respellings, a title is no real paper's: a real one has a few twins,
 * spelled another way, and few near-twins.
 */
const DIFFERING_PAIR_WEIGHT = 4;
const CROWD_WORDS = MAX_DIFFERING_WORDS_READ_PER_TITLE * DIFFERING_PAIR_WEIGHT;

/**
 * What the word rules have read: for the title being placed, against MAX_DIFFERING_WORDS_READ_PER_TITLE, and for
 * every title, in every pair it was in, against CROWD_WORDS. Titles are compared with the first members of their
 * blocks, so a hostile upstream's titles are all read against the same few: a cap on the title being placed alone let
 * each of 2,505 such titles be read against four or five of them, and held a search for a second. A title alike to one
 * of a crowd is taken to differ from it without reading, and is one of the crowd from then on, so that the crowd's
 * other titles, placed in other blocks, are not read either. Past either share, two titles are taken to differ: the
 * budget can keep two works apart, never join two.
 */
export class WordReadingBudget {
  /** The title being placed, and the differing words read for it so far. */
  private placing = -1;
  private wordsRead = 0;
  /** Per title, the words of the pairs it was read in (CROWD_WORDS); made at the first pair, as most lists read none. */
  private crowdWords: Int32Array | undefined;

  constructor(private readonly titles: number) {}

  /** Whether the title being placed has read its share: it then differs from every title but the same one. */
  spent(placed: number): boolean {
    return this.placing === placed && this.wordsRead >= MAX_DIFFERING_WORDS_READ_PER_TITLE;
  }

  /** Whether the word rules may read the pair of `placed`, the title being placed, and `other`, a title before it. */
  allows(placed: number, other: number): boolean {
    if (this.placing !== placed) {
      this.placing = placed;
      this.wordsRead = 0;
    }
    return this.wordsRead < MAX_DIFFERING_WORDS_READ_PER_TITLE && !this.crowded(other);
  }

  /** Counts a pair read (after allows): the differing words of both titles, and whether the rules found them to differ. */
  spend(placed: number, other: number, words: number, differ: boolean): void {
    this.wordsRead += words;
    const counted = (this.crowdWords ??= new Int32Array(this.titles));
    const weighed = differ ? words * DIFFERING_PAIR_WEIGHT : words;
    counted[placed] = counted[placed]! + weighed;
    counted[other] = counted[other]! + weighed;
  }

  /**
   * Records that `placed`, alike to `other` by its bigrams and numbers, was taken to differ from it unread (allows was
   * false): when for `other` being one of a crowd, the title being placed is one of the crowd too.
   */
  refused(placed: number, other: number): void {
    if (!this.crowded(other)) return;
    this.wordsRead = MAX_DIFFERING_WORDS_READ_PER_TITLE;
    this.crowdWords![placed] = Math.max(this.crowdWords![placed]!, CROWD_WORDS);
  }

  private crowded(title: number): boolean {
    const counted = this.crowdWords;
    return counted !== undefined && counted[title]! >= CROWD_WORDS;
  }
}
