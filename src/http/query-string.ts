import { z } from 'zod';

/** What a query-string parameter arrives as (text, or a list of texts when repeated) must become for its field. */
type FieldForm = 'number' | 'boolean' | 'list' | 'text';

/** The schema a field's value meets first, looking through optional, default and refinement wrappers. */
function formOf(field: z.core.$ZodType): FieldForm {
  let current: z.core.$ZodType | undefined = field;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; options?: z.core.$ZodType[] };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'number') return 'number';
    else if (def.type === 'boolean') return 'boolean';
    else if (def.type === 'array') return 'list';
    else if (def.type === 'union') return def.options?.some((option) => formOf(option) === 'list') ? 'list' : 'text';
    else return 'text';
  }
  return 'text';
}

/** "a,b" and ["a", "b,c"] (a repeated parameter) both become a list of the non-empty names. */
function toList(value: unknown): unknown {
  const parts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((part) => typeof part === 'string') ? value : undefined;
  if (!parts) return value;
  const names: string[] = [];
  for (const part of parts as string[]) {
    for (const name of part.split(',')) {
      const trimmed = name.trim();
      if (trimmed !== '') names.push(trimmed);
    }
  }
  return names;
}

const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function coerce(value: unknown, form: FieldForm): unknown {
  if (form === 'list') return toList(value);
  if (typeof value !== 'string') return value;
  // Text that is not a number or a truth value stays text, so the message can quote what was sent.
  // Written as JSON writes a number: Number() also read "0x10" as 16, "0b11" as 3 and " 5 " as 5, none documented.
  if (form === 'number') return DECIMAL.test(value) ? Number(value) : value;
  if (form === 'boolean') return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
  return value;
}

/**
 * A JSON body's schema, read from a query string: numbers and truth values (true/false/1/0) arrive as text,
 * lists as comma-separated text or a repeated parameter. The fields, bounds and messages are the body's own,
 * so the GET and POST forms of a route (and the operation the body mirrors) cannot drift apart; the OpenAPI
 * document shows the body's types.
 */
export function fromQueryString<Schema extends z.ZodObject>(schema: Schema): z.ZodType<z.output<Schema>> {
  const forms = new Map(Object.entries(schema.shape).map(([name, field]) => [name, formOf(field as z.core.$ZodType)]));
  return z.preprocess((raw) => {
    if (typeof raw !== 'object' || raw === null) return raw;
    const fields: Record<string, unknown> = {};
    for (const name of Object.keys(raw)) {
      const value = coerce((raw as Record<string, unknown>)[name], forms.get(name) ?? 'text');
      // A parameter named __proto__ stays a field (the schema refuses it) rather than setting the prototype.
      if (name === '__proto__') Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
      else fields[name] = value;
    }
    return fields;
  }, schema) as unknown as z.ZodType<z.output<Schema>>;
}
