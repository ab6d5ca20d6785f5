// A search's stream: GET /v1/search/{kind}/stream, read event by event (event-stream.js) into the Providers panel,
// the results and the status line as each provider answers. One search streams at a time: a newer one (or Back, or
// Forward) ends the one before without a word; Stop and Escape end it with what was shown, and say so.

import { answeredOf, answeredOk, counted, doneMessage, statusWords } from './answer-words.js';
import { KEY_REFUSED } from './api-key.js';
import { readEvents } from './event-stream.js';
import { asksForAuto, searchParams } from './search-state.js';

export class SearchStream {
  /**
   * @param panel the Providers panel (providers-panel.js); @param list the results list; @param steady the results as
   *   they stream in (steady-results.js) @param searchPage what it needs of the page: headers(), say(text, kind, options),
   *   askForKey(message), deadlineFor(state), started(search) (a search, `{ state, controller }`, or none, is now the
   *   page's: More results starts over with it), answered(answer) (its answer is in: whether a next page exists), refused(problem, state) (the
   *   service refused the search: whether the page said why, in its own words, on a field it shows),
   *   streamingChanged(streaming) (the Stop button comes and goes with it)
   */
  constructor(panel, list, steady, searchPage) {
    this.panel = panel;
    this.list = list;
    this.steady = steady;
    this.searchPage = searchPage;
    /** The search on the page, stopped when another takes its place. */
    this.running = undefined;
    /** The search whose results are still streaming in, and how to stop it (Escape, Stop); undefined once it has its answer. */
    this.streaming = undefined;
    /** The status line's words about the search itself (results so far, or the answer), without those about held results. */
    this.words = '';
  }

  /** Whether a search's results are still streaming in: something Stop can stop. */
  get isStreaming() {
    return this.streaming !== undefined;
  }

  /** Stops the search streaming in, if one is, keeping what it showed; returns whether one was. */
  stop() {
    return this.streaming?.stop() ?? false;
  }

  /** Stops the search on the page without a word: the address bar moved, and it no longer belongs there. */
  cancel() {
    this.running?.abort();
    this.running = undefined;
  }

  /** Stops the search on the page, if one is running, and takes its results, waterfall and status away. */
  clear() {
    this.cancel();
    this.searchPage.started(undefined);
    this.steady.reset();
    this.panel.hide();
    this.list.replaceChildren();
    this.searchPage.say('');
  }

  async run(state) {
    const { searchPage } = this;
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    searchPage.started({ state, controller });
    this.steady.reset(state.kind);
    const params = searchParams(state);
    this.list.replaceChildren();
    // providers=auto: whom the service chose is known from their answers, each a row as it comes (waterfall.js).
    const auto = asksForAuto(state.providers);
    const waterfall = this.panel.start(auto ? [] : state.providers, searchPage.deadlineFor(state));
    searchPage.say(auto ? 'Searching the providers the service chooses for the query…' : `Searching ${state.providers.length} providers…`);
    const ofAsked = (count) => (auto ? counted(count, 'provider') : `${count} of ${counted(state.providers.length, 'provider')}`);
    let opened = false;
    let finished = 0;
    // The stream ends with `done` or `error`; one that ends without either was cut short (a proxy's timeout, a
    // replica going away), and what it showed is not the answer.
    let concluded = false;
    // Nothing of this search left for Stop to stop: the Stop button goes.
    const streamingEnded = () => {
      this.streaming = undefined;
      searchPage.streamingChanged(false);
    };
    this.streaming = {
      controller,
      // What was shown stays, in the place it was shown: it is what the user stopped the search to look at.
      stop: () => {
        if (concluded || controller.signal.aborted) return false;
        controller.abort();
        streamingEnded();
        const answered = `${ofAsked(finished)} had answered`;
        this.words = `Stopped: ${counted(this.list.children.length, 'result')} shown (${answered}).`;
        searchPage.say(`${this.words} Search again for the rest.`, 'stopped');
        return true;
      },
    };
    searchPage.streamingChanged(true);
    // The answer (or the stream's error) is in: Stop has nothing left to stop, though the stream has yet to close. Left
    // to the stream's end, the button stayed beside the finished answer, pressable and doing nothing.
    const conclude = () => {
      concluded = true;
      streamingEnded();
    };
    try {
      const response = await fetch(`/v1/search/${state.kind}/stream?${params}`, { headers: searchPage.headers(), signal: controller.signal });
      opened = response.ok;
      if (!opened) this.panel.hide();
      if (response.status === 401) return void searchPage.askForKey(KEY_REFUSED);
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        // A newer search took over while the body arrived (and cut it short): its status line is not this one's.
        if (controller.signal.aborted) return;
        // A refused filter (a domain entry) is said in the page's words, on its field; any other refusal in the service's.
        if (searchPage.refused(problem, state)) return;
        return void searchPage.say(problem.message ?? `The search answered ${statusWords(response)}.`, 'error');
      }
      // Results are announced once, when the first are on the page; later counts are for the eye (and the answer says all).
      let resultsAnnounced = false;
      for await (const { event, data } of readEvents(response, controller.signal)) {
        // A newer search took over: events already read for this one must not reach the page.
        if (controller.signal.aborted) break;
        if (event === 'provider') {
          finished += 1;
          waterfall.record(data);
          this.panel.summarise(`${auto ? finished : `${finished} of ${state.providers.length}`} finished`);
        } else if (event === 'results') {
          const news = this.steady.update(data.results);
          this.words = `${counted(data.results.length, 'result')} so far (${data.done} of ${counted(data.total, 'provider')})…`;
          const firstResults = !resultsAnnounced && data.results.length > 0;
          resultsAnnounced ||= firstResults;
          searchPage.say(`${this.words}${news ? ` ${news}` : ''}`, 'info', { announce: firstResults });
        } else if (event === 'done') {
          conclude();
          waterfall.finish(data.providers);
          const news = this.steady.finish(data.results);
          searchPage.answered(data);
          this.panel.summarise(answeredOf(data.providers));
          this.words = `${doneMessage(data)}${routingWords(data.routing)}`;
          searchPage.say(`${this.words}${news ? ` ${news}` : ''}`, data.providers.some(answeredOk) ? 'done' : 'error');
        } else if (event === 'error') {
          conclude();
          searchPage.say(data.message, 'error');
        }
      }
      if (!concluded && !controller.signal.aborted) searchPage.say('The answer was cut short: the connection ended before the search finished. Search again to retry.', 'error');
    } catch (error) {
      if (controller.signal.aborted) return;
      if (opened) return void searchPage.say(`The search failed: ${error.message}`, 'error');
      // No connection at all, so no provider was asked.
      this.panel.hide();
      searchPage.say(`The search could not reach the service (${error.message}). Check the connection and search again.`, 'error');
    } finally {
      if (this.streaming?.controller === controller) streamingEnded();
      waterfall.finish();
    }
  }
}

/**
 * Whom the service chose for providers=auto, and why, as its answer's routing says: a search whose providers the user
 * did not name says whom it asked. Nothing for a search of named providers.
 */
function routingWords(routing) {
  return routing ? ` Chosen by the service for the query: ${routing.providers.join(', ')} (${routing.reasons.join('; ')}).` : '';
}
