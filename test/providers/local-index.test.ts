import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, LocalProvider, snippetAround } from '../../src/providers/local.js';
import type { Provider } from '../../src/providers/provider.js';
import { makeProvider, makeQuery, runProvider } from '../support/run-provider.js';

describe('the embedded index over a folder', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-index-'));
    writeFileSync(path.join(folder, 'readable.md'), '# Capybara\n\nThe capybara is a rodent.\n');
    writeFileSync(path.join(folder, 'unreadable.md'), '# Capybara too\n\nNever read.\n');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('leaves out a file it cannot read, not the whole index', async () => {
    // Tests run as root, whom no file mode stops: the read fails as EACCES would for the service's own user.
    const read = (file: string): Promise<string> =>
      path.basename(file) === 'unreadable.md' ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) : readFile(file, 'utf8');
    const index = await buildIndex(folder, read);
    expect([...index.documents.values()].map((document) => document.url)).toEqual(['local:///readable.md']);
    expect(index.search.search('capybara').map((hit) => index.documents.get(hit.id as number)?.title)).toEqual(['Capybara']);
  });
});

describe('Markdown files in the embedded index', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-markdown-'));
    writeFileSync(
      path.join(folder, 'guide.md'),
      [
        '# The `per-provider` guide',
        '',
        'Released 2026-11-26: a **well-kept** [service](https://example.org/docs) for snake_case names.',
        '',
        '- first point',
        '  1. nested step',
        '> quoted *words*',
        '',
        '| setting | default |',
        '| --- | ---: |',
        '| `READ_CACHE_TTL_SECONDS` | 600 |',
        '',
        '```sh',
        'npm ci && npm start',
        '```',
        '',
        '---',
        'Sections ## end here, C# stays.',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads as its words: syntax goes, hyphens, underscores and code stay', async () => {
    const index = await buildIndex(folder);
    const [document] = [...index.documents.values()];
    expect(document?.title).toBe('The per-provider guide');
    // The heading is the title, not the text's first words: a snippet near the top does not repeat it.
    expect(document?.text).toBe(
      'Released 2026-11-26: a well-kept service for snake_case names. first point nested step ' +
        'quoted words setting default READ_CACHE_TTL_SECONDS 600 npm ci && npm start Sections end here, C# stays.',
    );
    expect(index.search.search('npm start').map((hit) => hit.id)).toEqual([document?.id]);
  });
});

describe('snippets of the embedded index', () => {
  const words = (count: number, from = 0): string => Array.from({ length: count }, (_, index) => `word${from + index}`).join(' ');

  it('begin and end on whole words around the match, with an ellipsis where text was left out', () => {
    // The window would begin 80 characters before the match and end 240 after its start: both inside a word here.
    const text = `${words(40)} capybara ${words(60, 40)}`;
    const snippet = snippetAround(text, ['capybara'])!;
    expect(snippet).toContain('capybara');
    expect(snippet.startsWith('…word')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    const shown = snippet.slice(1, -1).split(' ');
    const allWords = new Set(text.split(' '));
    // Every word shown is a whole word of the text: none cut at either end.
    for (const word of shown) expect(allWords.has(word), word).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(242);
  });

  it('keeps the start of a short text and the match itself whole', () => {
    expect(snippetAround('The capybara is a rodent.', ['capybara'])).toBe('The capybara is a rodent.');
    const long = `capybara${'x'.repeat(300)} tail`;
    expect(snippetAround(long, ['capybara'])!.startsWith('capybara')).toBe(true);
  });
});

describe('a JSON record without a title in the embedded index', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-untitled-'));
    // An emoji across the 80th and 81st UTF-16 units, where the title taken from the text is cut.
    writeFileSync(path.join(folder, 'notes.json'), JSON.stringify({ text: `${'a'.repeat(79)}😀 and the rest of the note` }));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is titled by the start of its text, cut between whole characters and marked as cut', async () => {
    const index = await buildIndex(folder);
    const [document] = [...index.documents.values()];
    expect(document?.title.startsWith('a'.repeat(79))).toBe(true);
    expect(document?.title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(document?.title.endsWith('…')).toBe(true);
    expect(document?.title.length).toBeLessThanOrEqual(80);
  });
});

