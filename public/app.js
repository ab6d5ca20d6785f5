// The search page: the form and the address bar hold the same state (q, kind, providers, timeout_ms, explain and the
// kind's filters), so a search is a link; results and the waterfall fill in as GET /v1/search/{kind}/stream delivers
// them, without moving the results already shown (steady-results.js).
// "More results" adds the next page below them. The page number stays out of the address bar: the page shows
// pages 1 to N at once, which a link could only rebuild with N requests, each asking providers deeper; a link
// (and a reload) is the search itself, from its first page.
// This module connects the page's parts (each a module of its own) and runs the search the address bar holds.

import { unknownProvidersProblem } from './address-problem.js';
import { ApiKey } from './api-key.js';
import { DocumentView } from './document-view.js';
import { MoreResults } from './more-results.js';
import { ProviderCatalogue } from './provider-catalogue.js';
import { checkedProviders, renderChips, showChipsNote } from './provider-chips.js';
import { ProvidersPanel } from './providers-panel.js';
import { connectPasteNote, queryTooLong } from './query-length.js';
import { SearchFilters } from './search-filters.js';
import { SearchForm } from './search-form.js';
import { SearchStream } from './search-stream.js';
import { AUTO_PROVIDERS, asideOf, asksForAuto, searchParams, stateFromUrl, urlFor } from './search-state.js';
import { connectSkipLink } from './skip-link.js';
import { SteadyResults } from './steady-results.js';
import { StopControl } from './stop-control.js';

const form = document.getElementById('search-form');
const queryInput = document.getElementById('q');
const queryNote = document.getElementById('query-note');
const explainSwitch = document.getElementById('explain');
const keyInput = document.getElementById('api-key');
const status = document.getElementById('status');
const announcement = document.getElementById('announcement');
const waterfallTitle = document.getElementById('waterfall-title');
const resultsSection = document.getElementById('results-section');
const resultsList = document.getElementById('results');
const resultsTitle = document.getElementById('results-title');
connectSkipLink(document.getElementById('skip-to-results'), resultsList, resultsTitle);
// The Results heading and "Links open in a new tab." are there only over results: over an empty list (every provider
// failed, or none found anything) they announced results that never came. They come with the first ones, below all
// else, moving nothing already shown. The note says how a document of the embedded index opens only over one: on a
// machine with no keys every result is one, and none opens in a new tab.
const documentsNote = document.getElementById('documents-note');
new MutationObserver(() => {
  resultsSection.hidden = resultsList.children.length === 0;
  documentsNote.hidden = resultsList.querySelector('button[data-document]') === null;
}).observe(resultsList, { childList: true });
connectPasteNote(queryInput, queryNote);
const filters = new SearchFilters({
  disclosure: document.getElementById('filters'),
  count: document.getElementById('filters-count'),
  groups: { web: document.getElementById('web-filters'), papers: document.getElementById('paper-filters') },
});
const fields = new SearchForm({ form, query: queryInput, queryNote, timeout: document.getElementById('timeout'), explain: explainSwitch, filters }, say);

