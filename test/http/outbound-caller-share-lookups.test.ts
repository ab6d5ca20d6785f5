import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalPdf } from '../fetch/minimal-pdf.js';
import { expectSlotEach } from '../support/arrivals.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, request, startService, type RunningService } from '../support/service.js';

const KEY_A = 'lookup-caller-a-0123456789';
const KEY_B = 'lookup-caller-b-0123456789';
const VIDEOS_PATH = '/youtube/youtube/v3/videos';
const videos = readFileSync(new URL('../fixtures/youtube/videos.json', import.meta.url), 'utf8');
const ARXIV_ID = '2401.00099';
const pdf = minimalPdf({ lines: ['The body of the tiny paper.'] });

/** Starts `count` calls at once; `refused` settles when the first of them is answered with `refusal`. */
function burst<T extends { status: number }>(count: number, call: () => Promise<T>, refusal: (answer: T) => boolean) {
  let heardRefusal!: () => void;
  const refused = new Promise<void>((resolve) => (heardRefusal = resolve));
  const answers = Promise.all(
    Array.from({ length: count }, () =>
      call().then((answer) => {
        if (refusal(answer)) heardRefusal();
        return answer;
      }),
    ),
  );
  return { refused, answers };
}

/**
 * A single-provider call (youtube_video_details) under an outbound rate limit counts for the caller that asked, as a
 * search does: its slots are shared between callers, not handed out first come, first served.
 */
describe('youtube_video_details under YOUTUBE_RATE_LIMIT=1/s, shared between callers', () => {
  let upstream: FakeUpstream | undefined;
  let service: RunningService | undefined;

  afterEach(async () => {
    await service?.stop();
    await upstream?.stop();
    service = undefined;
    upstream = undefined;
  });

  it("gives a second caller's first call a slot the first caller held past its share", async () => {
    upstream = await startFakeUpstream();
    const arrivals: number[] = [];
    upstream.on(VIDEOS_PATH, {
      kind: 'handler',
      handle: (_request, response) => {
        arrivals.push(performance.now());
        response.writeHead(200, { 'content-type': 'application/json' }).end(videos);
      },
    });
    const running = await startService({
      ...providerEnv(upstream.origin),
      YOUTUBE_API_KEY: 'youtube-key-0123456789',
      YOUTUBE_RATE_LIMIT: '1/s',
      API_KEYS: `${KEY_A},${KEY_B}`,
      LOG_LEVEL: 'silent',
    });
    service = running;
    const details = (key: string, timeoutMs: number) =>
      request(running.origin, '/v1/ops/youtube_video_details', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ ids: ['abcDEF12345'], timeout_ms: timeoutMs }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));

    // A alone: its burst takes every slot before its 4 s deadline, as a lone caller may; the rest are refused at once.
    const since = performance.now();
    const ofA = burst(10, () => details(KEY_A, 4000), (answer) => answer.status === 503);
    await ofA.refused;
    // B's first call, with a 3 s deadline, finds no slot of its own before it; A holds more than its share of them
    // (half), and the first past its share goes to B. Counted for no caller, B's call was refused as A's are.
    const ofB = await details(KEY_B, 3000);
    expect(ofB.status).toBe(200);
    const fromA = await ofA.answers;
    const refusals = fromA.filter((answer) => answer.status === 503);
    expect(refusals.every((answer) => answer.body.code === 'OUTBOUND_RATE_LIMITED')).toBe(true);
    expect(refusals.some((answer) => /this caller already has its share/.test(answer.body.message))).toBe(true);
    // Nothing more was sent for it: every request a slot of its own, none sent before its slot could start.
    expectSlotEach(arrivals, since, 1000);
    const answered = fromA.filter((answer) => answer.status === 200).length + 1;
    expect(arrivals.length).toBeGreaterThanOrEqual(answered);
    expect(arrivals.length).toBeLessThanOrEqual(answered + fromA.filter((answer) => answer.status === 504).length);
  });

  it("counts GET /v1/papers/download's lookups for its caller: a burst of them gives up a slot to another caller", async () => {
    upstream = await startFakeUpstream();
    const arrivals: number[] = [];
    const origin = upstream.origin;
    upstream.on('/arxiv/api/query', {
      kind: 'handler',
      handle: (_request, response) => {
        arrivals.push(performance.now());
        response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(
          `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">` +
            `<entry><id>http://arxiv.org/abs/${ARXIV_ID}v1</id><title>A Tiny Paper</title><summary>Tiny.</summary>` +
            `<published>2024-01-05T00:00:00Z</published><author><name>Ada Lovelace</name></author>` +
            `<link title="pdf" href="${origin}/files/tiny.pdf" rel="related" type="application/pdf"/></entry></feed>`,
        );
      },
    });
    upstream.on('/files/tiny.pdf', {
      kind: 'handler',
      handle: (_request, response) => response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf),
    });
    const running = await startService({
      ...providerEnv(upstream.origin),
      ARXIV_RATE_LIMIT: '1/s',
      // The download takes no timeout_ms: its lookup's deadline is arXiv's own timeout.
      ARXIV_TIMEOUT_MS: '4000',
      FETCH_ALLOW_PRIVATE: 'true',
      API_KEYS: `${KEY_A},${KEY_B}`,
      LOG_LEVEL: 'silent',
    });
    service = running;
    const download = () =>
      request(running.origin, `/v1/papers/download?id=arXiv:${ARXIV_ID}`, { headers: { authorization: `Bearer ${KEY_A}` } }).then(async (response) => ({
        status: response.status,
        body: await response.arrayBuffer(),
      }));

    // A's downloads, alone, take every arXiv slot before their 4 s deadline; the rest are refused at once.
    const since = performance.now();
    const ofA = burst(10, download, (answer) => answer.status !== 200);
    await ofA.refused;
    // B looks the paper up with a 3 s deadline and finds no slot of its own before it: A's lookups, counted for A,
    // hold more than A's share of them, and the first past it goes to B. Counted for no caller, they held theirs.
    const ofB = await request(running.origin, '/v1/ops/paper_details', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY_B}` },
      body: JSON.stringify({ id: `arXiv:${ARXIV_ID}`, timeout_ms: 3000 }),
    });
    const details = await ofB.json();
    expect(ofB.status).toBe(200);
    expect(details.providers.find((outcome: { provider: string }) => outcome.provider === 'arxiv')).toMatchObject({ status: 'ok' });
    const fromA = await ofA.answers;
    expect(fromA.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    expectSlotEach(arrivals, since, 1000);
  });
});
