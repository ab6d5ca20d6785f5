// The search's filters (docs/providers.md "Filters"), folded under "Filters" (index.html): a group of controls per
// kind, of which only the current kind's shows and is sent. The other kind's keep their values, for when the user
// switches back. Folded, the summary says how many are set, so a search is never narrowed by a filter out of sight.

import { FILTERS } from './search-state.js';

/** A domain list as typed ("a.org, ,b.org") as the service reads it: comma-separated, blanks and spaces left out. */
function domainList(text) {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .join(',');
}

export class SearchFilters {
  /** @param elements the disclosure, the count in its summary, and the group of controls of each kind ({ web, papers }) */
  constructor({ disclosure, count, groups }) {
    this.disclosure = disclosure;
    this.count = count;
    this.groups = groups;
    this.kind = 'web';
    for (const group of Object.values(groups)) group.addEventListener('input', () => this.showCount());
  }

  /** The control of filter `name` of `kind`. */
  control(kind, name) {
    return this.groups[kind].elements.namedItem(name);
  }

  /** The filters the controls of `kind` set, by name, as text: what the address bar and the request carry. */
  read(kind) {
    const filters = {};
    for (const name of FILTERS[kind]) {
      const control = this.control(kind, name);
      const value = control.type === 'checkbox' ? (control.checked ? 'true' : '') : control.value.trim();
      if (value) filters[name] = control.dataset.domainList === undefined ? value : domainList(value);
    }
    return filters;
  }

  /** Sets the controls of `kind` to `filters` (a link's, the history's) and shows that kind's. */
  show(kind, filters = {}) {
    for (const name of FILTERS[kind]) {
      const control = this.control(kind, name);
      const value = filters[name] ?? '';
      if (control.type === 'checkbox') control.checked = value === 'true';
      else control.value = value;
      // A value a list does not offer (time_range=decade in a link) selected none, a blank list: its first entry, "any".
      if (control.selectedIndex === -1) control.selectedIndex = 0;
      control.removeAttribute('aria-invalid');
    }
    this.showKind(kind);
  }

  /** Shows the controls of `kind` only: the other kind's are out of sight and out of the Tab order, values kept. */
  showKind(kind) {
    this.kind = kind;
    for (const [groupKind, group] of Object.entries(this.groups)) group.hidden = groupKind !== kind;
    this.showCount();
  }

  showCount() {
    const set = Object.keys(this.read(this.kind)).length;
    this.count.textContent = set === 0 ? '' : ` (${set} set)`;
  }

  /** Unfolds the filters, so that a field in them can be focused and mended. */
  open() {
    this.disclosure.open = true;
  }

  /** Takes the marks of earlier problems off the controls of `kind`. */
  unmark(kind) {
    for (const name of FILTERS[kind]) this.control(kind, name).removeAttribute('aria-invalid');
  }

  /**
   * The first value of `kind` the controls themselves know is wrong, as `{ field, problem }`, or undefined: said before
   * searching, in the page's words, rather than sent for the service to refuse in the API's ("year_from: …").
   */
  problem(kind) {
    if (kind === 'papers') {
      const from = this.control(kind, 'year_from');
      const to = this.control(kind, 'year_to');
      for (const field of [from, to]) {
        const { rangeUnderflow, rangeOverflow, stepMismatch, badInput } = field.validity;
        if (rangeUnderflow || rangeOverflow || stepMismatch || badInput) {
          return { field, problem: `${labelOf(field)} must be a year from ${field.min} to ${field.max}, or empty for any.` };
        }
      }
      if (from.value && to.value && Number(from.value) > Number(to.value)) {
        return { field: from, problem: `${labelOf(from)} (${from.value}) is after ${labelOf(to).toLowerCase()} (${to.value}): no paper can match. Swap them, or empty one.` };
      }
      return undefined;
    }
    const language = this.control(kind, 'language');
    if (language.validity.patternMismatch) {
      return { field: language, problem: `${labelOf(language)} must be a language code such as en or pt-BR, or empty for any.` };
    }
    return undefined;
  }

  /**
   * The service's refusal of a search (`problem`, its 400 body) as `{ field, problem }` when it names a filter of the
   * search's `state`: said with the field's label and the entry refused ("Only these domains, “a b”: not a domain
   * name; …"), as the page names its fields, rather than the API's "include_domains.0". Undefined for any other
   * refusal, and when the search's kind is no longer the one shown (its field is out of sight).
   */
  refusal(problem, state) {
    if (state.kind !== this.kind || !Array.isArray(problem?.details)) return undefined;
    const names = FILTERS[state.kind];
    const detail = problem.details.find((entry) => names.includes(String(entry?.field).split('.')[0]));
    if (!detail) return undefined;
    const [name, index] = String(detail.field).split('.');
    const field = this.control(state.kind, name);
    // The service numbers a list's entries from 0, as it read them: split at the commas the request was sent with.
    const entry = index === undefined ? undefined : state.filters[name]?.split(',')[Number(index)];
    const which = entry === undefined ? '' : `, “${entry}”`;
    return { field, problem: `${labelOf(field)}${which}: ${detail.message}` };
  }
}

/** The words of a control's label: what the page calls the field. */
function labelOf(field) {
  return field.labels[0]?.textContent.trim() ?? field.name;
}
