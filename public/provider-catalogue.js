// The providers the service offers (GET /v1/providers): the chips a search chooses from, and the timeouts that set
// the deadline its waterfall marks. Asking for the list is also how the page learns whether its key is accepted.

import { statusWords } from './answer-words.js';
import { KEY_REFUSED } from './api-key.js';
import { asksForAuto } from './search-state.js';

export class ProviderCatalogue {
  /** @param key the API key (api-key.js): the list is behind it, and asks for it when refused */
  constructor(key) {
    this.key = key;
    /** As GET /v1/providers lists them: empty until the list is loaded (the key not yet given, or refused). */
    this.providers = [];
    /** The list on its way, `{ authorization, answer }`, until it is in or failed. */
    this.loading = undefined;
  }

  /**
   * Asks the service for the list. Returns true once it is in (and the key form gone), false when the key is asked
   * for instead; a list that could not be loaded throws an error whose message says so in the page's words.
   * Asked again while it is on its way with the same key (Search pressed before it is in), the request on its way
   * answers both: a second one cost a request against the rate limit.
   */
  load() {
    const sent = this.key.headers();
    const { authorization } = sent;
    if (this.loading === undefined || this.loading.authorization !== authorization) {
      const loading = { authorization, answer: this.requestList(sent) };
      this.loading = loading;
      const done = () => {
        if (this.loading === loading) this.loading = undefined;
      };
      loading.answer.then(done, done);
    }
    return this.loading.answer;
  }

  /** One GET of the list with the headers `sent`: load()'s answer. */
  async requestList(sent) {
    const response = await fetch('/v1/providers', { headers: sent }).catch((error) => {
      // The browser's own words ("Failed to fetch") alone did not say what failed, nor what to do.
      throw new Error(`The provider list could not be loaded (${error.message}). Check the connection and reload the page.`);
    });
    // A key that was sent and refused is a wrong key, not a missing one: say so, or the same prompt comes back unexplained.
    if (response.status === 401) return this.key.ask(sent.authorization ? KEY_REFUSED : undefined);
    if (!response.ok) {
      // The service says why (a rate limit, an overload) and when to try again: its message, not the bare status.
      const problem = await response.json().catch(() => ({}));
      throw new Error(`The provider list could not be loaded: ${problem.message ?? statusWords(response)}`);
    }
    this.providers = (await response.json()).providers;
    this.key.accepted();
    return true;
  }

  /** Those of the provider `names` that are no provider of `kind` here: the service refuses a search naming them. */
  unknownOf(names, kind) {
    // providers=auto names none: the service chooses among its own.
    if (asksForAuto(names)) return [];
    const ofKind = new Set(this.providers.filter((provider) => provider.kind === kind).map((provider) => provider.name));
    return names.filter((name) => !ofKind.has(name));
  }

  /**
   * The deadline to mark: timeout_ms when given, else the longest provider timeout among those asked; with
   * providers=auto, among the configured providers of the kind, those the service chooses from.
   */
  deadlineFor(state) {
    if (state.timeout) return Number(state.timeout);
    const auto = asksForAuto(state.providers);
    const asked = (provider) => (auto ? provider.kind === state.kind && provider.configured : state.providers.includes(provider.name));
    const timeouts = this.providers.filter(asked).map((provider) => provider.timeout_ms);
    return Math.max(100, ...timeouts);
  }
}
