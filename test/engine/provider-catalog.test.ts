import { describe, expect, it } from 'vitest';
import { ProviderCatalog } from '../../src/engine/provider-catalog.js';
import { YoutubeProvider } from '../../src/providers/youtube.js';
import { YoutubeTranscriptProvider } from '../../src/providers/youtube-transcript.js';
import { makeProvider } from '../support/run-provider.js';

const breaker = { failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 1000 };

describe('a provider that does not search (the captions source)', () => {
  const catalog = new ProviderCatalog(
    [makeProvider(YoutubeProvider, { YOUTUBE_API_KEY: 'yt-key-1234567890' }), makeProvider(YoutubeTranscriptProvider)],
    breaker,
  );

  it('is listed with its kind and health', () => {
    expect(catalog.describe().map((provider) => [provider.name, provider.kind, provider.health.state])).toEqual([
      ['youtube', 'video', 'closed'],
      ['youtube_web', 'video', 'closed'],
    ]);
    expect(catalog.circuitStates().map((entry) => entry.provider)).toEqual(['youtube', 'youtube_web']);
  });

  it('is never among the providers a search of its kind asks, by default or by auto routing', () => {
    expect(catalog.selectProviders('video', undefined).map((provider) => provider.name)).toEqual(['youtube']);
    expect(catalog.providerNames('video')).toEqual(['youtube']);
    expect(catalog.providerNames()).toEqual(['youtube', 'youtube_web']);
  });

  it('hands each search its own list of default providers, which the caller may change', () => {
    const first = catalog.selectProviders('video', undefined);
    first.pop();
    expect(catalog.selectProviders('video', undefined).map((provider) => provider.name)).toEqual(['youtube']);
  });

  it('is a 400 that says why when a search names it', () => {
    expect(() => catalog.selectProviders('video', ['youtube_web'])).toThrow(
      expect.objectContaining({
        code: 'QUERY_INVALID',
        message: 'providers: "youtube_web" does not search (YouTube watch pages and timed text, for a video\'s captions.); allowed for video: youtube',
      }),
    );
  });
});
