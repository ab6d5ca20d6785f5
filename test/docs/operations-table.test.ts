import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../src/operations/registry.js';
import { tableRows } from '../support/markdown-table.js';

/**
 * README.md's table of operations is written by hand; these checks hold it to the registry, so a parameter
 * added to an operation (or an operation added) fails here until the table says so, and a parameter the
 * table names that the operation does not take (the 400 a caller would get) fails too.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const quoted = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The parameter names of a cell: its quoted words outside parentheses (which hold allowed values and ranges). */
const parameterNames = (cell: string): string[] => quoted(cell.replace(/\([^)]*\)/g, ''));

const rows = tableRows(readme, '| operation | parameters | what it does |').map(([operations, parameters]) => ({
  operations: quoted(operations!),
  parameters: parameters!,
}));

const rowOf = (name: string) => rows.find((row) => row.operations.includes(name));

interface ParameterSchema {
  minimum?: number;
  maximum?: number;
}

function inputProperties(name: string): Record<string, ParameterSchema> {
  const operation = OPERATIONS.find((candidate) => candidate.name === name)!;
  return (z.toJSONSchema(operation.input, { io: 'input' }) as { properties?: Record<string, ParameterSchema> }).properties ?? {};
}

describe('README.md operations table', () => {
  it('lists every operation of the registry, and no other', () => {
    expect(rows.flatMap((row) => row.operations).sort()).toEqual(OPERATIONS.map((operation) => operation.name).sort());
  });

  it.each(OPERATIONS.map((operation) => [operation.name] as const))('%s: its row names every parameter it takes', (name) => {
    const named = new Set(parameterNames(rowOf(name)!.parameters));
    expect(Object.keys(inputProperties(name)).filter((parameter) => !named.has(parameter))).toEqual([]);
  });

  it.each(rows.map((row) => [row.operations.join(', '), row] as const))('%s: its row names no parameter its operations do not take', (_names, row) => {
    const taken = new Set(row.operations.flatMap((name) => Object.keys(inputProperties(name))));
    expect(parameterNames(row.parameters).filter((parameter) => !taken.has(parameter))).toEqual([]);
  });

  it.each(
    rows.flatMap((row) =>
      [...row.parameters.matchAll(/`(\w+)` \((\d+)–(\d+)\)/g)].flatMap((match) =>
        row.operations.map((name) => [name, match[1]!, Number(match[2]), Number(match[3])] as const),
      ),
    ),
  )('%s: the documented range of %s, %d–%d, is the accepted one', (name, parameter, min, max) => {
    expect(inputProperties(name)[parameter]).toMatchObject({ minimum: min, maximum: max });
  });
});
