import { z } from 'zod';
import { invalidQuery, type FedsearchError } from './errors.js';
import { shownNames } from './shown-value.js';
import { hideUrlUserinfo } from './url-userinfo.js';

/**
 * A field-level problem, as shown to REST callers and MCP clients. `message` reads "<what is wrong>;
 * <what is allowed>" and never repeats the field name, so "<field>: <message>" reads as one sentence.
 */
export interface FieldProblem {
  field: string;
  message: string;
}

/** What one schema accepts, as far as its bounds say: "1–500 characters", "at least 100". */
interface Bounds {
  minimum?: number;
  maximum?: number;
}

/** `what` for an input read from a query string (the routes' `querystring` schemas). */
export const QUERY_STRING = 'query';

/**
 * A parameter of one value repeated in a query string (`limit=5&limit=6`) arrives as the list of its texts, which a
 * field of one value refuses as no number (or no string, or no choice): `["5","6"] is not a number` sent the caller
 * looking at a value rather than at the parameter written twice. Lists are read from repeats, so never come here.
 */
function repeatedParameter(issue: z.core.$ZodIssue, value: unknown, what: string): value is unknown[] {
  return what === QUERY_STRING && issue.path.length === 1 && Array.isArray(value) && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType, input: unknown, what: string): FieldProblem {
  const field = issue.path.length > 0 ? issue.path.join('.') : what;
  const value = valueAt(input, issue.path);
  if (repeatedParameter(issue, value, what)) {
    const allowed = issue.code === 'invalid_value' ? `one of ${issue.values.map((entry) => JSON.stringify(entry)).join(', ')}` : expectedValue(issue as z.core.$ZodIssueInvalidType, schema);
    return { field, message: `given ${value.length} times (${shown(value)}); allowed: once, ${allowed}` };
  }
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedFields(schema).join(', ') || 'none';
      return { field: shownNames(issue.keys), message: `${issue.keys.length > 1 ? 'not known fields' : 'not a known field'}; allowed: ${allowed}` };
    }
    case 'too_small':
    case 'too_big': {
      const bounds = boundsAt(schema, issue.path);
      if (issue.code === 'too_small') bounds.minimum ??= Number(issue.minimum);
      else bounds.maximum ??= Number(issue.maximum);
      return { field, message: `${outOfBounds(issue, value)}; allowed: ${range(issue.origin, bounds)}` };
    }
    case 'invalid_type': {
      const expected = expectedValue(issue, schema);
      return { field, message: `${value === undefined ? 'missing' : `${shown(value)} is not ${article(typeName(issue.expected))} ${typeName(issue.expected)}`}; allowed: ${expected}` };
    }
    case 'invalid_value':
      return { field, message: `${shown(value)} is not allowed; allowed: ${issue.values.map((entry) => JSON.stringify(entry)).join(', ')}` };
    case 'invalid_format':
      // Our own formats carry a "<what is wrong>; <what is allowed>" message; zod's defaults start "Invalid".
      if (!issue.message.startsWith('Invalid')) return { field, message: issue.message };
      return issue.format === 'url'
        ? { field, message: `${shown(value)} is not a URL; allowed: an http(s) URL` }
        : { field, message: `${shown(value)} is not a valid ${issue.format}; allowed: a ${issue.format}` };
    case 'invalid_union':
      return { field, message: issue.message === 'Invalid input' ? `${shown(value)} matches none of the accepted forms` : issue.message };
    default:
      return { field, message: issue.message };
  }
}

/** What a field of the wrong type takes: "a number (1–50)", "a string (1–500 characters)", "an http(s) URL". */
function expectedValue(issue: z.core.$ZodIssueInvalidType, schema: z.ZodType): string {
  // "true or false" reads right in a JSON body and in a query string alike.
  if (issue.expected === 'boolean') return 'true or false';
  const format = issue.expected === 'string' ? formatAllowed(schema, issue.path) : undefined;
  return `${format ?? `${article(typeName(issue.expected))} ${typeName(issue.expected)}`}${boundsNote(schema, issue.path)}`;
}

/**
 * What a string field's format or pattern allows, as its own refusal of a bad value says it (describeIssue's
 * invalid_format): "an http(s) URL", or the "allowed: …" of the pattern's message. Read from the schema only
 * here, on the error path, so a valid request pays nothing for it.
 */
function formatAllowed(schema: z.ZodType, path: PropertyKey[]): string | undefined {
  for (const check of unwrap(schemaAt(schema, path))?._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; format?: string; error?: (issue: never) => unknown };
    if (def.check !== 'string_format' || def.format === undefined) continue;
    if (def.format === 'url') return 'an http(s) URL';
    const custom = customMessage(def.error);
    const message = typeof custom === 'string' ? custom : (custom as { message?: unknown } | undefined)?.message;
    const allowed = typeof message === 'string' ? message.split('; allowed: ')[1] : undefined;
    return allowed ?? `${article(def.format)} ${def.format}`;
  }
  return undefined;
}

