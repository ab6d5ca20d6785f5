import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Answer = { cached: boolean; results: Array<{ url: string }> };

/**
 * The answer cache keys a search's words spacing aside: a tab, a line break or any other white space between two words
 * is the same search as a space (cached-answer.ts). The embedded index must then read them so too: its tokenizer took
 * a tab for part of a word, so `walrus<tab>narwhal` found nothing, and whichever of the two spellings came first decided
 * the answer the other was served from the cache. A U+FEFF (a zero-width no-break space) is no space to the key: it
 * joins the letters around it for Unicode's word boundaries, as other providers read it. The embedded index still
 * breaks words there (a pasted one is nearly always a stray byte-order mark), and the answer is its own.
 */
describe('white space between the words of a search of the embedded index', () => {
  let folder: string;
  let service: RunningService;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-word-breaks-'));
    for (const animal of ['walrus', 'narwhal', 'otter', 'heron']) writeFileSync(path.join(folder, `${animal}.md`), `# Notes\n\nThe ${animal} was seen.\n`);
    service = await startService({ LOCAL_INDEX_DIR: folder, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const search = async (words: string): Promise<Answer> =>
    (await (await request(service.origin, `/v1/search/web?providers=local&q=${encodeURIComponent(words)}`)).json()) as Answer;
  const urls = (answer: Answer): string[] => answer.results.map((result) => result.url).sort();

  it.each([
    ['a tab', '\t', 'walrus', 'narwhal', true],
    ['a zero-width no-break space (U+FEFF)', '\ufeff', 'otter', 'heron', false],
  ])('finds both words with %s between them; the same words with a space share its answer: %s', async (_name, space, first, second, shared) => {
    const spaced = await search(`${first}${space}${second}`);
    expect(spaced.cached).toBe(false);
    expect(urls(spaced)).toEqual([`local:///${second}.md`, `local:///${first}.md`].sort());

    const plain = await search(`${first} ${second}`);
    expect(plain.cached).toBe(shared);
    expect(plain.results).toEqual(spaced.results);
  });
});
