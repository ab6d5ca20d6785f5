// A search's answer in words, for the status line and the waterfall's summary.

export const answeredOk = (outcome) => outcome.status === 'ok';

/** Not asked: a filter (or a query) it cannot apply left it out of the search (outcome.message says which). */
const skipped = (outcome) => outcome.status === 'skipped';

/** A count with its noun, singular for one: "1 result", "3 results" ("1 results" read as a slip), "129,019 characters". */
export function counted(count, noun) {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}

/** How many of a search's providers answered: the waterfall's summary once the search is done. */
export function answeredOf(outcomes) {
  return `${outcomes.filter(answeredOk).length} of ${outcomes.length} answered`;
}

/**
 * The finished search in words. No results is told apart from no answer: "0 results" when every provider failed
 * or timed out read as "nothing matches", and the user would change a query that was never searched.
 */
export function doneMessage(answer) {
  const took = `in ${answer.took_ms} ms${answer.cached ? ' (cached)' : ''}`;
  const answered = answer.providers.filter(answeredOk).length;
  const asked = answer.providers.length;
  if (asked > 0 && answer.providers.every(skipped)) {
    // Not asked, for a filter (or a query) they cannot apply: "did not answer … Search again to retry" sent the user
    // to search again for the same nothing, and the reason was only in the waterfall.
    const whom = asked === 1 ? 'the provider asked was' : `all ${asked} providers asked were`;
    return `No results: ${whom} skipped (${skippedWhy(answer.providers)}). Change the filters or the providers.`;
  }
  if (answered === 0) {
    const nobody = asked === 1 ? 'the provider asked did not answer' : `none of the ${asked} providers answered`;
    return `No results: ${nobody} (why is written under Providers). Search again to retry.`;
  }
  if (answer.results.length === 0) return `No results ${took}: ${answered} of ${counted(asked, 'provider')} answered and found nothing.${skippedWords(answer.providers)}`;
  return `${counted(answer.results.length, 'result')} ${took}.${unansweredWords(answer.providers)}`;
}

/**
 * Who did not answer, by name, after the results: only the waterfall said so, in colour and in a table a screen
 * reader reaches by going there, and the words read out were "4 results in 812 ms." as if every provider had.
 */
function unansweredWords(outcomes) {
  const unanswered = outcomes.filter((outcome) => !answeredOk(outcome) && !skipped(outcome)).map((outcome) => outcome.provider);
  const failed = unanswered.length === 0 ? '' : ` ${unanswered.length} of ${counted(outcomes.length, 'provider')} did not answer (${unanswered.join(', ')}): why is written under Providers.`;
  // A provider left out for a filter it cannot apply was never asked, and asking again changes nothing: said apart,
  // with why, as its row in the waterfall says it.
  return `${failed}${skippedWords(outcomes)}`;
}

/** " Skipped: local: cannot filter by language.", or nothing when every provider was asked. */
function skippedWords(outcomes) {
  const left = outcomes.filter(skipped);
  return left.length === 0 ? '' : ` Skipped: ${skippedWhy(left)}.`;
}

/** "local: cannot filter by language; crossref: cannot filter by open_access": who was left out, and why. */
function skippedWhy(outcomes) {
  return outcomes.map((outcome) => `${outcome.provider}: ${outcome.message ?? 'skipped'}`).join('; ');
}

/**
 * A refusal's HTTP status in words, for when its body says nothing the page can show (a proxy's or gateway's page
 * in front of the service, not its JSON): "HTTP 429" alone said neither what was wrong nor when to try again, though
 * the Retry-After beside it said when.
 */
export function statusWords(response) {
  const wait = secondsToWait(response.headers.get('retry-after'));
  const again = wait === undefined ? '' : `: retry after ${wait} s`;
  if (response.status === 429) return `HTTP 429 (too many requests${again})`;
  if (response.status === 502 || response.status === 503 || response.status === 504) {
    return `HTTP ${response.status} (the service is unavailable for now${again})`;
  }
  return `HTTP ${response.status}`;
}

/** Retry-After's wait in whole seconds: it is either seconds or an HTTP date. */
function secondsToWait(retryAfter) {
  if (!retryAfter) return undefined;
  const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : Math.ceil((Date.parse(retryAfter) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
