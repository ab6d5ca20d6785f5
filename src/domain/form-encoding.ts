/** Text that the form encoding leaves as it is: ASCII letters, digits and `*-._`. */
const UNCHANGED = /^[A-Za-z0-9*\-._]*$/;
/** What encodeURIComponent leaves as it is but the form encoding escapes, and the space it writes as %20. */
const FORM_DIFFERENCES = /%20|[!'()~]/g;

function formDifference(match: string): string {
  return match === '%20' ? '+' : `%${match.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** One name or value in the application/x-www-form-urlencoded encoding, as URLSearchParams writes it. */
function formComponent(text: string): string {
  if (UNCHANGED.test(text)) return text;
  try {
    return encodeURIComponent(text).replace(FORM_DIFFERENCES, formDifference);
  } catch {
    // A lone surrogate: encodeURIComponent refuses it, URLSearchParams writes U+FFFD. Its way, then.
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
}

/**
 * `new URLSearchParams(parameters).toString()`, written directly: the same text (WHATWG's
 * application/x-www-form-urlencoded serialiser) without building the object and its list of pairs, for
 * the query string of every upstream request.
 */
export function formEncoded(parameters: Readonly<Record<string, string>>): string {
  let query = '';
  for (const name of Object.keys(parameters)) {
    const pair = `${formComponent(name)}=${formComponent(parameters[name]!)}`;
    query = query === '' ? pair : `${query}&${pair}`;
  }
  return query;
}
