import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { OPERATIONS } from '../../src/operations/registry.js';

/**
 * Every `METHOD /path` the documents name (`GET /v1/providers`, `POST /v1/ops/<operation>`) is a route the service
 * serves with that method: a path renamed or moved in the code fails here until the documents follow.
 */

const root = new URL('../../', import.meta.url);
const documents = ['README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** A documented path's placeholders, each with the values it stands for. */
const placeholders: Record<string, readonly string[]> = {
  '{kind}': ['web', 'papers'],
  '<operation>': OPERATIONS.map((operation) => operation.name),
  '<name>': OPERATIONS.map((operation) => operation.name),
};

function expand(path: string): string[] {
  const placeholder = Object.keys(placeholders).find((name) => path.includes(name));
  return placeholder ? placeholders[placeholder]!.flatMap((value) => expand(path.replace(placeholder, value))) : [path];
}

/** Each `METHOD /path` of the documents as "METHOD /path", its query string and placeholders resolved. */
const documented = [
  ...new Set(
    documents.flatMap((document) =>
      [...readFileSync(new URL(document, root), 'utf8').matchAll(/`(GET|HEAD|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)/g)].flatMap(([, method, path]) =>
        expand(path!).map((resolved) => `${method} ${resolved}`),
      ),
    ),
  ),
];

describe('the routes the documents name', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('finds them (the API table at least)', () => {
    expect(documented).toEqual(expect.arrayContaining(['GET /v1/search/web', 'POST /v1/ops/web_search', 'GET /v1/providers', 'POST /mcp', 'GET /healthz']));
  });

  it('are each served with the method named', () => {
    const missing = documented.filter((route) => {
      const [method, url] = route.split(' ') as [HTTPMethods, string];
      return !app.hasRoute({ method, url });
    });
    expect(missing).toEqual([]);
  });
});
