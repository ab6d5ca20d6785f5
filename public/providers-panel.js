// The Providers panel: a search's waterfall (waterfall.js), how many providers finished beside its heading, and the
// note under it that says what the bars and the dashed line are.

import { answeredOf } from './answer-words.js';
import { Waterfall } from './waterfall.js';

export class ProvidersPanel {
  /** @param elements the panel's section, its waterfall's container, the summary beside its heading and the note under it */
  constructor({ section, rows, summary, note }) {
    this.section = section;
    this.rows = rows;
    this.summary = summary;
    this.note = note;
  }

  /** A search starts: every provider it asks gets a bar, none finished yet. Returns the waterfall, to record each answer in. */
  start(providers, deadline) {
    this.section.hidden = false;
    this.summary.textContent = '';
    const waterfall = new Waterfall(this.rows, providers, deadline);
    this.note.textContent = `Each bar runs from the start of the search to that provider's answer; the dashed line is the deadline (${deadline} ms).`;
    return waterfall;
  }

  /** The words beside the heading: how many have finished, or answered. */
  summarise(text) {
    this.summary.textContent = text;
  }

  /**
   * No search on the page, or one refused before it started (a bad deadline, the rate limit, a refused key, no
   * connection): that one asked no provider, and a Providers panel listing each as "no answer" said otherwise. (It
   * has no results: no Results heading.)
   */
  hide() {
    this.section.hidden = true;
  }

  /**
   * The waterfall shows the latest page's outcomes, not the first page's: a later page may ask providers again,
   * deeper, and one that failed then is why that page came back short. A kept answer repeats the outcomes it
   * was gathered with (the status line says cached).
   */
  showOutcomes(providers, deadline, outcomes, page) {
    const waterfall = new Waterfall(this.rows, providers, deadline);
    waterfall.finish(outcomes);
    this.summary.textContent = `page ${page}: ${answeredOf(outcomes)}`;
  }
}
