// The search form's fields as a search's state (search-state.js): read when the form is sent, filled in from the
// address bar, and checked before searching, each problem said in the page's words and marked on its field.

import { addressProblem } from './address-problem.js';
import { checkedProviders } from './provider-chips.js';
import { queryTooLong } from './query-length.js';
import { stateFromUrl } from './search-state.js';

export class SearchForm {
  /**
   * @param fields the form, its query box, the note beside it, the deadline field, the Explain switch and the filters
   *   (search-filters.js); @param say the status line
   */
  constructor({ form, query, queryNote, timeout, explain, filters }, say) {
    this.form = form;
    this.filters = filters;
    this.query = query;
    this.queryNote = queryNote;
    this.timeout = timeout;
    this.explain = explain;
    this.say = say;
    /** What is wrong with the kind and the deadline a link gave (stateFromUrl()), said until each is changed. */
    this.kindProblem = undefined;
    this.deadlineProblem = undefined;
    /**
     * Whether the fields were changed since they were last filled in or searched: what the user typed while the key was
     * asked for is theirs, and the key given must not fill the address's values in over it.
     */
    this.edited = false;
    // Not the Explain switch: it writes itself into the address as it is turned, so the key given reads it from there.
    // Counted as a change, it kept the link's search waiting for a Search press the user had no reason to make.
    const edited = (event) => {
      if (event.target !== explain) this.edited = true;
    };
    form.addEventListener('input', edited);
    form.addEventListener('change', edited);
    form.addEventListener('change', (event) => {
      if (event.target.name !== 'kind') return;
      this.kindProblem = undefined;
      for (const choice of this.form.elements.kind) choice.removeAttribute('aria-invalid');
    });
    timeout.addEventListener('input', () => {
      this.deadlineProblem = undefined;
    });
  }

  /** The search the fields describe. */
  read() {
    // Providers keep the order the address bar gave them, so a shared link stays as it was written.
    const given = stateFromUrl().providers ?? [];
    const place = (name) => (given.includes(name) ? given.indexOf(name) : given.length);
    const checked = checkedProviders();
    // No kind chosen (a link's kind the service has no route for): the kind shown, whose filters and chips show.
    const kind = this.form.elements.kind.value || this.filters.kind;
    return {
      q: this.query.value.trim(),
      kind,
      providers: checked.map((name, index) => [place(name), index, name]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]),
      timeout: this.timeout.value.trim(),
      explain: this.explain.checked,
      filters: this.filters.read(kind),
    };
  }

  /**
   * Fills the fields in with `state`. Not the chips: they need the provider list, which waits for the API key, while a
   * link's fields do not; filled only once the key was taken, a Search before it wrote an address without them.
   */
  show(state) {
    this.edited = false;
    this.query.value = state.q;
    // Said of the text the box held before: a cut paste, a query too long.
    this.queryNote.textContent = '';
    this.query.removeAttribute('aria-invalid');
    this.showKind(state);
    this.showDeadline(state);
    this.explain.checked = state.explain;
    this.filters.show(state.kind, state.filters, state.refusedFilters);
    this.filters.keepAside(state.aside);
  }

  /**
   * The kind of `state`. One the service has no route for (kind=Papers, kind=images) checks neither choice, as a list
   * selects no entry for a value it does not offer: either would be a search the link did not ask for.
   */
  showKind(state) {
    const choices = [...this.form.elements.kind];
    for (const choice of choices) {
      choice.checked = state.refusedKind === undefined && choice.value === state.kind;
      choice.removeAttribute('aria-invalid');
    }
    const kinds = choices.map((choice) => choice.value).join(' or ');
    const labels = choices.map((choice) => choice.labels[0].textContent.trim()).join(' or ');
    this.kindProblem = state.refusedKind && addressProblem('the kind', state.refusedKind, `A search is of kind ${kinds}, in small letters: choose ${labels}.`);
  }

  /** The deadline of `state`; one the service would refuse is held as written where the field can hold it, and said. */
  showDeadline(state) {
    const texts = state.refusedTimeout;
    this.timeout.value = texts ? (texts.length === 1 ? texts[0] : '') : state.timeout;
    this.deadlineProblem = texts && addressProblem('Deadline', texts, this.deadlineAllowed());
  }

  /** Whether a kind is chosen; a link's the service has no route for is said, marked on the choices, until one is made. */
  kindAccepted() {
    if (!this.kindProblem) return true;
    const choices = [...this.form.elements.kind];
    for (const choice of choices) choice.setAttribute('aria-invalid', 'true');
    this.say(this.kindProblem, 'error');
    choices[0].focus();
    return false;
  }

  /**
   * A deadline the field itself knows is wrong, or a link gave it that the service would refuse, is said there, before
   * searching. "1e" reads as an empty value, and the search ran with the default deadline instead of the one typed; out
   * of range, the service's refusal named timeout_ms, a word the page shows nowhere, and left the field unmarked, a step
   * behind in the history.
   */
  deadlineAccepted() {
    const { rangeUnderflow, rangeOverflow, badInput } = this.timeout.validity;
    // The field's step is its arrows' (100 ms), no rule: the service takes any whole number in range, but no fraction.
    const fraction = this.timeout.value !== '' && !Number.isInteger(Number(this.timeout.value));
    const wrong = rangeUnderflow || rangeOverflow || badInput || fraction;
    return this.accepted(this.timeout, this.deadlineProblem ?? (wrong ? this.deadlineAllowed() : undefined));
  }

  /** What the deadline field takes. */
  deadlineAllowed() {
    return `The deadline must be a whole number of milliseconds from ${this.timeout.min} to ${this.timeout.max}, or empty for the default.`;
  }

  /**
   * A query longer than a search takes (the box holds one from a link or the history, shortened too little) is said
   * in the page's words, before searching: the service's refusal named "q", a word the page shows nowhere. It stays
   * in the box, marked, to be shortened.
   */
  queryAccepted(query) {
    return this.accepted(this.query, queryTooLong(query, this.query));
  }

  /** Filters of the search's `kind` the controls know are wrong (a year out of range, years in the wrong order), said before searching. */
  filtersAccepted(kind) {
    this.filters.unmark(kind);
    const found = this.filters.problem(kind);
    if (!found) return true;
    this.filters.open();
    return this.accepted(found.field, found.problem);
  }

  /**
   * Whether the service's refusal of the search `state` (its 400 body, `problem`) was of a filter, and so said here: on
   * the status line in the field's words, the field marked, unfolded and focused to be mended, as a problem found
   * before searching is. A domain entry is the service's to judge.
   */
  refused(problem, state) {
    const found = this.filters.refusal(problem, state);
    if (!found) return false;
    this.filters.open();
    this.accepted(found.field, found.problem);
    return true;
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