describe('excluded terms in a search of the embedded index', () => {
  let folder: string;
  let provider: Provider;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-excluded-'));
    writeFileSync(path.join(folder, 'vision.md'), '# Transformers for vision\n\nA transformer reads image patches.\n');
    writeFileSync(path.join(folder, 'language.md'), '# Transformers for language\n\nA transformer reads tokens.\n');
    writeFileSync(path.join(folder, 'revision.md'), '# Transformer revision history\n\nEach image of the transformer, with its patches.\n');
    writeFileSync(path.join(folder, 'commit.md'), '# Committing\n\nRun git commit -m with a message.\n');
    writeFileSync(path.join(folder, 'rebase.md'), '# Rebasing\n\nRun git commit -m, then git rebase onto main.\n');
    provider = makeProvider(LocalProvider, { LOCAL_INDEX_DIR: folder });
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const titles = async (text: string): Promise<string[]> => (await runProvider(provider, makeQuery(text))).map((item) => item.title).sort();

  it('leaves out the documents holding a -word, rather than ranking them first for it', async () => {
    expect(await titles('transformer -vision')).toEqual(['Transformer revision history', 'Transformers for language']);
  });

  it('leaves out those holding every word of a -"phrase", and keeps a hyphen inside a word a word', async () => {
    expect(await titles('transformer -"image patches"')).toEqual(['Transformers for language']);
    expect(await titles('self-attention transformer')).toEqual(['Transformer revision history', 'Transformers for language', 'Transformers for vision']);
  });

  it('keeps the words before an excluded term alternatives, as a search without one has them', async () => {
    // Read as `git AND_NOT commit AND_NOT rebase`, no document about committing would be left.
    expect(await titles('git commit -rebase')).toEqual(['Committing']);
    expect(await titles('transformer tokens -vision')).toEqual(['Transformer revision history', 'Transformers for language']);
  });

  it('leaves out the documents holding a term after an upper-case NOT, wherever it is, as for a -word', async () => {
    // Read as words, NOT vision would rank "Transformers for vision" among the rest.
    expect(await titles('transformer NOT vision')).toEqual(['Transformer revision history', 'Transformers for language']);
    expect(await titles('git commit AND NOT rebase')).toEqual(['Committing']);
    expect(await titles('transformer NOT "image patches"')).toEqual(['Transformers for language']);
  });

  it('leaves out the documents holding any word of NOT (a OR b)', async () => {
    expect(await titles('transformer NOT (vision OR revision)')).toEqual(['Transformers for language']);
  });

  it('leaves out the documents holding the words of a NOT that opens a group, or of groups nested in an excluded one', async () => {
    // Inside the group the NOT was missed, and `vision` was one more word to find.
    expect(await titles('transformer (NOT (vision OR revision))')).toEqual(['Transformers for language']);
    expect(await titles('transformer -(tokens OR (vision OR (revision)))')).toEqual([]);
    expect(await titles('transformer NOT (vision OR (revision OR (history)))')).toEqual(['Transformers for language']);
  });

  it('reads a NOT that starts a query written in capitals as a word, and one between its words as the operator', async () => {
    // Read as the operator, NOT TOKENS left out the one document about tokens.
    expect(await titles('NOT TOKENS TRANSFORMER')).toEqual(['Transformer revision history', 'Transformers for language', 'Transformers for vision']);
    expect(await titles('TRANSFORMER NOT TOKENS')).toEqual(['Transformer revision history', 'Transformers for vision']);
  });

  it('reads a - inside a quoted phrase as part of it, not as an excluded word', async () => {
    // Read as `-m`, every document with "-m" in it would be left out: both of these.
    expect(await titles('"git commit -m" -rebase')).toEqual(['Committing']);
  });
});
