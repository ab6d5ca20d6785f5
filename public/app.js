// The search page: the form and the address bar hold the same state (q, kind, providers, timeout_ms, explain),
// so a search is a link; results and the waterfall fill in as GET /v1/search/{kind}/stream delivers them, without
// moving the results already shown (steady-results.js).
// "More results" adds the next page below them. The page number stays out of the address bar: the page shows
// pages 1 to N at once, which a link could only rebuild with N requests, each asking providers deeper; a link
// (and a reload) is the search itself, from its first page.

import { answeredOf, answeredOk, doneMessage, statusWords } from './answer-words.js';
import { readEvents } from './event-stream.js';
import { searchParams, stateFromUrl, urlFor } from './search-state.js';
import { MoreResults } from './more-results.js';
import { checkedProviders, renderChips, showChipsNote } from './provider-chips.js';
import { connectPasteNote, queryTooLong } from './query-length.js';
import { connectSkipLink } from './skip-link.js';
import { SteadyResults } from './steady-results.js';
import { StopControl } from './stop-control.js';
import { Waterfall } from './waterfall.js';

const KEY_STORAGE = 'fedsearch-api-key';
/** What the key form says before any key was given; every other reason to ask is a refused key. */
const KEY_NEEDED = 'This service needs an API key.';

const form = document.getElementById('search-form');
const queryInput = document.getElementById('q');
const queryNote = document.getElementById('query-note');
const timeoutInput = document.getElementById('timeout');
const explainSwitch = document.getElementById('explain');
const keyForm = document.getElementById('key-form');
const keyInput = document.getElementById('api-key');
const status = document.getElementById('status');
const announcement = document.getElementById('announcement');
const waterfallSection = document.getElementById('waterfall-section');
const waterfallTitle = document.getElementById('waterfall-title');
const waterfallSummary = document.getElementById('waterfall-summary');
const resultsSection = document.getElementById('results-section');
const resultsList = document.getElementById('results');
const resultsTitle = document.getElementById('results-title');
connectSkipLink(document.getElementById('skip-to-results'), resultsList, resultsTitle);
// The Results heading and "Links open in a new tab." are there only over results: over an empty list (every provider
// failed, or none found anything) they announced results that never came. They come with the first ones, below all
// else, moving nothing already shown.
new MutationObserver(() => (resultsSection.hidden = resultsList.children.length === 0)).observe(resultsList, { childList: true });
connectPasteNote(queryInput, queryNote);

let catalogue = [];
let running;
/** The search whose results are still streaming in, and how to stop it (Escape, Stop); undefined once it has its answer. */
let streaming;
/** The status line's words about the search itself (results so far, or the answer), without those about held results. */
let searchWords = '';

// Before MoreResults, which says at once that no page is loading.
// The keyboard goes on at the results; stopped before any came, there is no Results heading: at the Providers one.
const stopControl = new StopControl(document.getElementById('stop-search'), () => (resultsList.children.length ? resultsTitle : waterfallTitle), stopRunning);
const steady = new SteadyResults({
  list: resultsList,
  region: resultsSection,
  sortButton: document.getElementById('sort-results'),
  heading: resultsTitle,
  announceSorted: () => say(`${searchWords} The list is now in ranked order.`, status.dataset.kind),
});
const more = new MoreResults(document.getElementById('more-results'), resultsList, {
  pageUrl: (state, page) => `/v1/search/${state.kind}?${searchParams(state, page)}`,
  headers,
  say,
  askForKey,
  showOutcomes,
  showRanked: () => steady.showRankedNow(),
  busyChanged: (busy) => stopControl.showWhile(streaming !== undefined || busy),
});

function headers() {
  const key = sessionStorage.getItem(KEY_STORAGE);
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** Shows `text` on the status line and, unless `announce` is false, has a screen reader read it out (index.html). */
function say(text, kind = 'info', { announce = true } = {}) {
  status.textContent = text;
  status.dataset.kind = kind;
  if (announce) announcement.textContent = text;
}

function stateFromForm() {
  // Providers keep the order the address bar gave them, so a shared link stays as it was written.
  const given = stateFromUrl().providers ?? [];
  const place = (name) => (given.includes(name) ? given.indexOf(name) : given.length);
  const checked = checkedProviders();
  return {
    q: queryInput.value.trim(),
    kind: form.elements.kind.value,
    providers: checked.map((name, index) => [place(name), index, name]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]),
    timeout: timeoutInput.value.trim(),
    explain: explainSwitch.checked,
  };
}

