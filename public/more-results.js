// "More results": the control under the results that adds the next page of the search shown below them. It
// knows which page came last, which URLs are on the page, and whether the button is there, busy or ready; a page on
// its way can be stopped (Escape, the Stop button) without stopping the search it belongs to.

import { counted, statusWords } from './answer-words.js';
import { appendResults, RESULT_OPENERS } from './results.js';

const READY_TEXT = 'More results';
const BUSY_TEXT = 'Loading more results…';

export class MoreResults {
  /**
   * @param button the control; @param list the results list it adds to (marked busy while a page loads)
   * @param searchPage what it needs of the search page: pageUrl(state, page), headers(), say(text, kind), askForKey(message),
   *   showOutcomes(state, outcomes, page), showRanked() (puts the results shown in their ranked order),
   *   busyChanged(busy) (a page started or stopped loading: the Stop button comes and goes with it)
   */
  constructor(button, list, searchPage) {
    this.button = button;
    this.list = list;
    this.searchPage = searchPage;
    button.addEventListener('click', () => void this.load());
    this.reset();
  }

  /**
   * A new search (or none): page 1, nothing shown, no control until its answer says more exist. `search` is
   * `{ state, controller }`: the next page asks for the same query, kind and providers, and stops with it.
   */
  reset(search) {
    this.search = search;
    /**
     * With providers=auto, whom the service chose for page 1 (its answer's routing): the next pages ask them by name.
     * Asked for auto again, a page could be of other providers (one suspended since, or back), and so another list,
     * repeating or skipping results of the pages shown.
     */
    this.routed = undefined;
    this.lastPage = 1;
    this.shown = new Set();
    this.loading = undefined;
    this.setBusy(false);
    this.showReady();
    this.button.hidden = true;
  }

  /** A page's answer is on the page: remember it, and offer the next page only when the answer says there is one. */
  shownPage(answer) {
    this.lastPage = answer.page;
    if (answer.routing) this.routed = answer.routing.providers;
    for (const result of answer.results) this.shown.add(result.url);
    this.setBusy(false);
    this.showReady();
    // An empty page is the end whatever has_more said: pressing again would only ask for another empty one.
    this.button.hidden = !answer.has_more || answer.results.length === 0;
  }

  /**
   * The next page as one JSON answer, not a stream: its providers were asked already, and a kept answer serves
   * it without asking anyone again.
   */
  async load() {
    if (!this.search || this.busy || this.button.hidden) return;
    const { state, controller } = this.search;
    const number = this.lastPage + 1;
    // Its own controller, so that stopping this page leaves the search (and its pages shown) as it is.
    const loading = new AbortController();
    this.loading = loading;
    const signal = AbortSignal.any([controller.signal, loading.signal]);
    this.startLoading();
    this.searchPage.say(`Loading page ${number}…`);
    try {
      // no-store: the browser's cache held an identical request from another tab (the same search's next page) until
      // this one's answer was whole, then sent it, so it waited out the whole search before the service saw it, and
      // asked every provider again instead of joining that search in flight. An answer is never reused from it anyway.
      const asked = this.routed ? { ...state, providers: this.routed } : state;
      const response = await fetch(this.searchPage.pageUrl(asked, number), { headers: this.searchPage.headers(), signal, cache: 'no-store' });
      // Read whole before looking again: a new search (or Back, or Stop) may take over while the body arrives.
      const body = response.ok ? await response.json() : await response.json().catch(() => ({}));
      if (signal.aborted) return;
      if (response.status === 401) {
        this.failed();
        return void this.searchPage.askForKey('The API key was refused; enter another.');
      }
      if (!response.ok) {
        this.failed();
        // The service says why (a rate limit, an overload) and when to try again: its message, not the bare status.
        return void this.searchPage.say(body.message ?? `The next results could not be loaded: ${statusWords(response)}.`, 'error');
      }
      this.show(state, body, number);
    } catch (error) {
      // A new search took over, or the page was stopped (stop() said so): neither is this page's failure.
      if (signal.aborted) return;
      this.failed();
      this.searchPage.say(`The next results could not be loaded: ${error.message}`, 'error');
    }
  }

  show(state, answer, number) {
    const hadFocus = document.activeElement === this.button;
    // The next page continues the ranking: results held in the order they arrived (steady-results.js) take their
    // ranked places first, or page 2 would follow a list that is not page 1.
    this.searchPage.showRanked();
    const added = appendResults(this.list, answer.results, state.kind, this.shown);
    this.shownPage(answer);
    this.searchPage.showOutcomes(state, answer.providers, number);
    const cached = answer.cached ? ' (cached)' : '';
    // "0 more results" beside a control gone without a word read as a page still to come.
    const news = added.length === 0 && this.button.hidden ? 'No more results' : counted(added.length, 'more result');
    this.searchPage.say(`${news} (page ${number}, ${this.list.children.length} in all) in ${answer.took_ms} ms${cached}.`, 'done');
    // Keyboard users carry on where the new results start, rather than from the top of the page when the button goes.
    const firstNew = added.map((item) => item.querySelector(RESULT_OPENERS)).find(Boolean);
    if (firstNew) return firstNew.focus();
    // A page that added nothing and said none follow took the button, and the focus on it, away: the user carries
    // on from the last result, not from the top of the page.
    if (hadFocus && this.button.hidden) [...this.list.querySelectorAll(RESULT_OPENERS)].at(-1)?.focus();
  }

  /**
   * Stops the page on its way, if one is (Escape, the Stop button): the results shown stay, and the control is ready
   * to ask for that page again. Returns whether a page was loading.
   */
  stop() {
    if (!this.busy || !this.loading) return false;
    this.loading.abort();
    this.failed();
    this.searchPage.say(`Stopped loading page ${this.lastPage + 1}: the ${counted(this.list.children.length, 'result')} shown ${this.list.children.length === 1 ? 'stays' : 'stay'}. Press More results to try again.`, 'stopped');
    return true;
  }

  /** aria-disabled rather than disabled: a disabled button drops keyboard focus, and the user would start over. */
  startLoading() {
    this.setBusy(true);
    this.button.textContent = BUSY_TEXT;
    this.button.setAttribute('aria-disabled', 'true');
    this.list.setAttribute('aria-busy', 'true');
  }

  /** The next page failed: the control stays, ready to be pressed again. */
  failed() {
    this.loading = undefined;
    this.setBusy(false);
    this.showReady();
  }

  setBusy(busy) {
    this.busy = busy;
    this.searchPage.busyChanged(busy);
  }

  showReady() {
    this.button.textContent = READY_TEXT;
    this.button.removeAttribute('aria-disabled');
    this.list.removeAttribute('aria-busy');
  }
}
