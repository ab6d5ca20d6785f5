import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const KEYS = { BRAVE_API_KEY: 'brave-stream-key-0123456789', EXA_API_KEY: 'exa-stream-key-0123456789' };

type Fused = { results: Array<{ url: string }>; done: number; total: number };

describe('GET /v1/search/web/stream?page=2', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // brave weighs a little more, so that no two results tie, whichever provider answers first.
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, BRAVE_WEIGHT: '1.1', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('streams the page the plain answer gives: ranked as a caller paging from page 1 saw it', async () => {
    // Asked 3 deep for page 2 of limit 1, both providers' third result is the same: ranked at once it would lead and
    // page 2 would be a1, page 1's result. Page 1 (asked 2 deep) showed a1, and page 2 comes after it: a2.
    upstream.on('/brave/res/v1/web/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ web: { results: ['a1', 'a2', 'a3'].map((name) => ({ title: name, url: `https://a.example/${name}`, description: name })) } }),
    });
    upstream.on('/exa/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ results: ['https://b.example/b1', 'https://b.example/b2', 'https://a.example/a3'].map((url) => ({ title: url, url, highlights: ['x'] })) }),
    });
    const path = '/v1/search/web/stream?q=later+page&providers=brave,exa&limit=1&page=2';
    const response = await fetch(`${service.origin}${path}`);
    const events = await new SseReader(response.body!).rest();
    const last = events.filter((event) => event.event === 'results').map((event) => event.data as Fused).at(-1)!;
    // A results event comes only when the fused page changed: the last one is what the page ends as.
    const done = events.find((event) => event.event === 'done')!.data as Fused;
    expect(done.results.map((result) => result.url)).toEqual(['https://a.example/a2']);
    expect(last.results).toEqual(done.results);
  });
});
