import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import { validationError } from '../domain/validation.js';
import { replyJson } from './reply-json.js';

/** The zod schema behind each JSON Schema handed to Fastify: OpenAPI reads the JSON, validation runs zod. */
const zodBehind = new WeakMap<object, { schema: z.ZodType; what: string }>();

/** JSON Schema for docs, remembered so the validator can run the zod schema it came from. */
export function documented(schema: z.ZodType, what: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  zodBehind.set(json, { schema, what });
  return json;
}

/**
 * One validation path for every route: zod, with messages naming each bad field and what is allowed.
 * Responses are serialised as JSON.stringify would (http/reply-json.ts), so response schemas document and
 * never strip fields.
 */
export function useZodValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const entry = zodBehind.get(schema);
    if (!entry) return () => true;
    return (data: unknown) => {
      const input = data ?? (httpPart === 'body' ? {} : data);
      const result = entry.schema.safeParse(input);
      if (result.success) return { value: result.data };
      return { error: validationError(result.error, entry.schema, entry.what, input) };
    };
  });
  app.setSerializerCompiler(() => replyJson);
}

export type RouteSchema = FastifySchema & { tags?: string[]; summary?: string; description?: string };
