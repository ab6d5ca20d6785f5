// Streamed results that stay where they are. Each provider's answer fuses into a new ranking; laid out again on
// each one, the result under the pointer went down (or another took its place) just as it was clicked, and the
// user opened the wrong page. As well-made streaming pages do (a feed's "new posts" control, a search that
// appends), nothing shown moves once the first results are on the page: later ones join at the end of the list,
// and the ranked order waits until the user asks for it ("Sort by rank"), or the search is done and the user is
// not on the results (no pointer over them, no focus in them, not scrolled into them).

import { appendResults, renderResults } from './results.js';

/** A result as shown: any change to it (a new source, a new score) is a change the ranked order would show. */
const keyOf = (result) => JSON.stringify(result);

export class SteadyResults {
  /**
   * @param list the results list; @param region the results section: a pointer or focus anywhere in it (the list,
   *   the controls around it) means the user is on the results; @param sortButton the "Sort by rank" control;
   *   @param heading where focus goes once the list is sorted on request (the control goes, and focus with it)
   *   @param announceSorted called once a held list takes its ranked order: the status line still said "Sort by rank
   *   puts it in ranked order", naming a control that was gone, and a screen reader heard nothing of the new order
   */
  constructor({ list, region, sortButton, heading, announceSorted }) {
    this.list = list;
    this.region = region;
    this.sortButton = sortButton;
    this.heading = heading;
    this.announceSorted = announceSorted;
    sortButton.addEventListener('click', () => this.sortOnRequest());
    // Leaving the results is when the held order can be shown: nobody is reading or pointing at what moves.
    region.addEventListener('pointerleave', () => this.sortWhenFree({ pointerInside: false }));
    region.addEventListener('focusout', (event) => this.sortWhenFree({ focused: event.relatedTarget }));
    this.reset();
  }

  /** A new search (or none): nothing shown, nothing held. */
  reset(kind = 'web') {
    this.kind = kind;
    this.ranked = [];
    this.done = false;
    this.shownKeys = [];
    this.shownUrls = new Set();
    this.addedAtEnd = 0;
    this.sortButton.hidden = true;
  }

  /**
   * The ranking so far (each `results` event carries all of it). Returns what changed on the page in words, for
   * the status line: results added at the end are below the fold as often as not.
   */
  update(results) {
    this.ranked = results;
    // Nothing on the page yet: nothing can move, so the first results come in their order.
    if (this.shownKeys.length === 0) {
      this.showRanked();
      return '';
    }
    const fresh = results.filter((result) => !this.shownUrls.has(result.url));
    appendResults(this.list, fresh, this.kind, this.shownUrls);
    this.shownKeys.push(...fresh.map(keyOf));
    this.addedAtEnd += fresh.length;
    this.sortButton.hidden = this.inRankedOrder();
    return fresh.length ? `${fresh.length} new at the end of the list.` : '';
  }

  /** The final ranking: shown at once if the user is not on the results, else held behind "Sort by rank". */
  finish(results) {
    this.done = true;
    if (!this.userOnResults({})) {
      this.ranked = results;
      this.showRanked();
      return '';
    }
    this.update(results);
    if (this.sortButton.hidden) return '';
    // Said once more at the end: the status line's earlier words about late results were replaced as they came.
    const late = this.addedAtEnd === 1 ? '1 result came late and is at the end of the list' : `${this.addedAtEnd} results came late and are at the end of the list`;
    const kept = this.addedAtEnd ? late : 'The list kept its place while you were on it';
    return `${kept}; Sort by rank puts it in ranked order.`;
  }

  /** Before a next page is added below: it continues the ranked order, so the list above must be in it. */
  showRankedNow() {
    if (!this.sortButton.hidden) this.showRanked();
  }

  sortOnRequest() {
    const hadFocus = document.activeElement === this.sortButton;
    this.showRanked();
    this.announceSorted();
    // The control goes once the list is in order: focus on it would drop to the top of the page.
    if (hadFocus) this.heading.focus();
  }

  /**
   * `pointerInside` and `focused` as the event that asks tells them: while a pointerleave or focusout is being
   * dispatched, :hover and document.activeElement may still name the place being left.
   */
  sortWhenFree(attention) {
    if (!this.done || this.sortButton.hidden || this.userOnResults(attention)) return;
    this.showRanked();
    this.announceSorted();
  }

  userOnResults({ pointerInside = this.region.matches(':hover'), focused = document.activeElement }) {
    const scrolledInto = this.list.getBoundingClientRect().top < 0;
    return pointerInside || this.region.contains(focused) || scrolledInto;
  }

  showRanked() {
    renderResults(this.list, this.ranked, this.kind);
    this.shownKeys = this.ranked.map(keyOf);
    this.shownUrls = new Set(this.ranked.map((result) => result.url));
    this.addedAtEnd = 0;
    this.sortButton.hidden = true;
  }

  inRankedOrder() {
    return this.shownKeys.length === this.ranked.length && this.ranked.every((result, index) => keyOf(result) === this.shownKeys[index]);
  }
}
