import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ANSWER_KEYS, STORED_ANSWER_VERSION } from '../../src/engine/cached-answer.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { typeShapeDigest, typeShapes } from '../support/type-shape.js';

const CACHED_ANSWER_FILE = fileURLToPath(new URL('../../src/engine/cached-answer.ts', import.meta.url));

/**
 * Each version of the stored answer (STORED_ANSWER_VERSION) beside the digest of CachedAnswer's shape under it
 * (typeShapeDigest). When the shape changes, a line is added for the next version; a line is never edited: the
 * version a shape was kept under is what keeps the replicas of two releases from reading each other's answers.
 * From v3 on: v2 was kept in four shapes before this check.
 */
const STORED_SHAPES: ReadonlyArray<readonly [version: number, shape: string]> = [[3, 'e18e96991740f5f5']];

describe('the version in the shared cache keys', () => {
  it('changes with the shape of the answers kept under it', () => {
    const [recordedVersion, recordedShape] = STORED_SHAPES.at(-1)!;
    const shape = typeShapeDigest(CACHED_ANSWER_FILE, 'CachedAnswer');
    const next = STORED_ANSWER_VERSION + 1;
    expect(
      shape,
      `The shape of a stored answer (CachedAnswer in src/engine/cached-answer.ts, with the types it holds) is no longer the one ` +
        `kept under answer:v${recordedVersion}. In a rolling deploy the old and the new replicas share one Redis, and each ` +
        `would serve the answers the other kept, in the other's shape. Bump STORED_ANSWER_VERSION to ${next} and add ` +
        `[${next}, '${shape}'] to STORED_SHAPES in this test (do not edit the line of ${recordedVersion}).`,
    ).toBe(recordedShape);
    expect(STORED_ANSWER_VERSION, `STORED_ANSWER_VERSION is ${STORED_ANSWER_VERSION}: add its line to STORED_SHAPES, with the shape it was bumped for`).toBe(recordedVersion);
    expect(ANSWER_KEYS).toBe(`answer:v${STORED_ANSWER_VERSION}:`);
  });

  it('records each version once, each with a shape of its own, in the order they came', () => {
    const versions = STORED_SHAPES.map(([version]) => version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(new Set(STORED_SHAPES.map(([, shape]) => shape)).size).toBe(STORED_SHAPES.length);
  });
});

describe('typeShape, which the version is checked against', () => {
  /** The shape of `Answer` declared by each source, each in a file of its own. */
  const shapesOf = (...sources: string[]): string[] => {
    const folder = temporaryDirectory('type-shape-');
    const files = sources.map((source, index) => {
      const file = path.join(folder, `answer-${index}.ts`);
      writeFileSync(file, source);
      return file;
    });
    return typeShapes(files, 'Answer');
  };
  const base = `
    export interface Item { title: string; rank: number; tags?: string[]; extra?: Record<string, string | null> }
    export interface Answer { items: Item[]; status: 'ok' | 'error'; partial?: true }`;

  it('is the same for the same fields, whatever their order, comments and the names of the types holding them', () => {
    const reordered = `
      /** A result. */
      interface Entry { extra?: Record<string, null | string>; tags?: string[]; rank: number; title: string }
      // The answer.
      export type Answer = { partial?: true; status: 'error' | 'ok'; items: Entry[]; describe(): string };`;
    const [baseShape, reorderedShape] = shapesOf(base, reordered);
    expect(baseShape).toMatch(/^\{ items: \{ .*title: string/);
    expect(reorderedShape).toBe(baseShape);
  });

  it('tells apart a field added, dropped, renamed, made optional or retyped, however deep it lies', () => {
    const variants = [
      base.replace('rank: number;', 'rank: number; year: number;'),
      base.replace('rank: number;', ''),
      base.replace('rank: number;', 'position: number;'),
      base.replace('rank: number;', 'rank?: number;'),
      base.replace('rank: number;', 'rank: string;'),
      base.replace('tags?: string[]', 'tags?: string'),
      base.replace('string | null', 'string'),
      base.replace("'ok' | 'error'", "'ok' | 'error' | 'skipped'"),
      base.replace('partial?: true', 'partial?: boolean'),
    ];
    expect(new Set(shapesOf(base, ...variants)).size).toBe(variants.length + 1);
  });
});
