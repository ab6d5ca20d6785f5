// The words for what a link asked of the page that the service would refuse (address-filters.js): what the address
// asks for, quoted as written, and what is allowed. One wording for a filter, the deadline and the kind.

/** The most characters of a link's value quoted back: it is the caller's text, of any length. */
const QUOTED_LENGTH = 40;
/** The most of a repeated parameter's values quoted back. */
const QUOTED_VALUES = 3;

/**
 * What the address gave the field named `label` (`texts`, as written), then `allowed`, what the field takes: "The
 * address asks for Published “decade”. Published must be one of its choices: …".
 */
export function addressProblem(label, texts, allowed) {
  const given = texts.length === 1 ? `${label} ${quoted(texts)}` : `${label} more than once (${quoted(texts)}); a search takes one`;
  return `The address asks for ${given}. ${allowed}`;
}

/**
 * What to say of a link's `providers` a search of `kind` does not have (brave in a paper search, a name since
 * removed), which the service refuses as unknown: searched without them, the page ran a search of fewer providers
 * than the link named, and wrote them out of the address, without a word.
 */
export function unknownProvidersProblem(providers, kind) {
  const [named, them] = providers.length === 1 ? ['provider', 'it'] : ['providers', 'them'];
  const searches = kind === 'web' ? 'web searches' : 'paper searches';
  return `The address asks for ${named} ${quoted(providers)}, which ${searches} here do not have. Press Search to search the providers checked without ${them}, or choose others.`;
}

/**
 * `texts` quoted, separated by commas, the first few only. Each is cut, and isolated (U+2068 … U+2069) so that a
 * right-to-left or direction-changing text cannot reorder the page's words around it.
 */
export function quoted(texts) {
  const shown = texts.slice(0, QUOTED_VALUES).map((text) => `“\u2068${cut(text)}\u2069”`);
  if (texts.length > QUOTED_VALUES) shown.push('…');
  return shown.join(', ');
}

/** `text` cut to QUOTED_LENGTH characters, never between the two halves of one (Array.from counts characters). */
function cut(text) {
  const characters = Array.from(text);
  return characters.length <= QUOTED_LENGTH ? text : `${characters.slice(0, QUOTED_LENGTH).join('')}…`;
}