/** A check's own error message, when it gives one without reading the issue: there is no issue to give it here. */
function customMessage(error: ((issue: never) => unknown) | undefined): unknown {
  try {
    return error?.({} as never);
  } catch {
    return undefined;
  }
}

function outOfBounds(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const small = issue.code === 'too_small';
  if (issue.origin === 'string' && typeof value === 'string') {
    return value.trim() === '' ? 'empty' : `${value.length} characters is too ${small ? 'short' : 'long'}`;
  }
  if (issue.origin === 'array') {
    // A comma-separated query parameter is checked as the list it becomes; the input is still its text.
    if (value === '' || (Array.isArray(value) && value.length === 0)) return 'empty';
    return Array.isArray(value) ? `${value.length} items are too ${small ? 'few' : 'many'}` : `too ${small ? 'few' : 'many'} items`;
  }
  // Query-string numbers arrive as text: quote only what is not a number at all.
  return `${typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? value : shown(value)} is too ${small ? 'small' : 'large'}`;
}

function range(origin: string, bounds: Bounds): string {
  const unit = (count: number) => (origin === 'string' ? ` character${count === 1 ? '' : 's'}` : origin === 'array' ? ` item${count === 1 ? '' : 's'}` : '');
  if (bounds.minimum !== undefined && bounds.maximum !== undefined) return `${bounds.minimum}–${bounds.maximum}${unit(bounds.maximum)}`;
  if (bounds.minimum !== undefined) return `at least ${bounds.minimum}${unit(bounds.minimum)}`;
  return `at most ${bounds.maximum}${unit(bounds.maximum ?? 0)}`;
}

/** " (1–500 characters)" after the expected type, when the schema bounds it. */
function boundsNote(schema: z.ZodType, path: PropertyKey[]): string {
  const bounds = boundsAt(schema, path);
  if (bounds.minimum === undefined && bounds.maximum === undefined) return '';
  const type = unwrap(schemaAt(schema, path))?._zod.def.type;
  return ` (${range(type === 'string' || type === 'array' ? type : 'number', bounds)})`;
}

/** zod's names for expected types, as a reader would say them. */
function typeName(expected: string): string {
  return expected === 'int' ? 'integer' : expected;
}

/** zod does not echo the input in issues, so what was sent (if anything) is read from the input. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * A value as a message may quote it: JSON, cut short. A URL's user name and password are hidden first: cut
 * before its `@`, a long password could no longer be told from the rest, and the message is logged too.
 */
function shown(value: unknown): string {
  const text = hideUrlUserinfo(typeof value === 'number' && !Number.isFinite(value) ? String(value) : asJson(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** JSON of a value a caller sent, which may nest deeper than JSON.stringify's stack goes (a 10 KB body can). */
function asJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Array.isArray(value) ? 'an array nested too deeply to show' : 'a value nested too deeply to show';
  }
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** The schema that validates the value at `path`, looking through optional, default, pipe and refinement wrappers. */
function schemaAt(schema: z.ZodType, path: PropertyKey[]): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const key of path) {
    current = unwrap(current);
    const def = current?._zod.def as { type?: string; shape?: Record<string, z.core.$ZodType>; element?: z.core.$ZodType } | undefined;
    if (def?.type === 'object') current = def.shape?.[String(key)];
    else if (def?.type === 'array') current = def.element;
    else return undefined;
  }
  return current;
}

function unwrap(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; out?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe') current = def.out?._zod.def.type === 'transform' ? def.in : def.out;
    else break;
  }
  return current;
}

/** The length or value bounds the checks of the schema at `path` declare, so a message can say the whole range. */
function boundsAt(schema: z.ZodType, path: PropertyKey[]): Bounds {
  const leaf = unwrap(schemaAt(schema, path));
  const bounds: Bounds = {};
  for (const check of leaf?._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; minimum?: number; maximum?: number; value?: number | bigint };
    if (def.check === 'min_length') bounds.minimum = def.minimum;
    if (def.check === 'max_length') bounds.maximum = def.maximum;
    if (def.check === 'greater_than') bounds.minimum = Number(def.value);
    if (def.check === 'less_than') bounds.maximum = Number(def.value);
  }
  return bounds;
}

function allowedFields(schema: z.ZodType): string[] {
  const shape = (unwrap(schema)?._zod.def as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Validates input against a schema; on failure, a QUERY_INVALID error naming each bad field and what is allowed. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, what = 'request'): z.infer<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error, schema, what, input);
}

/**
 * One message for every invalid input: "<field>: <what is wrong>; <what is allowed>" per problem, problems
 * separated by ". ". `what` names the input itself (query, body, web_search parameters) when it is the
 * whole input that is wrong rather than one field.
 */
export function validationError(error: z.ZodError, schema: z.ZodType, what: string, input: unknown): FedsearchError {
  const problems = error.issues.map((issue) => describeIssue(issue, schema, input, what));
  return invalidQuery(problems.map((problem) => `${problem.field}: ${problem.message}`).join('. '), problems);
}
