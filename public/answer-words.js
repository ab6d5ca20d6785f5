// A search's answer in words, for the status line and the waterfall's summary.

export const answeredOk = (outcome) => outcome.status === 'ok';

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
  if (answered === 0) return `No results: none of the ${asked} providers answered (why is written under Providers). Search again to retry.`;
  if (answer.results.length === 0) return `No results ${took}: ${answered} of ${asked} providers answered and found nothing.`;
  return `${answer.results.length} results ${took}.`;
}
