import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { searchBodies } from '../../src/http/search-schemas.js';

/**
 * README.md's paragraph of search parameters is what a caller of /v1/search/{kind} reads; these checks hold it to
 * the routes' schemas, so a field, range, default or allowed value changed in the code fails here until the
 * paragraph says the same.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The paragraph from "Search parameters:" to the blank line that ends it, on one line. */
const paragraph = /^Search parameters:[\s\S]*?(?=\n\n)/m.exec(readme)![0].replace(/\n/g, ' ');

interface FieldSchema {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  enum?: string[];
}

const fields = (kind: keyof typeof searchBodies): Record<string, FieldSchema> =>
  (z.toJSONSchema(searchBodies[kind], { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, FieldSchema> }).properties;

const allFields = { ...fields('papers'), ...fields('web') };

/** What the paragraph says in parentheses right after a field's name: `limit` (1–50, default 10). */
const described = (name: string): string | undefined => new RegExp('`' + name + '` \\(([^)]*)\\)').exec(paragraph)?.[1];

describe("README.md's search parameters", () => {
  it.each(Object.keys(allFields))('names %s', (name) => {
    expect(paragraph).toContain(`\`${name}\``);
  });

  it.each(
    Object.keys(allFields).flatMap((name) => {
      const range = /^(?:required, )?(\d+)–(\d+)/.exec(described(name) ?? '');
      return range ? [[name, Number(range[1]), Number(range[2])] as const] : [];
    }),
  )('%s: the documented range %d–%d is the accepted one', (name, min, max) => {
    const field = allFields[name]!;
    expect([field.minimum ?? field.minLength, field.maximum ?? field.maxLength]).toEqual([min, max]);
  });

  it.each(
    Object.keys(allFields).flatMap((name) => {
      const fallback = /default (\d+)/.exec(described(name) ?? '');
      return fallback ? [[name, Number(fallback[1])] as const] : [];
    }),
  )('%s: the documented default %d is the one used', (name, fallback) => {
    expect(allFields[name]!.default).toBe(fallback);
  });

  it.each(Object.entries(allFields).filter(([, field]) => field.enum !== undefined))('%s: the documented values are the accepted ones', (name, field) => {
    const values = [...(described(name) ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(values).toEqual(field.enum);
  });

  it('checks the ranges, defaults and values the paragraph gives', () => {
    // Guards the checks above against a rewording that leaves them nothing to compare.
    expect(['q', 'limit', 'page', 'timeout_ms'].every((name) => /\d+–\d+/.test(described(name) ?? ''))).toBe(true);
    expect(['time_range', 'safesearch'].every((name) => described(name) !== undefined)).toBe(true);
  });
});
