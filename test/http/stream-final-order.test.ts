import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { SseReader } from '../support/sse-reader.js';

const KEYS = { BRAVE_API_KEY: 'brave-stream-key-0123456789', EXA_API_KEY: 'exa-stream-key-0123456789' };

type Fused = { results: Array<{ url: string; title: string; sources: unknown }>; done: number; total: number };

describe('GET /v1/search/web/stream: the last results event is the answer done gives', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ ...providerEnv(upstream.origin), ...KEYS, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('fuses the streamed answers in the providers order, not in the order they finished', async () => {
    // brave (asked first) answers last: ties between its results and exa's must still break as the plain answer breaks them.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    upstream.on('/brave/res/v1/web/search', {
      kind: 'handler',
      handle: (_request, response: ServerResponse) => {
        void released.then(() =>
          response.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ web: { results: [{ title: 'Brave title', url: 'https://shared.example/', description: 'b' }, { title: 'B2', url: 'https://brave.example/2', description: 'b' }] } }),
          ),
        );
      },
    });
    upstream.on('/exa/search', {
      kind: 'respond',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ results: [{ title: 'Exa title', url: 'https://shared.example/', highlights: ['e'] }, { title: 'E2', url: 'https://exa.example/2', highlights: ['e'] }] }),
    });
    const response = await fetch(`${service.origin}/v1/search/web/stream?q=tie+order&providers=brave,exa&limit=5`);
    const reader = new SseReader(response.body!);
    // exa's results first, then brave is let go.
    for (;;) {
      const event = await reader.nextEvent();
      if (event?.event === 'results') break;
    }
    release();
    const events = await reader.rest();
    const results = events.filter((event) => event.event === 'results').map((event) => event.data as Fused);
    const last = results.at(-1)!;
    expect(last).toMatchObject({ done: 2, total: 2 });
    const done = events.find((event) => event.event === 'done')!.data as Fused;
    expect(last.results).toEqual(done.results);
  });
});