const apiKey = new ApiKey(document.getElementById('key-form'), keyInput, {
  say,
  nextField: queryInput,
  // Nothing is loading until the key is given: "Loading providers…" would wait for ever.
  asked: () => {
    if (catalogue.providers.length === 0) showChipsNote('The providers are listed once the API key is accepted.');
  },
  given: () => void start({ keepEdits: true }).catch((error) => say(error.message, 'error')),
});
const catalogue = new ProviderCatalogue(apiKey);
const panel = new ProvidersPanel({
  section: document.getElementById('waterfall-section'),
  rows: document.getElementById('waterfall'),
  summary: document.getElementById('waterfall-summary'),
  note: document.getElementById('waterfall-note'),
});
// Before MoreResults, which says at once that no page is loading.
// The keyboard goes on at the results; stopped before any came, there is no Results heading: at the Providers one.
const stopControl = new StopControl(document.getElementById('stop-search'), () => (resultsList.children.length ? resultsTitle : waterfallTitle), stopRunning);
const steady = new SteadyResults({
  list: resultsList,
  region: resultsSection,
  sortButton: document.getElementById('sort-results'),
  heading: resultsTitle,
  announceSorted: () => say(`${search.words} The list is now in ranked order.`, status.dataset.kind),
});
// Before MoreResults too, which asks at once whether a search streams; this reaches MoreResults only once a search runs.
const search = new SearchStream(panel, resultsList, steady, {
  headers: () => apiKey.headers(),
  say,
  askForKey: (message) => apiKey.ask(message),
  deadlineFor: (state) => catalogue.deadlineFor(state),
  started: (current) => more.reset(current),
  answered: (answer) => more.shownPage(answer),
  refused: (problem, state) => fields.refused(problem, state),
  // Stop shows while either can be stopped: the search streaming in, or a next page on its way.
  streamingChanged: (streaming) => stopControl.showWhile(streaming || more.busy),
});
const more = new MoreResults(document.getElementById('more-results'), resultsList, {
  pageUrl: (state, page) => `/v1/search/${state.kind}?${searchParams(state, page)}`,
  headers: () => apiKey.headers(),
  say,
  askForKey: (message) => apiKey.ask(message),
  showOutcomes: (state, outcomes, page) => {
    // With providers=auto, those the service chose: their outcomes name them.
    const asked = asksForAuto(state.providers) ? outcomes.map((outcome) => outcome.provider) : state.providers;
    panel.showOutcomes(asked, catalogue.deadlineFor(state), outcomes, page);
  },
  showRanked: () => steady.showRankedNow(),
  busyChanged: (busy) => stopControl.showWhile(search.isStreaming || busy),
});

// A result of the embedded index opens its text over the page: a browser cannot open its local:/// address.
new DocumentView(
  document.getElementById('document-view'),
  {
    title: document.getElementById('document-title'),
    close: document.getElementById('close-document'),
    source: document.getElementById('document-source'),
    status: document.getElementById('document-status'),
    text: document.getElementById('document-text'),
    more: document.getElementById('document-more'),
  },
  {
    headers: () => apiKey.headers(),
    askForKey: (message) => apiKey.ask(message),
    // The result opened was replaced while its view was open (a new search, Back): the keyboard goes on at the results.
    fallbackFocus: () => (resultsList.children.length ? resultsTitle : queryInput),
  },
).connect(resultsList);

/** Shows `text` on the status line and, unless `announce` is false, has a screen reader read it out (index.html). */
function say(text, kind = 'info', { announce = true } = {}) {
  status.textContent = text;
  status.dataset.kind = kind;
  if (announce) announcement.textContent = text;
}

function submit(event) {
  event.preventDefault();
  const state = fields.read();
  if (!state.q) {
    say('Type something to search for.', 'error');
    return queryInput.focus();
  }
  if (!fields.kindAccepted()) return;
  if (!chosenKindAsideSaid(state)) return;
  // Without the list (the key not yet given, or the list not loaded) there are no chips to choose from: "Choose at least
  // one provider" named the wrong thing to do.
  if (catalogue.providers.length > 0 && !apiKey.waiting && state.providers.length === 0) return say('Choose at least one provider.', 'error');
  if (!fields.queryAccepted(state.q)) return;
  if (!fields.deadlineAccepted()) return;
  if (!fields.filtersAccepted(state.kind)) return;
  // A search now would be refused: it waits in the address bar, and runs once the key is taken. Checked first, as with
  // a key: written before, the address lost what the page refuses of a link (time_range=decade), and the search the
  // key started ran without it.
  if (apiKey.waiting) {
    showInAddressBar(waitingForKey(state));
    say('Enter the API key first; the search runs once it is accepted.', 'error');
    return keyInput.focus();
  }
  // The list could not be loaded (a 503, no connection): Search asks for it again, and runs the search as the address
  // then holds it, the link's providers kept as while the key is asked for.
  if (catalogue.providers.length === 0) {
    showInAddressBar(waitingForKey(state));
    return void start().catch((error) => say(error.message, 'error'));
  }
  showInAddressBar(state);
  void search.run(state);
}

/** The address whose filters of the kind not chosen were said last: the next Search, the user told, goes on without them. */
let asideSaidFor;

