/** The JSON already written for each frozen array: a frozen array never changes, so neither does its JSON. */
const writtenOnce = new WeakMap<object, string>();

/** `"name":` for each field name met, so a name is escaped once, not per answer. */
const fieldNames = new Map<string, string>();

function nameJson(name: string): string {
  let json = fieldNames.get(name);
  if (json === undefined) {
    json = `${JSON.stringify(name)}:`;
    // Answers have a few dozen distinct field names; a client cannot add more (answers are built, not echoed).
    if (fieldNames.size < 1000) fieldNames.set(name, json);
  }
  return json;
}

function isFrozenArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && Object.isFrozen(value);
}

function fieldJson(value: unknown): string | undefined {
  // Numbers and truth values as JSON.stringify writes them (NaN and ±Infinity as null), without the call.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (isFrozenArray(value)) {
    let json = writtenOnce.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      writtenOnce.set(value, json);
    }
    return json;
  }
  // undefined for undefined, functions and symbols: such fields are left out, as JSON.stringify leaves them.
  return JSON.stringify(value) as string | undefined;
}

/**
 * JSON.stringify's text for an answer, written field by field so that a frozen array in it (the results and
 * provider outcomes of a cached answer, shared by every request that hits it: engine/cached-answer.ts) is
 * written once rather than on every request. Everything else (the query, took_ms, cache_age_ms, …) is
 * written afresh, so a field that changes per request is never stale, and no field is dropped or renamed:
 * the fields are the answer's own, not a schema's.
 */
export function replyJson(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || typeof (answer as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(answer);
  }
  const names = Object.keys(answer);
  // An answer with no frozen array (a live search, cache off) has nothing written before: one stringify
  // writes it flat, with no string built up field by field to be flattened again for the socket.
  if (!names.some((name) => isFrozenArray((answer as Record<string, unknown>)[name]))) return JSON.stringify(answer);
  let json = '';
  for (const name of names) {
    const field = fieldJson((answer as Record<string, unknown>)[name]);
    if (field === undefined) continue;
    json += `${json === '' ? '{' : ','}${nameJson(name)}${field}`;
  }
  return json === '' ? '{}' : `${json}}`;
}
