import { isMap, isScalar, isSeq, type Document, type LineCounter, type Pair, type Scalar } from 'yaml';

/**
 * A credential in PROVIDERS_FILE is text, but YAML gives some unquoted spellings a meaning of their own: `!abc123` is
 * a tag (and the value is empty), `&abc123` an anchor's name, `#abc123` a comment, `null` and `~` no value, `True` the
 * boolean that reads back as `true`. A key so written was dropped or changed without a word (a required one was then
 * reported missing). Each is read here as written where that is unambiguous, and refused otherwise with what YAML
 * read and how to quote; the value itself is never repeated.
 */

/** The one tag that keeps a value text: `!!str abc` is written by someone who knows YAML, and reads `abc`. */
const STRING_TAG = 'tag:yaml.org,2002:str';
const QUOTE = 'quote the value ("…") to have it read as written';

/** A credential as the file spells it: the text to use, a problem to report, or undefined to use YAML's value. */
export type CredentialReading = { text: string } | { problem: string } | undefined;

/** Each entry's mapping pairs by key, in list order (an entry that is not a mapping has none). */
export function entryPairs(document: Document): Array<Map<string, Pair>> {
  const list = document.get('providers', true);
  if (!isSeq(list)) return [];
  return list.items.map((item) => {
    const pairs = new Map<string, Pair>();
    if (!isMap(item)) return pairs;
    for (const pair of item.items) if (isScalar(pair.key) && typeof pair.key.value === 'string') pairs.set(pair.key.value, pair);
    return pairs;
  });
}

/** How a credential's value is read, judged by what the file holds between its key and its value's end. */
export function readCredential(pair: Pair | undefined, content: string): CredentialReading {
  const key = pair?.key;
  const value = pair?.value;
  if (!isScalar(key) || !key.range || !isScalar(value) || !value.range) return undefined;
  if (value.tag !== undefined) return value.tag === STRING_TAG ? undefined : { problem: `YAML read the value's start (!…) as a tag and dropped it; ${QUOTE}` };
  // Quoted or a block (`|` on its own line): read as written already.
  if (value.type !== 'PLAIN') return undefined;
  const written = content.slice(key.range[1], value.range[1]).replace(/^\s*:\s*/, '');
  const read = value.value === null ? '' : String(value.value);
  if (read === '') return emptyReading(value, written, content.slice(key.range[1], value.range[2]), key.type !== 'PLAIN');
  // `&name value`: an anchor set on purpose, for an alias (`*name`) elsewhere to repeat the value.
  if (value.anchor !== undefined || written === read) return undefined;
  if (written.includes('\n')) return { problem: `YAML joined the value's lines into one; ${QUOTE}` };
  // `True`, `FALSE`: a boolean to YAML, which reads back in lower case. The text is unambiguous: it is the key.
  if (typeof value.value === 'boolean') return { text: written };
  return { problem: `YAML did not read the value as written; ${QUOTE}` };
}

/**
 * Why a value YAML read as nothing was written as something, or undefined when the line holds no value at all. A
 * quoted key is JSON's spelling (`"api_key": null`), whose null means no value as plainly as leaving the key out.
 */
function emptyReading(value: Scalar, written: string, line: string, quotedKey: boolean): CredentialReading {
  if (value.anchor !== undefined) return { problem: `YAML read the value (&…) as an anchor's name, with no value after it; ${QUOTE}` };
  if (written === '' && /^[ \t]*:[ \t]*#/.test(line)) {
    return { problem: `YAML read the value (#…) as a comment, so it has none; ${QUOTE}, or remove the line to leave it unset` };
  }
  if (written !== '' && !quotedKey) return { problem: `YAML read the value (null or ~) as no value; ${QUOTE}, or remove the line to leave it unset` };
  return undefined;
}

/**
 * Which entry's value a position is in (a syntax error's, `api_key: @abc` or `api_key: |abc`; an alias's), named for a
 * message that says which value to quote: `the value of api_key in providers[0] "brave-2"`. Undefined elsewhere.
 */
export function valueNamed(document: Document, lines: LineCounter, position: number): string | undefined {
  const line = lines.linePos(position).line;
  for (const [index, pairs] of entryPairs(document).entries()) {
    for (const [key, pair] of pairs) {
      const end = isScalar(pair.key) ? pair.key.range?.[1] : undefined;
      if (end === undefined || position < end || lines.linePos(end).line !== line) continue;
      const name = pairs.get('name')?.value;
      return `the value of ${key} in providers[${index}]${isScalar(name) && typeof name.value === 'string' ? ` "${name.value}"` : ''}`;
    }
  }
  return undefined;
}
