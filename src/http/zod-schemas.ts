import type { FastifyInstance, FastifySchema } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { validationError } from '../domain/validation.js';
import { replyJson } from './reply-json.js';

/**
 * The zod schema behind each JSON Schema handed to Fastify: OpenAPI reads the JSON, validation runs zod.
 * `parser` is zod's compiled clone of `schema` (z.compile): a generated fast path for valid input that hands
 * anything it would reject to the ordinary parser, so errors and their messages are zod's own as before.
 */
const zodBehind = new WeakMap<object, { schema: z.ZodType; parser: z.ZodType; what: string }>();

/** JSON Schema for docs, remembered so the validator can run the zod schema it came from. */
export function documented(schema: z.ZodType, what: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  zodBehind.set(json, { schema, parser: z.compile(schema), what });
  return json;
}

type Validated = { value: unknown } | { error: Error };

/**
 * One validation path for every route: zod, with messages naming each bad field and what is allowed. Query
 * strings are remembered (rememberingValid) only when `rememberQueries`: the service passes false when its
 * answer cache keeps nothing, since then no repeated search is answered cheaply enough for validation to
 * matter, and remembering every new query would only keep objects alive long enough to cost the collector.
 * Responses are serialised as JSON.stringify would (http/reply-json.ts), so response schemas document and
 * never strip fields.
 */
export function useZodValidation(app: FastifyInstance, { rememberQueries = true }: { rememberQueries?: boolean } = {}): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const entry = zodBehind.get(schema);
    if (!entry) return () => true;
    const validate = (data: unknown): Validated => {
      const input = data ?? (httpPart === 'body' ? {} : data);
      const result = entry.parser.safeParse(input);
      if (result.success) return { value: result.data };
      return { error: validationError(result.error, entry.schema, entry.what, input) };
    };
    return httpPart === 'querystring' && rememberQueries ? rememberingValid(validate) : validate;
  });
  app.setSerializerCompiler(() => replyJson);
}

/** How many distinct valid query strings each route remembers, and the longest remembered (as JSON). */
export const REMEMBERED_QUERIES = 500;
export const REMEMBERED_QUERY_CHARACTERS = 2048;

/**
 * A query string's validation, remembered: a repeated search (one the answer cache serves) would otherwise pay
 * more to validate its parameters than to find its answer. Validation is a pure function of the parameters
 * (no clock, no state), so the remembered value is the one zod would give again; it is frozen, because every
 * request with these parameters now shares it. Only valid ones are kept: an error is built afresh each time.
 */
export function rememberingValid(validate: (data: unknown) => Validated): (data: unknown) => Validated {
  const remembered = new LRUCache<string, Validated>({ max: REMEMBERED_QUERIES });
  return (data) => {
    // Fastify's query-string parser gives an object of texts and lists of texts: its JSON says all of it, in order.
    const key = typeof data === 'object' && data !== null ? JSON.stringify(data) : undefined;
    if (key === undefined || key.length > REMEMBERED_QUERY_CHARACTERS) return validate(data);
    let result = remembered.get(key);
    if (result === undefined) {
      result = validate(data);
      if ('value' in result) remembered.set(key, Object.freeze({ value: deepFreeze(result.value) }));
    }
    return result;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

export type RouteSchema = FastifySchema & { tags?: string[]; summary?: string; description?: string };
