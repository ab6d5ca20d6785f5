// The search's filters (docs/providers.md "Filters"), folded under "Filters" (index.html): a group of controls per
// kind, of which only the current kind's shows and is sent. The other kind's keep their values, for when the user
// switches back. Folded, the summary says how many are set, so a search is never narrowed by a filter out of sight.

import { addressProblem, quoted } from './address-problem.js';
import { FILTERS } from './search-state.js';

/** How the page speaks of each kind: its searches, one of them, and its choice above the filters (index.html). */
const KIND_WORDS = {
  web: { searches: 'web searches', one: 'a web search', choice: 'Web' },
  papers: { searches: 'paper searches', one: 'a paper search', choice: 'Papers' },
};

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
    /** What is wrong with the value a link gave a control (refusedFilters), said until the control is changed. */
    this.addressProblems = new Map();
    for (const group of Object.values(groups)) {
      group.addEventListener('input', (event) => {
        this.addressProblems.delete(event.target);
        this.showCount();
      });
    }
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

  /**
   * Sets the controls of `kind` to `filters` (a link's, the history's) and shows that kind's. A value the service would
   * refuse (`refused`, by name, the address's texts) is held where the control can hold it as written (a language
   * code, a year with a fraction); a list then selects no entry, and a box is neither ticked nor clear: none is "any",
   * which the link did not ask for. Each is a problem of its field until the field is changed.
   */
  show(kind, filters = {}, refused = {}) {
    for (const name of FILTERS[kind]) this.set(this.control(kind, name), filters[name], refused[name]);
    this.showKind(kind);
  }

  /**
   * Sets the controls of the other kind that a link names (`aside`, from stateFromUrl()), out of sight: a switch to
   * that kind finds them as the link wrote them, as it finds the values set before a switch. The others keep theirs.
   */
  keepAside(aside) {
    for (const name of Object.keys(aside.asked)) this.set(this.control(aside.kind, name), aside.filters[name], aside.refusedFilters[name]);
  }

  /** Sets `control` to `value`, or to what it can hold of `texts`, the address's value the service would refuse. */
  set(control, value, texts) {
    const shown = value ?? (texts?.length === 1 ? texts[0] : '');
    if (control.type === 'checkbox') {
      control.checked = shown === 'true';
      control.indeterminate = texts !== undefined;
    } else {
      control.value = shown;
    }
    if (texts !== undefined && control.type === 'select-one') control.selectedIndex = -1;
    control.removeAttribute('aria-invalid');
    if (texts === undefined) this.addressProblems.delete(control);
    else this.addressProblems.set(control, addressProblem(labelOf(control), texts, allowedIn(control)));
  }

  /**
   * What to say of a link's filters of the other kind (`aside`): the service refuses them as unknown fields of the
   * kind searched, and a search without them is another than the link asked for. Undefined when it names none.
   */
  asideProblem(aside) {
    const names = Object.keys(aside.asked);
    if (names.length === 0) return undefined;
    const given = names.map((name) => `${labelOf(this.control(aside.kind, name))} ${quoted(aside.asked[name])}`);
    const [them, filtersOf] = names.length === 1 ? ['it', 'a filter'] : ['them', 'filters'];
    const listed = given.length === 1 ? given[0] : `${given.slice(0, -1).join(', ')} and ${given.at(-1)}`;
    const other = KIND_WORDS[aside.kind];
    const searched = KIND_WORDS[aside.kind === 'web' ? 'papers' : 'web'];
    return `The address asks for ${listed}, ${filtersOf} of ${other.searches}, not of ${searched.searches}. Choose ${other.choice} to search with ${them}, or press Search for ${searched.one} without ${them}.`;
  }

  /**
   * What to say when the kind is switched by hand from `kind` to the one now shown while filters of `kind` are set:
   * none of them is a filter of the kind shown, and its search is sent without them. Out of sight with their group,
   * they narrowed nothing any more, without a word. Undefined when none is set.
   */
  leftBehind(kind) {
    if (kind === this.kind) return undefined;
    const labels = Object.keys(this.read(kind)).map((name) => labelOf(this.control(kind, name)));
    if (labels.length === 0) return undefined;
    const listed = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
    const [are, filtersOf, them, stay] = labels.length === 1 ? ['is', 'a filter', 'it', 'It stays'] : ['are', 'filters', 'them', 'They stay'];
    const left = KIND_WORDS[kind];
    return `${listed} ${are} ${filtersOf} of ${left.searches}: ${KIND_WORDS[this.kind].one} is sent without ${them}. ${stay} set for when you choose ${left.choice} again.`;
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
   * The first value of `kind` the controls themselves know is wrong, or a link gave them that the service would refuse,
   * as `{ field, problem }`, or undefined: said before searching, in the page's words, rather than sent for the service
   * to refuse in the API's ("year_from: …").
   */
  problem(kind) {
    for (const name of FILTERS[kind]) {
      const field = this.control(kind, name);
      if (this.addressProblems.has(field)) return { field, problem: this.addressProblems.get(field) };
    }
    if (kind === 'papers') {
      const from = this.control(kind, 'year_from');
      const to = this.control(kind, 'year_to');
      for (const field of [from, to]) {
        const { rangeUnderflow, rangeOverflow, stepMismatch, badInput } = field.validity;
        if (rangeUnderflow || rangeOverflow || stepMismatch || badInput) return { field, problem: allowedIn(field) };
      }
      if (from.value && to.value && Number(from.value) > Number(to.value)) {
        return { field: from, problem: `${labelOf(from)} (${from.value}) is after ${labelOf(to).toLowerCase()} (${to.value}): no paper can match. Swap them, or empty one.` };
      }
      return undefined;
    }
    const language = this.control(kind, 'language');
    if (language.validity.patternMismatch) return { field: language, problem: allowedIn(language) };
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

/**
 * What `field` takes, in the page's words: said of a value typed into it and of one a link gave it. A domain list's
 * entries are the service's to judge (refusal()).
 */
function allowedIn(field) {
  const label = labelOf(field);
  if (field.type === 'number') return `${label} must be a year from ${field.min} to ${field.max}, or empty for any.`;
  if (field.type === 'checkbox') return `${label} must be ticked or clear: true or 1, false or 0 in an address.`;
  if (field.type === 'select-one') return `${label} must be one of its choices: ${[...field.options].map((option) => option.textContent.trim()).join(', ')}.`;
  return `${label} must be a language code such as en or pt-BR, or empty for any.`;
}