function showState(state) {
  queryInput.value = state.q;
  // Said of the text the box held before: a cut paste, a query too long.
  queryNote.textContent = '';
  queryInput.removeAttribute('aria-invalid');
  form.elements.kind.value = state.kind;
  timeoutInput.value = state.timeout;
  explainSwitch.checked = state.explain;
  resultsList.classList.toggle('explaining', state.explain);
  renderChips(catalogue, state.kind, state.providers);
}

async function loadProviders() {
  const sent = headers();
  const response = await fetch('/v1/providers', { headers: sent }).catch((error) => {
    // The browser's own words ("Failed to fetch") alone did not say what failed, nor what to do.
    throw new Error(`The provider list could not be loaded (${error.message}). Check the connection and reload the page.`);
  });
  // A key that was sent and refused is a wrong key, not a missing one: say so, or the same prompt comes back unexplained.
  if (response.status === 401) return askForKey(sent.authorization ? 'The API key was refused; enter another.' : undefined);
  if (!response.ok) {
    // The service says why (a rate limit, an overload) and when to try again: its message, not the bare status.
    const problem = await response.json().catch(() => ({}));
    throw new Error(`The provider list could not be loaded: ${problem.message ?? statusWords(response)}`);
  }
  catalogue = (await response.json()).providers;
  // Hiding the field that has focus drops it to the top of the page: a keyboard user goes on from the search box.
  const keyHadFocus = keyForm.contains(document.activeElement);
  keyForm.hidden = true;
  if (keyHadFocus) queryInput.focus();
  return true;
}

function askForKey(message = KEY_NEEDED) {
  sessionStorage.removeItem(KEY_STORAGE);
  keyForm.hidden = false;
  // A refused key marks the field, as a wrong deadline marks its own: a screen reader back on it heard nothing wrong.
  if (message === KEY_NEEDED) keyInput.removeAttribute('aria-invalid');
  else keyInput.setAttribute('aria-invalid', 'true');
  // Nothing is loading until the key is given: "Loading providers…" would wait for ever.
  if (catalogue.length === 0) showChipsNote('The providers are listed once the API key is accepted.');
  say(message, 'error');
  keyInput.focus();
  return false;
}

/** The deadline to mark: timeout_ms when given, else the longest provider timeout among those asked. */
function deadlineFor(state) {
  if (state.timeout) return Number(state.timeout);
  const timeouts = catalogue.filter((provider) => state.providers.includes(provider.name)).map((provider) => provider.timeout_ms);
  return Math.max(100, ...timeouts);
}

