import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documented, REMEMBERED_QUERY_CHARACTERS, rememberingValid, useZodValidation } from '../../src/http/zod-schemas.js';
import { searchQuerystrings } from '../../src/http/search-schemas.js';

/** The route's own validation (zod), counting how often it runs. */
function countingValidation(schema: z.ZodType) {
  let runs = 0;
  const validate = (data: unknown) => {
    runs += 1;
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: new Error(result.error.message) };
  };
  return { validate: rememberingValid(validate), runs: () => runs };
}

const query = (fields: Record<string, string | string[]>) => Object.assign(Object.create(null) as object, fields);

describe('query strings validated once per distinct set of parameters', () => {
  it('gives a repeated query string the value zod gives, frozen, without running zod again', () => {
    const { validate, runs } = countingValidation(searchQuerystrings.web);
    const parameters = { q: 'cached answer', providers: 'brave, exa', limit: '5', include_domains: ['a.example', 'b.example'] };
    const first = validate(query(parameters));
    const again = validate(query(parameters));
    expect(runs()).toBe(1);
    expect(again).toEqual(first);
    expect('value' in again && again.value).toEqual(searchQuerystrings.web.parse(query(parameters)));
    const value = (again as { value: { providers: string[]; include_domains: string[] } }).value;
    expect(Object.isFrozen(value) && Object.isFrozen(value.providers) && Object.isFrozen(value.include_domains)).toBe(true);
  });

  it('validates other parameters, or the same in another order, on their own', () => {
    const { validate, runs } = countingValidation(searchQuerystrings.web);
    const one = validate(query({ q: 'one', limit: '5' }));
    const other = validate(query({ q: 'one', limit: '6' }));
    validate(query({ limit: '5', q: 'one' }));
    expect(runs()).toBe(3);
    expect(one).toMatchObject({ value: { q: 'one', limit: 5 } });
    expect(other).toMatchObject({ value: { q: 'one', limit: 6 } });
  });

  it('keeps no invalid query string and no overlong one: each is validated every time', () => {
    const { validate, runs } = countingValidation(searchQuerystrings.web);
    const invalid = query({ q: 'x', limit: '500' });
    expect(validate(invalid)).toHaveProperty('error');
    expect(validate(invalid)).toHaveProperty('error');
    // Valid, but longer than any remembered: twenty long provider names.
    const long = query({ q: 'x', providers: Array.from({ length: 20 }, (_, index) => `${index}${'p'.repeat(REMEMBERED_QUERY_CHARACTERS / 20)}`).join(',') });
    expect(validate(long)).toHaveProperty('value');
    expect(validate(long)).toHaveProperty('value');
    expect(runs()).toBe(4);
  });
});

describe('remembered query validation in an app', () => {
  /** An app with one validated route that says whether the query it got is a remembered (frozen) one. */
  async function appRemembering(rememberQueries: boolean) {
    const app = Fastify();
    useZodValidation(app, { rememberQueries });
    app.get('/search', { schema: { querystring: documented(searchQuerystrings.web, 'query') } }, async (request) => ({
      frozen: Object.isFrozen(request.query),
    }));
    await app.ready();
    return app;
  }

  it('remembers valid query strings when asked to (an app whose answer cache keeps answers)', async () => {
    const app = await appRemembering(true);
    const answers = await Promise.all([1, 2].map(() => app.inject('/search?q=again&limit=5')));
    expect(answers.map((answer) => answer.json())).toEqual([{ frozen: true }, { frozen: true }]);
    await app.close();
  });

  it('validates every query string afresh when not (the service with CACHE_TTL_SECONDS=0)', async () => {
    const app = await appRemembering(false);
    const answers = await Promise.all([1, 2].map(() => app.inject('/search?q=again&limit=5')));
    expect(answers.map((answer) => answer.json())).toEqual([{ frozen: false }, { frozen: false }]);
    await app.close();
  });
});
