import { z } from 'zod';
import { invalidQuery, type FedsearchError } from './errors.js';

/** A field-level problem, as shown to REST callers and MCP clients. */
export interface FieldProblem {
  field: string;
  message: string;
}

function describeIssue(issue: z.core.$ZodIssue, allowed: string[], input: unknown): FieldProblem {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(body)';
  switch (issue.code) {
    case 'unrecognized_keys':
      return {
        field: issue.keys.join(', '),
        message: `${issue.keys.length > 1 ? 'are not known fields' : 'is not a known field'}; allowed: ${allowed.join(', ') || 'none'}`,
      };
    case 'too_small':
      if (issue.origin === 'string') {
        return { field, message: issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters` };
      }
      if (issue.origin === 'array') return { field, message: `must have at least ${issue.minimum} item(s)` };
      return { field, message: `must be at least ${issue.minimum}` };
    case 'too_big':
      if (issue.origin === 'string') return { field, message: `must be at most ${issue.maximum} characters` };
      if (issue.origin === 'array') return { field, message: `must have at most ${issue.maximum} item(s)` };
      return { field, message: `must be at most ${issue.maximum}` };
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return { field, message: `is required (${issue.expected})` };
      return { field, message: `must be ${article(issue.expected)} ${issue.expected}` };
    case 'invalid_value':
      return { field, message: `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}` };
    default:
      return { field, message: issue.message };
  }
}

/** zod does not echo the input in issues, so whether a field was sent at all is read from the input. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function allowedFields(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** Validates input against a schema; on failure, a QUERY_INVALID error naming each bad field and what is allowed. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, what = 'request'): z.infer<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error, schema, what, input);
}

export function validationError(error: z.ZodError, schema: z.ZodType, what: string, input: unknown): FedsearchError {
  const problems = error.issues.map((issue) => describeIssue(issue, allowedFields(schema), input));
  const message = `invalid ${what}: ${problems.map((problem) => (problem.field === '(body)' ? problem.message : `${problem.field} ${problem.message}`)).join('; ')}`;
  return invalidQuery(message, problems);
}
