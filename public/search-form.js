// The search form's fields as a search's state (search-state.js): read when the form is sent, filled in from the
// address bar, and checked before searching, each problem said in the page's words and marked on its field.

import { checkedProviders, renderChips } from './provider-chips.js';
import { queryTooLong } from './query-length.js';
import { stateFromUrl } from './search-state.js';

export class SearchForm {
  /** @param fields the form, its query box, the note beside it, the deadline field and the Explain switch; @param say the status line */
  constructor({ form, query, queryNote, timeout, explain }, say) {
    this.form = form;
    this.query = query;
    this.queryNote = queryNote;
    this.timeout = timeout;
    this.explain = explain;
    this.say = say;
  }

  /** The search the fields describe. */
  read() {
    // Providers keep the order the address bar gave them, so a shared link stays as it was written.
    const given = stateFromUrl().providers ?? [];
    const place = (name) => (given.includes(name) ? given.indexOf(name) : given.length);
    const checked = checkedProviders();
    return {
      q: this.query.value.trim(),
      kind: this.form.elements.kind.value,
      providers: checked.map((name, index) => [place(name), index, name]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]),
      timeout: this.timeout.value.trim(),
      explain: this.explain.checked,
    };
  }

  /** Fills the fields in with `state`, the chips with the `providers` of the catalogue. */
  show(state, providers) {
    this.query.value = state.q;
    // Said of the text the box held before: a cut paste, a query too long.
    this.queryNote.textContent = '';
    this.query.removeAttribute('aria-invalid');
    this.form.elements.kind.value = state.kind;
    this.timeout.value = state.timeout;
    this.explain.checked = state.explain;
    renderChips(providers, state.kind, state.providers);
  }

  /**
   * A deadline the field itself knows is wrong is said there, before searching. "1e" reads as an empty value, and the
   * search ran with the default deadline instead of the one typed; out of range, the service's refusal named
   * timeout_ms, a word the page shows nowhere, and left the field unmarked, a step behind in the history.
   */
  deadlineAccepted() {
    const { rangeUnderflow, rangeOverflow, badInput } = this.timeout.validity;
    const wrong = rangeUnderflow || rangeOverflow || badInput;
    return this.accepted(this.timeout, wrong ? `The deadline must be a number of milliseconds from ${this.timeout.min} to ${this.timeout.max}, or empty for the default.` : undefined);
  }

  /**
   * A query longer than a search takes (the box holds one from a link or the history, shortened too little) is said
   * in the page's words, before searching: the service's refusal named "q", a word the page shows nowhere. It stays
   * in the box, marked, to be shortened.
   */
  queryAccepted(query) {
    return this.accepted(this.query, queryTooLong(query, this.query));
  }

  /** Whether `field` holds no `problem`; one it holds is marked on it, said on the status line, and focused to be mended. */
  accepted(field, problem) {
    if (!problem) {
      field.removeAttribute('aria-invalid');
      return true;
    }
    field.setAttribute('aria-invalid', 'true');
    this.say(problem, 'error');
    field.focus();
    return false;
  }
}
