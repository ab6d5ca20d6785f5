import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { providerOutcomeOutput, searchResponseOutput } from '../../src/operations/output-schemas.js';

/**
 * README.md shows what a search answers, and what its stream sends, as a reader will see it. They are written by
 * hand; here they are read with the schemas the answers are checked against (strict: no field they lack), so a
 * field renamed or added in the code, or misspelt in the README, fails until the example says the same.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The text of the first fenced block of `language` whose text starts with `opening`. */
function block(language: string, opening: string): string {
  const fence = `\`\`\`${language}\n${opening}`;
  const start = readme.indexOf(fence);
  if (start < 0) throw new Error(`no ${language} block starting ${JSON.stringify(opening)} in README.md`);
  const body = readme.slice(start + fence.length - opening.length);
  return body.slice(0, body.indexOf('\n```'));
}

describe("README.md's example answers", () => {
  it('the search answer is one a search gives, field for field', () => {
    const example: unknown = JSON.parse(block('json', '{\n  "query"'));
    expect(searchResponseOutput.safeParse(example).error?.issues ?? []).toEqual([]);
  });

  it("the stream's provider events carry a provider's outcome as a search's answer lists it", () => {
    const stream = block('text', ': fedsearch search stream');
    const events = [...stream.matchAll(/^event: provider\ndata: (.*)$/gm)].map(([, data]) => JSON.parse(data!) as unknown);
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const event of events) expect(providerOutcomeOutput.safeParse(event).error?.issues ?? []).toEqual([]);
  });
});
