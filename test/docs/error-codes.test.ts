import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/domain/errors.js';
import { tableRows } from '../support/markdown-table.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

function sourceFiles(folder: string): string[] {
  return readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

/**
 * The codes the service answers with beyond ERROR_CODES: refusals written before a route runs (`code: 'UNAUTHORIZED'`,
 * `errorEnvelope(request, 403, 'CROSS_SITE_REQUEST', …)`) and the error handler's codes for Fastify's own errors
 * (`return 'RATE_LIMITED'`, `return status >= 500 ? 'INTERNAL' : 'REQUEST_REJECTED'`). Node's and undici's error codes (ENOTFOUND, ERR_…, UND_ERR_…) are not ours.
 */
function refusalCodes(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles('src/')) {
    for (const match of read(file).matchAll(/(?:\bcode: |errorEnvelope\([^,]+, \d+, |\breturn (?:[^;'\n]*\? '[A-Z_]+' : )?)'([A-Z][A-Z_]{2,})'/g)) found.add(match[1]!);
  }
  return [...found].filter((code) => !/^E[A-Z]+$/.test(code) && !/^(ERR|HPE|FST|UND)_/.test(code));
}

/**
 * The statuses the source gives a refusal code beside it: `status: 401, code: 'UNAUTHORIZED'` (a refusal object, on
 * one line or several), `errorEnvelope(request, 403, 'CROSS_SITE_REQUEST'`, and the error handler's
 * `if (status === 429) return 'RATE_LIMITED'`. Each as "status code".
 */
function sourceStatusPairs(): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bstatus(?:Code)?: (\d{3}),\s*(?:error: '[^']*',\s*)?code: '([A-Z][A-Z_]+)'/g,
    /errorEnvelope\([^,]+, (\d{3}), '([A-Z][A-Z_]+)'/g,
    /status === (\d{3})\) return '([A-Z][A-Z_]+)'/g,
  ];
  for (const file of sourceFiles('src/')) {
    const text = read(file);
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.add(`${match[1]} ${match[2]}`);
  }
  return [...found];
}

/** docs/api.md's error table: each code with the statuses of the rows that list it (`—` for none, `4xx` for any). */
function documentedStatuses(): Map<string, string[]> {
  const documented = new Map<string, string[]>();
  for (const [statuses, codes] of tableRows(read('docs/api.md'), '| Status | Code | When |')) {
    for (const [, code] of codes!.matchAll(/`([A-Z][A-Z_]+)`/g)) {
      documented.set(code!, [...(documented.get(code!) ?? []), ...statuses!.split(',').map((status) => status.trim())]);
    }
  }
  return documented;
}

const documentedWith = (statuses: string[] | undefined, status: string): boolean =>
  statuses !== undefined && (statuses.includes(status) || (status.startsWith('4') && statuses.includes('4xx')));

const words = (text: string) => new Set(text.match(/[A-Z][A-Z_]+[A-Z]/g) ?? []);

/** A client branches on the error code: each one the service can send is written down where callers look. */
describe('error codes in the documents', () => {
  const codes = [...new Set([...(Object.keys(ERROR_CODES) as string[]), ...refusalCodes()])];

  it('finds the refusal codes written outside ERROR_CODES', () => {
    expect(refusalCodes()).toEqual(expect.arrayContaining(['UNAUTHORIZED', 'HOST_NOT_ALLOWED', 'RATE_LIMITED', 'TOO_MANY_SESSIONS', 'REQUEST_REJECTED', 'SESSION_CLOSED']));
  });

  it('docs/api.md lists every code the service answers with', () => {
    const listed = words(read('docs/api.md'));
    expect(codes.filter((code) => !listed.has(code))).toEqual([]);
  });

  it("docs/api.md's error table lists no code the service never answers with", () => {
    const documented = [...documentedStatuses().keys()];
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter((code) => !codes.includes(code))).toEqual([]);
  });

  it("docs/api.md's error table gives every code of ERROR_CODES the status it is sent with", () => {
    const documented = documentedStatuses();
    const sent = Object.entries(ERROR_CODES).map(([code, status]) => `${status} ${code}`);
    expect(sent.filter((pair) => !documentedWith(documented.get(pair.split(' ')[1]!), pair.split(' ')[0]!))).toEqual([]);
  });

  it("docs/api.md's error table gives every refusal the status the source answers it with", () => {
    const documented = documentedStatuses();
    const pairs = sourceStatusPairs();
    expect(pairs).toEqual(expect.arrayContaining(['401 UNAUTHORIZED', '406 NOT_ACCEPTABLE', '417 QUERY_INVALID', '429 RATE_LIMITED']));
    expect(pairs.filter((pair) => !documentedWith(documented.get(pair.split(' ')[1]!), pair.split(' ')[0]!))).toEqual([]);
  });

  it("the OpenAPI document names every code in the description of the status it is sent with", () => {
    const document = JSON.parse(read('openapi/openapi.json')) as { paths: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> };
    const described = new Map<string, Set<string>>();
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const seen = described.get(status) ?? new Set<string>();
          for (const word of words(response.description ?? '')) seen.add(word);
          described.set(status, seen);
        }
      }
    }
    // REQUEST_CANCELLED's 499 goes to a client that has left; PROVIDER_UNKNOWN is never sent (an unknown name is QUERY_INVALID).
    const sent = (Object.entries(ERROR_CODES) as Array<[ErrorCode, number]>).filter(([code]) => code !== 'REQUEST_CANCELLED' && code !== 'PROVIDER_UNKNOWN');
    expect(sent.filter(([code, status]) => !described.get(String(status))?.has(code)).map(([code, status]) => `${status} ${code}`)).toEqual([]);
  });
});
