import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeProviders } from '../../src/operations/routing.js';
import { startService, type RunningService } from '../support/service.js';

/** Auto routing chooses among providers that search: the captions source (kind video) never is one. */
describe('providers=auto for video', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ YOUTUBE_API_KEY: 'yt-key-1234567890', LOG_LEVEL: 'silent' });
  });
  afterAll(() => service.stop());

  it('routes to the video search provider, never to youtube_web', () => {
    const routing = routeProviders('video', 'cats playing piano', service.app.searchService);
    expect(routing.providers).toEqual(['youtube']);
  });
});