/**
 * Whether the search `state` may go on: a link's kind the service has no route for (kind=Papers&time_range=day) named
 * filters of a kind, and the kind then chosen is the other. The Search after the choice ran without them, unsaid; they
 * are said once, as for a link of the other kind (kind=papers&time_range=day), and the next Search is without them.
 */
function chosenKindAsideSaid(state) {
  if (!stateFromUrl().refusedKind || asideSaidFor === location.search) return true;
  const aside = filters.asideProblem(asideOf(state.kind));
  if (!aside) return true;
  asideSaidFor = location.search;
  say(aside, 'error');
  // On the choice of the kind they are filters of, as for a link of the other kind: Space takes it.
  [...form.elements.kind].find((choice) => choice.value !== state.kind).focus();
  return false;
}

/**
 * The search `state` as it waits in the address bar for the key. Before the provider list is in there are no chips to
 * choose from: the link's providers stay, when it is a search of that kind, or of a kind chosen in place of one the
 * service has no route for (kind=Papers). So do the other kind's filters it names, said once the list is in, as
 * without a key. Left out, the search the key started asked every default provider, without those filters, unsaid.
 */
function waitingForKey(state) {
  if (catalogue.providers.length > 0) return state;
  const link = stateFromUrl();
  const sameKind = link.kind === state.kind && !link.refusedKind;
  return { ...state, providers: sameKind || link.refusedKind ? link.providers : undefined, aside: sameKind ? link.aside : undefined };
}

/**
 * The key was given while the fields held changes not searched: they stay, with the chips of the kind shown, and the
 * user is told that Search searches them. Filled in from the address, what was typed was lost without a word.
 */
function showKeptEdits() {
  renderChips(catalogue.providers, filters.kind, chosenProvidersOf(filters.kind));
  say('The API key was accepted. The form keeps your changes: press Search to search them.');
}

function showInAddressBar(state) {
  // What the fields held is the address's now: nothing typed is left to keep (start()'s keepEdits).
  fields.edited = false;
  const url = urlFor(state);
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, '', url);
}

/** How many times start() was called: one that is no longer the latest when its list is in leaves the page to the latest. */
let startsSoFar = 0;

/**
 * Shows the search the address bar holds. `reloadProviders: false` (Back and Forward) keeps the provider list
 * already loaded: asking for it again on each step cost a request against the rate limit, and a refused one left
 * the search just left on the page, under the address bar of another. `keepEdits` (the key just given): fields changed
 * since the address filled them in keep what the user typed, and nothing is searched until Search is pressed.
 */
async function start({ reloadProviders = true, keepEdits = false } = {}) {
  const started = ++startsSoFar;
  // The address bar moved (back, forward, a new key): the search shown so far no longer belongs to it.
  search.cancel();
  let listProblem;
  const listed =
    reloadProviders || catalogue.providers.length === 0
      ? await catalogue.load().catch((error) => {
          listProblem = error.message;
          return false;
        })
      : true;
  // Another start (Search pressed while the list loaded, Back) waited for the same list: the address is the latest's
  // to show, and both searching it sent the search twice.
  if (started !== startsSoFar) return;
  const state = stateFromUrl();
  const keep = keepEdits && fields.edited;
  // The link's fields show while the key is asked for too, so that a Search before it is the link's, checked as it
  // would be with a key; its chips wait for the list. So they do when the list could not be loaded (a 500, a 503, no
  // connection): the form was left empty, and the link's search lost.
  if (!keep) {
    fields.show(state);
    resultsList.classList.toggle('explaining', state.explain);
  }
  if (listProblem) {
    search.clear();
    showChipsNote('The providers could not be loaded: press Search to try again.');
    return say(listProblem, 'error');
  }
  if (!listed) return;
  if (keep) return showKeptEdits();
  renderChips(catalogue.providers, state.kind, state.providers);
  if (!state.q) {
    search.clear();
    return queryInput.focus();
  }
  // A link's kind the service has no route for (kind=Papers, kind=images): no search of another kind in its place.
  if (fields.kindProblem) {
    search.clear();
    return void fields.kindAccepted();
  }
  const current = fields.read();
  // A link whose providers are none of its kind (papers=brave, a name since removed) checks no chip: as on submit,
  // ask for one rather than send a search with none.
  if (current.providers.length === 0) {
    search.clear();
    return say('Choose at least one provider.', 'error');
  }
  // Some of them only (providers=arxiv,brave for papers): said, not searched without the others, the address as written;
  // Search, the user told, searches the chips checked.
  const unknown = catalogue.unknownOf(state.providers ?? [], current.kind);
  if (unknown.length > 0) {
    search.clear();
    say(unknownProvidersProblem(unknown, current.kind), 'error');
    return document.querySelector('#provider-chips input:checked').focus();
  }
  if (queryTooLong(current.q, queryInput)) {
    search.clear();
    return void fields.queryAccepted(current.q);
  }
  // A link's deadline the service would refuse (timeout_ms=abc, 0, 1.5): said on its field, not searched with the default.
  if (fields.deadlineProblem) {
    search.clear();
    return void fields.deadlineAccepted();
  }
  // A link's filter value the service would refuse (time_range=decade, year_from=abc, a repeated one), or years out of
  // range or in the wrong order: said in the page's words, on the field, as on submit, and the address left as written.
  if (filters.problem(current.kind)) {
    search.clear();
    return void fields.filtersAccepted(current.kind);
  }
  // A link's filters of the other kind (kind=papers&time_range=day), which the service refuses as unknown fields: kept
  // on that kind's fields, said, and not searched without; the next Search is of the kind chosen, with its filters.
  const aside = filters.asideProblem(state.aside);
  if (aside) {
    search.clear();
    say(aside, 'error');
    // On the choice of the kind they are filters of: Space takes it, Enter searches the kind shown without them.
    return [...form.elements.kind].find((choice) => choice.value === state.aside.kind).focus();
  }
  history.replaceState(null, '', urlFor(current));
  void search.run(current);
}

