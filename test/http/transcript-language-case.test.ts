import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const VIDEO = 'abcDEF12345';

/**
 * youtube_transcript's `language` is a language tag as the search filters take it: in any letter case (BCP 47),
 * `PT-BR` being `pt-BR` and `ZH-HANS` being `zh-Hans`, so the track of that language is read.
 */
describe('youtube_transcript language in any letter case, over real HTTP', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // The watch page's player response, with only the fields the captions source reads; one track per language.
    const track = (code: string, name: string) => ({
      baseUrl: `${upstream.origin}/youtube_web/api/timedtext?v=${VIDEO}&lang=${code}`,
      languageCode: code,
      name: { simpleText: name },
    });
    const tracks = [track('en', 'English'), track('pt-BR', 'Portuguese (Brazil)'), track('zh-Hans', 'Chinese (Simplified)')];
    const lines: Record<string, string> = { en: 'Hello', 'pt-BR': 'Olá', 'zh-Hans': '你好' };
    upstream
      .on('/youtube_web/watch', {
        kind: 'handler',
        handle: (_recorded, response) => {
          const player = { playabilityStatus: { status: 'OK' }, captions: { playerCaptionsTracklistRenderer: { captionTracks: tracks } } };
          response.writeHead(200, { 'content-type': 'text/html' }).end(`<script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script>`);
        },
      })
      .on('/youtube_web/api/timedtext', {
        kind: 'handler',
        handle: (recorded, response) => {
          const text = lines[recorded.url.searchParams.get('lang') ?? ''] ?? '';
          response.writeHead(200, { 'content-type': 'text/xml' }).end(`<?xml version="1.0"?><transcript><text start="0" dur="2">${text}</text></transcript>`);
        },
      });
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it.each([
    ['PT-BR', 'pt-BR', 'Olá'],
    ['pt-br', 'pt-BR', 'Olá'],
    ['ZH-HANS', 'zh-Hans', '你好'],
    ['EN', 'en', 'Hello'],
  ])('takes %s and reads the %s track', async (asked, language, text) => {
    const response = await callOperation(service, 'youtube_transcript', { video: VIDEO, language: asked });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ video_id: VIDEO, language, text });
  });

  it('still refuses what is no language code, saying what is allowed', async () => {
    const response = await callOperation(service, 'youtube_transcript', { video: VIDEO, language: 'pt_BR' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'QUERY_INVALID' });
    expect(body.message).toContain('language: not a language code; allowed: a code such as en or pt-BR');
  });
});
