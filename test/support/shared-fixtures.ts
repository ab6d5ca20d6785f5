import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRecord, jsonObjectEnd } from '../../src/providers/parse-helpers.js';
import type { UpstreamRequest } from '../../src/providers/provider.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Real recorded responses live beside the project (CI has them); a bare clone does not. */
export const SHARED_FIXTURES_DIR = process.env.SHARED_FIXTURES_DIR ?? path.resolve(projectRoot, '..', 'shared', 'fixtures');

/** A request reduced to what can decide the format of its answer. */
export interface RequestLine {
  method: string;
  url: URL;
  /** Query parameters, form-body parameters and the top-level fields of a JSON body, as strings. */
  parameters: Map<string, string>;
  /** The Accept header, where it is known. */
  accept?: string;
}

export interface SharedFixture {
  provider: string;
  file: string;
  /** The request cell as the manifest gives it (method and real URL, sometimes with a body or notes). */
  request: string;
  /** The HTTP status the body came with; 200 where the manifest says it was not recorded. */
  status: number;
  body: string;
  manifest: Record<string, string>;
}

/** A recorded body whose request asks for the same endpoint and format as one the adapter sends. */
export interface ApplicableFixture extends SharedFixture {
  /** The recorded request, read from the manifest. */
  answers: RequestLine;
  /** Its format label (see FixtureSelection.formatOf). */
  format: string;
}

export interface NotApplicableFixture {
  fixture: SharedFixture;
  reason: string;
}

export interface FixtureSelection {
  /** Every request the adapter sends: its search, its lookups, follow-ups and side calls, built by the test. */
  sent: UpstreamRequest[];
  /**
   * The endpoint and response format a request asks for, as one label (`GET /works/{doi}`, `GET /w/api.php
   * list=search format=json formatversion=2`). A recorded body applies to the adapter when its request has
   * the label of a request the adapter sends; parameters that only select fields or filter results stay out.
   */
  formatOf(request: RequestLine): string;
}

/** `METHOD /path`: the format label for an API whose endpoint alone decides the format of its answer. */
export function endpointOf(request: RequestLine): string {
  return `${request.method} ${request.url.pathname}`;
}

/** Splits one TSV line whose cells may be quoted with "" escapes (as the manifests are). */
function splitTsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"' && cell === '') quoted = true;
    else if (character === '\t') {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  cells.push(cell);
  return cells;
}

export function readSharedFixtures(provider: string): SharedFixture[] {
  const folder = path.join(SHARED_FIXTURES_DIR, provider);
  const manifestPath = path.join(folder, 'MANIFEST.tsv');
  if (!existsSync(manifestPath)) return [];
  const [header, ...lines] = readFileSync(manifestPath, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const columns = splitTsvLine(header!);
  return lines.map((line) => {
    const cells = splitTsvLine(line);
    const manifest = Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? '']));
    const statusMatch = /^\s*(\d{3})/.exec(manifest.http_status ?? '');
    return {
      provider,
      file: manifest.file!,
      request: manifest.request ?? '',
      status: statusMatch ? Number(statusMatch[1]) : 200,
      body: readFileSync(path.join(folder, manifest.file!), 'utf8'),
      manifest,
    };
  });
}

