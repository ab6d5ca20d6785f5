import { compareParameters, isTracking } from './query-parameters.js';

/**
 * Where each kept parameter of the query being read lies (its name as a string, for the tracking check and the
 * order): arrays reused by every call rather than URLSearchParams and an array per pair, since this runs for
 * every web result with a query. Only `parameterCount` entries are current.
 */
const names: string[] = [];
const pieceStarts: number[] = [];
/** Where the value starts (after `=`), or -1 for a parameter written without `=`. */
const valueStarts: number[] = [];
const pieceEnds: number[] = [];
let parameterCount = 0;
/** More parameters than real result URLs carry; past it, sorting by insertion would cost more than the parser. */
const MAX_PLAIN_PARAMETERS = 32;

/**
 * The canonical search (parameters sorted, tracking ones left out, `?` first; empty when none is left) of
 * value[start, end), a query made only of `name=value` pairs whose characters the form encoding keeps as they
 * are (letters, digits, `*-._`, at most one `=` each): its parameters are then slices of it, and serialise back
 * to the same text. Undefined for any other query, which the URL parser must read.
 */
export function canonicalPlainQuery(value: string, start: number, end: number): string | undefined {
  parameterCount = 0;
  // Whether the canonical search is the query as written: every piece kept, with `=`, and already in order.
  let asWritten = true;
  for (let pieceStart = start; pieceStart <= end; ) {
    let pieceEnd = value.indexOf('&', pieceStart);
    if (pieceEnd < 0 || pieceEnd > end) pieceEnd = end;
    let equals = -1;
    for (let index = pieceStart; index < pieceEnd; index += 1) {
      const code = value.charCodeAt(index);
      if (code === 61 && equals < 0) equals = index;
      else if (!isFormSafe(code)) return undefined;
    }
    // An empty piece (`a=1&&b=2`, a query that is only `?`) names no parameter.
    if (pieceEnd === pieceStart) asWritten = false;
    else {
      const name = value.slice(pieceStart, equals < 0 ? pieceEnd : equals);
      if (isTracking(name)) asWritten = false;
      else {
        // Kept in order by insertion, quadratic in their number: a query of many parameters goes to the parser.
        if (parameterCount === MAX_PLAIN_PARAMETERS) return undefined;
        const atEnd = insertParameter(value, name, pieceStart, equals < 0 ? -1 : equals + 1, pieceEnd);
        if (!atEnd || equals < 0) asWritten = false;
      }
    }
    pieceStart = pieceEnd + 1;
  }
  if (parameterCount === 0) return '';
  if (asWritten) return value.slice(start - 1, end);
  let search = `?${parameterText(value, 0)}`;
  for (let index = 1; index < parameterCount; index += 1) search += `&${parameterText(value, index)}`;
  return search;
}

/** Letters, digits, `*`, `-`, `.` and `_`: what application/x-www-form-urlencoded leaves unescaped. */
function isFormSafe(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 42 || code === 45 || code === 46 || code === 95
  );
}

/**
 * Puts a parameter after every one that does not sort after it, where a stable sort (as the general rule's)
 * would leave it. True when that is the end: the parameters so far are in the order written.
 */
function insertParameter(value: string, name: string, pieceStart: number, valueStart: number, pieceEnd: number): boolean {
  let position = parameterCount;
  parameterCount += 1;
  for (; position > 0 && compareWith(value, position - 1, name, valueStart, pieceEnd) > 0; position -= 1) {
    names[position] = names[position - 1]!;
    pieceStarts[position] = pieceStarts[position - 1]!;
    valueStarts[position] = valueStarts[position - 1]!;
    pieceEnds[position] = pieceEnds[position - 1]!;
  }
  names[position] = name;
  pieceStarts[position] = pieceStart;
  valueStarts[position] = valueStart;
  pieceEnds[position] = pieceEnd;
  return position === parameterCount - 1;
}

/** compareParameters between a kept parameter and a new one; values count only between equal names, so only then are they sliced. */
function compareWith(value: string, position: number, name: string, valueStart: number, pieceEnd: number): number {
  const keptName = names[position]!;
  if (keptName !== name) return compareParameters(keptName, '', name, '');
  return compareParameters(keptName, valueText(value, valueStarts[position]!, pieceEnds[position]!), name, valueText(value, valueStart, pieceEnd));
}

function valueText(value: string, valueStart: number, pieceEnd: number): string {
  return valueStart < 0 ? '' : value.slice(valueStart, pieceEnd);
}

/** A parameter as the form encoding writes it: `name=value`, with `=` even when the value is empty. */
function parameterText(value: string, position: number): string {
  return valueStarts[position]! < 0 ? `${names[position]!}=` : value.slice(pieceStarts[position]!, pieceEnds[position]!);
}
