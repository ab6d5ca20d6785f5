import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Real recorded responses live beside the project (CI has them); a bare clone does not. */
export const SHARED_FIXTURES_DIR = process.env.SHARED_FIXTURES_DIR ?? path.resolve(projectRoot, '..', 'shared', 'fixtures');

export interface SharedFixture {
  provider: string;
  file: string;
  /** The request line as the manifest gives it (method and real URL, sometimes with notes). */
  request: string;
  /** The HTTP status the body came with; 200 where the manifest says it was not recorded. */
  status: number;
  body: string;
  manifest: Record<string, string>;
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

/**
 * Declares a provider's conformance suite over ../shared/fixtures/<provider>/. Where the folder is absent
 * (a bare clone) it registers one skipped test whose name says why, so the skip is visible, not silent.
 */
export function describeSharedFixtures(provider: string, define: (fixtures: SharedFixture[]) => void): void {
  const fixtures = readSharedFixtures(provider);
  if (fixtures.length === 0) {
    describe(`${provider} conformance over shared fixtures`, () => {
      it.skip(`skipped: ${path.join(SHARED_FIXTURES_DIR, provider)} not found (bare clone)`, () => undefined);
    });
    return;
  }
  describe(`${provider} conformance over shared fixtures`, () => define(fixtures));
}