/** The JSON object that starts at `start`; undefined if none parses. */
function jsonObjectAt(text: string, start: number): Record<string, unknown> | undefined {
  const end = start < 0 ? undefined : jsonObjectEnd(text, start);
  if (end === undefined) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start, end)) as unknown;
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function addJsonFields(parameters: Map<string, string>, body: Record<string, unknown> | undefined): void {
  for (const [name, value] of Object.entries(body ?? {})) parameters.set(name, typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * Reads a manifest's request cell: `METHOD URL`, then what the recorder noted about it: a JSON body
 * (`body={…}`), a form body (`[request body: a=1&b=2]`), an Accept header (`(Accept: …)`). Undefined when
 * the cell records no method and URL ("any Firecrawl endpoint with a bad token").
 */
export function readRecordedRequest(cell: string): RequestLine | undefined {
  const line = /^\s*(GET|POST|PUT|PATCH|DELETE)\s+(\S+)/.exec(cell);
  if (!line) return undefined;
  // Placeholders stand where the recorder left the host out: http://<searxng-instance>/search.
  const address = line[2]!.replace(/^(\w+:\/\/)<[^>]*>/, '$1placeholder.invalid');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  const parameters = new Map(url.searchParams);
  const notes = cell.slice(line.index + line[0].length);
  const form = /\[request body:\s*([^\]]+)\]/.exec(notes)?.[1];
  for (const [name, value] of new URLSearchParams(form ?? '')) parameters.set(name, value);
  const braceAt = notes.indexOf('{');
  if (braceAt >= 0) addJsonFields(parameters, jsonObjectAt(notes, braceAt));
  const accept = /\(Accept:\s*([^)\s]+)\)/i.exec(notes)?.[1];
  return { method: line[1]!, url, parameters, ...(accept ? { accept } : {}) };
}

/** An adapter's request in the same terms as a recorded one. */
export function sentRequestLine(request: UpstreamRequest): RequestLine {
  const url = new URL(request.url);
  const parameters = new Map(url.searchParams);
  if (request.body !== undefined) addJsonFields(parameters, jsonObjectAt(request.body, request.body.indexOf('{')));
  const accept = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  return { method: request.method ?? 'GET', url, parameters, ...(accept ? { accept } : {}) };
}

/** Splits the recorded bodies into those that answer a request the adapter sends and those that do not. */
export function selectFixtures(
  fixtures: SharedFixture[],
  selection: FixtureSelection,
): { applicable: ApplicableFixture[]; notApplicable: NotApplicableFixture[] } {
  const sentFormats = new Set(selection.sent.map((request) => selection.formatOf(sentRequestLine(request))));
  const applicable: ApplicableFixture[] = [];
  const notApplicable: NotApplicableFixture[] = [];
  for (const fixture of fixtures) {
    const answers = readRecordedRequest(fixture.request);
    if (!answers) {
      notApplicable.push({ fixture, reason: 'the manifest records no request URL' });
      continue;
    }
    const format = selection.formatOf(answers);
    if (sentFormats.has(format)) applicable.push({ ...fixture, answers, format });
    else notApplicable.push({ fixture, reason: `answers ${format}` });
  }
  return { applicable, notApplicable };
}

/**
 * Declares a provider's conformance suite over ../shared/fixtures/<provider>/: `define` gets the recorded
 * bodies whose request matches one the adapter sends (see FixtureSelection); the others are counted and named
 * in a test of their own, never dropped unseen. Where the folder is absent (a bare clone) it registers one
 * skipped test whose name says why, so the skip is visible, not silent.
 */
export function describeSharedFixtures(
  provider: string,
  selection: FixtureSelection,
  define: (fixtures: ApplicableFixture[]) => void,
): void {
  const fixtures = readSharedFixtures(provider);
  const folder = path.join(SHARED_FIXTURES_DIR, provider);
  if (fixtures.length === 0) {
    describe(`${provider} conformance over shared fixtures`, () => {
      it.skip(`skipped: ${folder} not found (bare clone)`, () => undefined);
    });
    return;
  }
  const { applicable, notApplicable } = selectFixtures(fixtures, selection);
  const sentFormats = [...new Set(selection.sent.map((request) => selection.formatOf(sentRequestLine(request))))];
  const named = notApplicable.map(({ fixture, reason }) => `${fixture.file} (${reason})`).join('; ');
  describe(`${provider} conformance over shared fixtures`, () => {
    it(`${applicable.length} of ${fixtures.length} recorded bodies answer what the adapter sends (${sentFormats.join(' | ')}); not applicable: ${named || 'none'}`, () => {
      // Every recorded body in the folder is in the manifest, so none is left out of this count unseen.
      const files = readdirSync(folder).filter((file) => file !== 'MANIFEST.tsv');
      expect(fixtures.map((fixture) => fixture.file).sort()).toEqual(files.sort());
      expect(applicable.length + notApplicable.length).toBe(fixtures.length);
    });
    define(applicable);
  });
}
