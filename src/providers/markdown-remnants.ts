/**
 * What cutting leaves of Markdown. Exa cuts a highlight into pieces joined by "\n...\n", and a cut can fall
 * inside a link (`search](https://ai` … `pydantic.dev/x), more`) or a code span (`` `SupportDependencies ``);
 * Tavily's content can hold a `**` whose partner was cut away. Whole syntax is the caller's business: these
 * helpers run after it and take only the halves that no longer pair with anything.
 */

/** Exa's separator between the pieces of one highlight. */
export const PIECE_SEPARATOR = /\n\.\.\.\n/;

/** A piece ending inside a link's address (`…](https://ai`): the next piece may start with the address's tail. */
const OPEN_ADDRESS_AT_END = /\]\([^()\s]*$/;
/** The tail of an address cut in the previous piece, up to the `)` that closed the link, and the stop after it. */
const ADDRESS_TAIL_AT_START = /^[^\s()[\]]*\)[,;:.]?/;
/** `](address)` or `](address` with its `[words` in an earlier piece, or cut before its `)`: the words stay. */
const STRAY_ADDRESS = /\]\((?:[^()\s]|\([^()\s]*\))*\)?/g;
/** A `[` never closed in its piece (`in [YAML` at a cut): `[PDF]` and `[1]` are closed and stay. */
const UNCLOSED_BRACKET = /\[(?=[^[\]]*$)/g;
/**
 * A `**` or `__` that closes emphasis, right after a word or punctuation and before no word (`agent!**.`).
 * `**kwargs` and `2**3` have a word after the stars and never match; `__init__` is kept by the check below.
 */
const CLOSING_MARKER = /(?<=[^\s*_])(\*\*|__)(?![\w*])/g;
/** A `**` or `__` standing alone at either edge of a piece (`see **` where the bold words were cut off). */
const LONE_EDGE_MARKER = /^(?:\*\*|__)(?=\s)|(?<=^|\s)(?:\*\*|__)\s*$/g;

/** True when the raw piece ends inside a link's address. */
export function endsInCutLink(piece: string): boolean {
  return OPEN_ADDRESS_AT_END.test(piece);
}

/** The link halves a cut left in a piece, gone; `continuesCutLink` says the previous piece ended in an address. */
export function withoutCutLinks(piece: string, continuesCutLink: boolean): string {
  const body = continuesCutLink ? piece.replace(ADDRESS_TAIL_AT_START, '') : piece;
  return body.replace(STRAY_ADDRESS, '').replace(UNCLOSED_BRACKET, '');
}

/** Backticks and emphasis markers left without a partner once the paired ones are gone. */
export function withoutUnpairedMarkers(piece: string): string {
  return piece
    .replaceAll('`', '')
    .replace(CLOSING_MARKER, (marker: string, _marker: string, offset: number, whole: string) =>
      partneredInWord(whole, marker, offset) ? marker : '',
    )
    .replace(LONE_EDGE_MARKER, '');
}

/**
 * Whether the `marker` at `offset` has its opening partner earlier in the same word (`__init__`): the nearest one
 * before it, with no white space between. Not the word's start searched from the piece's start: for each of a line of
 * `a**` that read everything before it, time by the square of the line's length.
 */
function partneredInWord(whole: string, marker: string, offset: number): boolean {
  const partner = whole.lastIndexOf(marker, offset - marker.length);
  return partner !== -1 && !/\s/.test(whole.slice(partner, offset));
}
