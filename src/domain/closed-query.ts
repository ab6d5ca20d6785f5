/**
 * A query as a boolean API (PubMed, OpenAlex, GitHub) can be sent it whole: an unclosed phrase or group closed, a `)`
 * that closes nothing left out, and an AND, OR or NOT with nothing after it, or an AND or OR with nothing before it,
 * left out. Sent as typed, `asthma NOT (mice OR rats` is unbalanced syntax that PubMed's and OpenAlex's parsers may
 * refuse or read otherwise, and an unclosed phrase or a trailing NOT could take in what is sent after the text.
 * Upper-case operators only: in lower case they are words (and a text whose NOT is a word has it in lower case first).
 */

/** Whether a text may need any of it: the one test most texts get. */
const MAY_NEED_CLOSING = /["()]|(?<!\S)(?:AND|OR|NOT)\s*$|^\s*(?:AND|OR)(?!\S)/;
/** What joins nothing at the end of a text: an operator, or a group opened with nothing in it. */
const DANGLING_END = /(?:(?<![^\s(])(?:AND|OR|NOT)|\()\s*$/;
const LEADING_OPERATORS = /^\s*(?:(?:AND|OR)(?:\s+|$))+/;

/** The text closed as above; as typed when it needs nothing, or when nothing but operators would be left. */
export function closedQuery(text: string): string {
  if (!MAY_NEED_CLOSING.test(text)) return text;
  let closed = '';
  // Groups opened and not closed yet, outside phrases; where the phrase now open starts (-1: none is).
  let open = 0;
  let phraseStart = -1;
  let strayClose = false;
  for (const character of text) {
    if (character === '"') phraseStart = phraseStart < 0 ? closed.length : -1;
    else if (phraseStart < 0 && character === '(') open += 1;
    else if (phraseStart < 0 && character === ')') {
      if (open === 0) {
        strayClose = true;
        closed += ' ';
        continue;
      }
      open -= 1;
    }
    closed += character;
  }
  // An unclosed phrase runs to the end, as every reader here takes it; a quote with nothing after it is no phrase.
  if (phraseStart >= 0) closed = closed.slice(phraseStart + 1).trim() === '' ? closed.slice(0, phraseStart) : `${closed}"`;
  // (A text that ends in a closed phrase ends in no operator.)
  for (let end = DANGLING_END.exec(closed); end !== null; end = DANGLING_END.exec(closed)) {
    if (end[0].startsWith('(')) open -= 1;
    closed = closed.slice(0, end.index);
  }
  closed = closed.replace(LEADING_OPERATORS, '').trimEnd() + ')'.repeat(open);
  if (strayClose) closed = closed.replace(/\s+/g, ' ').trim();
  return closed.trim() === '' ? text : closed;
}
