import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The layers of src/, lowest first, each named with the paths it holds (a folder ends in /; the longest
 * match wins). A file may import from its own layer and any layer of a lower rank; never from a higher
 * rank, nor from another layer of its own rank (engine and fetch share transport/ instead of each other).
 *
 *   domain                       types, errors and facts everything speaks
 *   values, transport            environment value parsers; undici dispatchers, body reading, network-error
 *                                naming and Redis connections, shared by provider calls, page fetches and limits
 *   rate-limit                   outbound token buckets (local, or shared through Redis)
 *   providers                    adapters: build requests, parse bodies; never the network
 *   engine, fetch                the provider pipeline, search and lookups; the safe fetcher for any page
 *   operations, observability    what the service offers; metrics
 *   http, mcp                    the two surfaces, both derived from the operations
 *   root                         the composition: the configuration schema and files, the app, the server
 *
 * One exception: the AppConfig *type* of config.ts may be imported from any layer. The configuration's schema
 * gathers every part's settings (so it sits at the root), and each part names its section by that type; a
 * type import is erased at build, so it can neither run code nor form a cycle at run time.
 */
const LAYERS: ReadonlyArray<Readonly<Record<string, readonly string[]>>> = [
  { domain: ['domain/', 'version.ts'] },
  { values: ['config/env-values.ts', 'config/secret-text.ts'], transport: ['transport/'] },
  { 'rate-limit': ['rate-limit/'] },
  { providers: ['providers/'] },
  { engine: ['engine/'], fetch: ['fetch/'] },
  { operations: ['operations/'], observability: ['observability/'] },
  { http: ['http/'], mcp: ['mcp/'] },
  { root: ['config.ts', 'config/', 'app.ts', 'search-setup.ts', 'server.ts', 'startup-summary.ts', 'healthcheck.ts', 'logger.ts', 'request-logger.ts', 'shutdown-cut.ts', 'uncaught-errors.ts'] },
];

/** Where type-only imports may point upward (see above). */
const TYPE_ONLY_FROM_ANYWHERE = new Set(['config.ts']);

interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.isFile() && entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** src/-relative path of a relative import, with the .js of ESM specifiers mapped back to the .ts source. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(path.join(SOURCE_ROOT, from)), specifier.replace(/\.js$/, '.ts'));
  return path.relative(SOURCE_ROOT, target).split(path.sep).join('/');
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/** Static imports, re-exports and dynamic import()s of one file, parsed with the TypeScript compiler. */
function importsOf(file: string): ImportEdge[] {
  const from = path.relative(SOURCE_ROOT, file).split(path.sep).join('/');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean): void => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    const to = resolveImport(from, specifier.text);
    if (to) edges.push({ from, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

interface Layer {
  name: string;
  rank: number;
}

/** The layer holding a src/-relative path: the one with the longest matching path. */
function layerOf(file: string): Layer {
  let found: (Layer & { length: number }) | undefined;
  LAYERS.forEach((layers, rank) => {
    for (const [name, paths] of Object.entries(layers)) {
      for (const prefix of paths) {
        const matches = prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix;
        if (matches && (!found || prefix.length > found.length)) found = { name, rank, length: prefix.length };
      }
    }
  });
  if (!found) throw new Error(`${file} is in no layer: add it (or its folder) to LAYERS in this test, where it belongs`);
  return found;
}

function allowedUpward(edge: ImportEdge): boolean {
  return edge.typeOnly && TYPE_ONLY_FROM_ANYWHERE.has(edge.to);
}

/** Every cycle's files, found by depth-first search over the import graph. */
function findCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...next.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('dependencies of src/', () => {
  const edges = sourceFiles(SOURCE_ROOT).flatMap(importsOf);

  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'engine/gather.ts', to: 'engine/provider-pipeline.ts', typeOnly: false });
  });

  it('point down the layers: nothing imports from a layer above or beside its own', () => {
    const upward = edges
      .filter((edge) => {
        const [from, to] = [layerOf(edge.from), layerOf(edge.to)];
        return from.name !== to.name && to.rank >= from.rank && !allowedUpward(edge);
      })
      .map((edge) => `${edge.from} (${layerOf(edge.from).name}) → ${edge.to} (${layerOf(edge.to).name})`);
    expect(upward).toEqual([]);
  });

  it('form no cycle', () => {
    const cycles = findCycles(edges.filter((edge) => !allowedUpward(edge))).map((cycle) => cycle.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('keep the engine and the operations away from the registry and the concrete adapters', () => {
    const adapters = new Set(['providers/provider.ts', 'providers/capabilities.ts', 'providers/provider-config.ts', 'providers/parse-helpers.ts']);
    const concrete = edges
      .filter((edge) => ['engine', 'operations', 'http', 'mcp'].includes(layerOf(edge.from).name) && layerOf(edge.to).name === 'providers' && !adapters.has(edge.to))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(concrete).toEqual([]);
  });
});