async function search(state) {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  more.reset({ state, controller });
  steady.reset(state.kind);
  const params = searchParams(state);
  waterfallSection.hidden = false;
  resultsList.replaceChildren();
  waterfallSummary.textContent = '';
  const deadline = deadlineFor(state);
  const waterfall = new Waterfall(document.getElementById('waterfall'), state.providers, deadline);
  document.getElementById('waterfall-note').textContent =
    `Each bar runs from the start of the search to that provider's answer; the dashed line is the deadline (${deadline} ms).`;
  say(`Searching ${state.providers.length} providers…`);
  let opened = false;
  let finished = 0;
  // The stream ends with `done` or `error`; one that ends without either was cut short (a proxy's timeout, a
  // replica going away), and what it showed is not the answer.
  let concluded = false;
  streaming = {
    controller,
    // What was shown stays, in the place it was shown: it is what the user stopped the search to look at.
    stop: () => {
      if (concluded || controller.signal.aborted) return false;
      controller.abort();
      streaming = undefined;
      stopControl.showWhile(false);
      const answered = `${finished} of ${state.providers.length} providers had answered`;
      searchWords = `Stopped: ${resultsList.children.length} results shown (${answered}).`;
      say(`${searchWords} Search again for the rest.`, 'stopped');
      return true;
    },
  };
  stopControl.showWhile(true);
  // The answer (or the stream's error) is in: Stop has nothing left to stop, though the stream has yet to close. Left
  // to the stream's end, the button stayed beside the finished answer, pressable and doing nothing.
  const conclude = () => {
    concluded = true;
    streaming = undefined;
    stopControl.showWhile(more.busy);
  };
  try {
    const response = await fetch(`/v1/search/${state.kind}/stream?${params}`, { headers: headers(), signal: controller.signal });
    opened = response.ok;
    if (!opened) hideSearchPanels();
    if (response.status === 401) return void askForKey('The API key was refused; enter another.');
    if (!response.ok) {
      const problem = await response.json().catch(() => ({}));
      // A newer search took over while the body arrived (and cut it short): its status line is not this one's.
      if (controller.signal.aborted) return;
      return void say(problem.message ?? `The search answered ${statusWords(response)}.`, 'error');
    }
    // Results are announced once, when the first are on the page; later counts are for the eye (and the answer says all).
    let resultsAnnounced = false;
    for await (const { event, data } of readEvents(response, controller.signal)) {
      // A newer search took over: events already read for this one must not reach the page.
      if (controller.signal.aborted) break;
      if (event === 'provider') {
        finished += 1;
        waterfall.record(data);
        waterfallSummary.textContent = `${finished} of ${state.providers.length} finished`;
      } else if (event === 'results') {
        const news = steady.update(data.results);
        searchWords = `${data.results.length} results so far (${data.done} of ${data.total} providers)…`;
        const firstResults = !resultsAnnounced && data.results.length > 0;
        resultsAnnounced ||= firstResults;
        say(`${searchWords}${news ? ` ${news}` : ''}`, 'info', { announce: firstResults });
      } else if (event === 'done') {
        conclude();
        waterfall.finish(data.providers);
        const news = steady.finish(data.results);
        more.shownPage(data);
        waterfallSummary.textContent = answeredOf(data.providers);
        searchWords = doneMessage(data);
        say(`${searchWords}${news ? ` ${news}` : ''}`, data.providers.some(answeredOk) ? 'done' : 'error');
      } else if (event === 'error') {
        conclude();
        say(data.message, 'error');
      }
    }
    if (!concluded && !controller.signal.aborted) say('The answer was cut short: the connection ended before the search finished. Search again to retry.', 'error');
  } catch (error) {
    if (controller.signal.aborted) return;
    if (opened) return void say(`The search failed: ${error.message}`, 'error');
    // No connection at all, so no provider was asked.
    hideSearchPanels();
    say(`The search could not reach the service (${error.message}). Check the connection and search again.`, 'error');
  } finally {
    if (streaming?.controller === controller) {
      streaming = undefined;
      stopControl.showWhile(more.busy);
    }
    waterfall.finish();
  }
}

/**
 * A search refused before it started (a bad deadline, the rate limit, a refused key, no connection) asked no
 * provider: a Providers panel listing each as "no answer" said otherwise. (It has no results: no Results heading.)
 */
function hideSearchPanels() {
  waterfallSection.hidden = true;
}

/**
 * The waterfall shows the latest page's outcomes, not the first page's: a later page may ask providers again,
 * deeper, and one that failed then is why that page came back short. A kept answer repeats the outcomes it
 * was gathered with (the status line says cached).
 */
function showOutcomes(state, outcomes, page) {
  const waterfall = new Waterfall(document.getElementById('waterfall'), state.providers, deadlineFor(state));
  waterfall.finish(outcomes);
  waterfallSummary.textContent = `page ${page}: ${answeredOf(outcomes)}`;
}

