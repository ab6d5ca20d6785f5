import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

const GUIDE = [
  '# Zebra crossing guide',
  '',
  'Zebras cross here. See [the notes](notes.txt) and `code`.',
  '',
  '```sh',
  'echo zebra',
  '```',
  '',
  ...Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} about crossings, long enough to need paging.`),
].join('\n');

function fetchUrl(service: RunningService, body: Record<string, unknown>) {
  return request(service.origin, '/v1/ops/fetch_url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** local:/// links in search results name documents of the embedded index; fetch_url reads them from it. */
describe('fetch_url on local:/// links', () => {
  let folder: string;
  let service: RunningService;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'fedsearch-local-'));
    mkdirSync(path.join(folder, 'sub dir'));
    writeFileSync(path.join(folder, 'sub dir', 'guide.md'), GUIDE);
    writeFileSync(
      path.join(folder, 'page.html'),
      '<html><head><title>Okapi page</title></head><body><article><h1>Okapi facts</h1><p>The okapi is a giraffid. ' +
        'It lives in the forests of central Africa and is rarely seen by anyone, which is why so little is known of it.</p></article></body></html>',
    );
    writeFileSync(path.join(folder, 'records.jsonl'), '{"title": "Aardvark", "text": "digs"}\n{"title": "Quokka record", "text": "The quokka smiles."}\n');
    writeFileSync(
      path.join(folder, 'wombats.jsonl'),
      ['Wombat diet', 'Wombat burrows', 'Wombat droppings'].map((title) => JSON.stringify({ title, text: `${title}: the wombat.` })).join('\n'),
    );
    // Two files whose names a URL would read alike: each is a document of its own, with a link of its own.
    writeFileSync(path.join(folder, 'pangolin notes.md'), '# Pangolin scales\n\nThe pangolin has scales.\n');
    writeFileSync(path.join(folder, 'pangolin%20notes.md'), '# Pangolin diet\n\nThe pangolin eats ants.\n');
    service = await startService({ LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function firstLocalLink(query: string): Promise<string> {
    const body = await (await request(service.origin, `/v1/search/web?q=${query}&providers=local`)).json();
    return body.results[0].url;
  }

  it('serves a Markdown document as its source, paged like any page', async () => {
    const link = await firstLocalLink('zebra');
    expect(link).toBe('local:///sub%20dir/guide.md');
    const first = await fetchUrl(service, { url: link, max_chars: 500 });
    expect(first.status).toBe(200);
    const page = await first.json();
    expect(page).toMatchObject({ url: link, engine: 'local', title: 'Zebra crossing guide', content_type: 'text/markdown', offset: 0, total_chars: GUIDE.length });
    expect(page.text).toBe(GUIDE.slice(0, 500));
    const second = await (await fetchUrl(service, { url: link, max_chars: 500, offset: page.next_offset })).json();
    expect(second.text).toBe(GUIDE.slice(500, 1000));
    // The same document, its link typed with the space as the file's name has it.
    const typed = await (await fetchUrl(service, { url: 'local:///sub dir/guide.md', max_chars: 500 })).json();
    expect(typed.text).toBe(page.text);
  });

  it('turns an HTML document into Markdown, and serves one record of a JSON Lines file', async () => {
    const html = await (await fetchUrl(service, { url: await firstLocalLink('okapi') })).json();
    expect(html).toMatchObject({ engine: 'local', title: 'Okapi page', content_type: 'text/html' });
    expect(html.text).toContain('The okapi is a giraffid.');
    expect(html.text).not.toContain('<p>');
    const link = await firstLocalLink('quokka');
    expect(link).toBe('local:///records.jsonl#2');
    expect(await (await fetchUrl(service, { url: link })).json()).toMatchObject({ title: 'Quokka record', text: 'The quokka smiles.' });
  });

  it('gives every matching record of a JSON Lines file as a result of its own', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=wombat&providers=local')).json();
    expect(body.providers[0]).toMatchObject({ status: 'ok', count: 3 });
    expect(body.results.map((result: { url: string }) => result.url).sort()).toEqual(['local:///wombats.jsonl#1', 'local:///wombats.jsonl#2', 'local:///wombats.jsonl#3']);
  });

  it('links two files whose names a URL would read alike apart, and serves each', async () => {
    const body = await (await request(service.origin, '/v1/search/web?q=pangolin&providers=local')).json();
    const links = Object.fromEntries(body.results.map((result: { title: string; url: string }) => [result.title, result.url]));
    expect(links).toEqual({ 'Pangolin scales': 'local:///pangolin%20notes.md', 'Pangolin diet': 'local:///pangolin%2520notes.md' });
    for (const [title, url] of Object.entries(links)) expect(await (await fetchUrl(service, { url })).json()).toMatchObject({ title });
  });

  it('answers 404 for a link the index did not give out, including one that climbs out of the folder', async () => {
    for (const url of ['local:///missing.md', 'local:///../../etc/passwd', 'local:///sub%20dir/../../records.jsonl']) {
      const response = await fetchUrl(service, { url });
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body.code).toBe('NOT_FOUND');
      expect(body.message).toContain('names no document in the embedded index (LOCAL_INDEX_DIR)');
    }
  });
});
