/** Tables and numbers as every part of `npm run bench` prints them. */

export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells.slice(1)) console.log(line(row));
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const format = (value: number, digits = 1): string => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