function submit(event) {
  event.preventDefault();
  const state = stateFromForm();
  if (!state.q) {
    say('Type something to search for.', 'error');
    return queryInput.focus();
  }
  // Without the key there is no provider list to choose from (and a search would be refused): the search waits in
  // the address bar, and runs once the key is taken. "Choose at least one provider" named the wrong thing to do.
  if (!keyForm.hidden) {
    showInAddressBar(state);
    say('Enter the API key first; the search runs once it is accepted.', 'error');
    return keyInput.focus();
  }
  if (state.providers.length === 0) return say('Choose at least one provider.', 'error');
  if (!queryAccepted(state.q)) return;
  if (!deadlineAccepted()) return;
  showInAddressBar(state);
  void search(state);
}

/**
 * A deadline the field itself knows is wrong is said there, before searching. "1e" reads as an empty value, and the
 * search ran with the default deadline instead of the one typed; out of range, the service's refusal named
 * timeout_ms, a word the page shows nowhere, and left the field unmarked, a step behind in the history.
 */
function deadlineAccepted() {
  const { rangeUnderflow, rangeOverflow, badInput } = timeoutInput.validity;
  const wrong = rangeUnderflow || rangeOverflow || badInput;
  if (wrong) timeoutInput.setAttribute('aria-invalid', 'true');
  else timeoutInput.removeAttribute('aria-invalid');
  if (!wrong) return true;
  say(`The deadline must be a number of milliseconds from ${timeoutInput.min} to ${timeoutInput.max}, or empty for the default.`, 'error');
  timeoutInput.focus();
  return false;
}

/**
 * A query longer than a search takes (the box holds one from a link or the history, shortened too little) is said
 * in the page's words, before searching: the service's refusal named "q", a word the page shows nowhere. It stays
 * in the box, marked, to be shortened.
 */
function queryAccepted(query) {
  const problem = queryTooLong(query, queryInput);
  if (problem) queryInput.setAttribute('aria-invalid', 'true');
  else queryInput.removeAttribute('aria-invalid');
  if (!problem) return true;
  say(problem, 'error');
  queryInput.focus();
  return false;
}

function showInAddressBar(state) {
  const url = urlFor(state);
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, '', url);
}

/** Stops the search on the page, if one is running, and takes its results, waterfall and status away. */
function clearSearch() {
  running?.abort();
  running = undefined;
  more.reset();
  steady.reset();
  waterfallSection.hidden = true;
  resultsList.replaceChildren();
  say('');
}

/**
 * Shows the search the address bar holds. `reloadProviders: false` (Back and Forward) keeps the provider list
 * already loaded: asking for it again on each step cost a request against the rate limit, and a refused one left
 * the search just left on the page, under the address bar of another.
 */
async function start({ reloadProviders = true } = {}) {
  // The address bar moved (back, forward, a new key): the search shown so far no longer belongs to it.
  running?.abort();
  if ((reloadProviders || catalogue.length === 0) && !(await loadProviders())) return;
  const state = stateFromUrl();
  showState(state);
  if (!state.q) {
    clearSearch();
    return queryInput.focus();
  }
  const current = stateFromForm();
  // A link whose providers are none of its kind (papers=brave, a name since removed) checks no chip: as on submit,
  // ask for one rather than send a search with none.
  if (current.providers.length === 0) {
    clearSearch();
    return say('Choose at least one provider.', 'error');
  }
  if (queryTooLong(current.q, queryInput)) {
    clearSearch();
    return void queryAccepted(current.q);
  }
  history.replaceState(null, '', urlFor(current));
  void search(current);
}

form.addEventListener('submit', submit);
form.addEventListener('change', (event) => {
  // Before the list is loaded (the key not yet given) there is nothing to show: "No providers of this kind" was wrong.
  if (event.target.name === 'kind' && catalogue.length > 0) renderChips(catalogue, event.target.value);
});
explainSwitch.addEventListener('change', () => {
  resultsList.classList.toggle('explaining', explainSwitch.checked);
  history.replaceState(null, '', urlFor({ ...stateFromUrl(), explain: explainSwitch.checked }));
});
keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  if (!key) return keyInput.focus();
  sessionStorage.setItem(KEY_STORAGE, key);
  keyInput.value = '';
  void start().catch((error) => say(error.message, 'error'));
});
/** Stops the search streaming in, or else the next page on its way; returns whether either was running. */
function stopRunning() {
  return streaming?.stop() || more.stop();
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