form.addEventListener('submit', submit);
form.addEventListener('change', (event) => {
  if (event.target.name !== 'kind') return;
  // Each kind's filters keep their values; only the kind searched shows (and is sent). Those of the kind left are said.
  const left = filters.kind;
  filters.showKind(event.target.value);
  const leftBehind = filters.leftBehind(left);
  if (leftBehind) say(leftBehind);
  // Before the list is loaded (the key not yet given) there is nothing to show: "No providers of this kind" was wrong.
  if (catalogue.providers.length > 0) renderChips(catalogue.providers, event.target.value, chosenProvidersOf(event.target.value));
});

/** The chips to check when those of `kind` show: auto while it is checked (the service chooses for either kind), else linkProvidersOf(kind). */
function chosenProvidersOf(kind) {
  return asksForAuto(checkedProviders()) ? [AUTO_PROVIDERS] : linkProvidersOf(kind);
}

/**
 * The address's providers when every one is a provider of `kind`: the ones a link of that kind asked for, and chosen
 * again on a switch back to it. So is a link's kind the service has no route for (kind=Papers&providers=arxiv): the
 * choice of the kind it meant found that kind's defaults on instead of the link's. Otherwise undefined: the defaults.
 */
function linkProvidersOf(kind) {
  const given = stateFromUrl().providers ?? [];
  return given.length > 0 && catalogue.unknownOf(given, kind).length === 0 ? given : undefined;
}

explainSwitch.addEventListener('change', () => {
  resultsList.classList.toggle('explaining', explainSwitch.checked);
  // The switch's own parameter only: rebuilt from the state, the address lost a filter value the page refused (marked
  // on its field, not searched), and the next reload searched without it.
  const params = new URLSearchParams(location.search);
  if (explainSwitch.checked) params.set('explain', 'true');
  else params.delete('explain');
  history.replaceState(null, '', `${location.pathname}?${params}`);
});

/** Stops the search streaming in, or else the next page on its way; returns whether either was running. */
function stopRunning() {
  return search.stop() || more.stop();
}

// Escape stops a search while its results stream in (or a next page while it loads), as it stops a page loading in
// most browsers: the deadline may be up to 30 s away, and until now only another search or leaving the page ended it.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
  // In the search box, Escape would also empty it: the query stays, with the results it found.
  if (stopRunning()) event.preventDefault();
});
window.addEventListener('popstate', () => void start({ reloadProviders: false }).catch((error) => say(error.message, 'error')));

void start().catch((error) => say(error.message, 'error'));
