import { describe, expect, it } from 'vitest';
import { YoutubeTranscriptProvider } from '../../src/providers/youtube-transcript.js';
import { makeProvider, response } from '../support/run-provider.js';

const captions = makeProvider(YoutubeTranscriptProvider) as YoutubeTranscriptProvider;
const track = (url: string) => ({ url, language: 'en', name: 'English', automatic: false });

describe('youtube captions adapter', () => {
  it('asks for the timed-text format it reads: a srv3 format in the page\'s track URL is dropped, the rest kept as it is', () => {
    expect(captions.buildTrackRequest(track('https://www.youtube.com/api/timedtext?v=abc&fmt=srv3&lang=en&signature=A%2CB')).url).toBe(
      'https://www.youtube.com/api/timedtext?v=abc&lang=en&signature=A%2CB',
    );
    expect(captions.buildTrackRequest(track('https://www.youtube.com/api/timedtext?v=abc&lang=en&fmt=srv3')).url).toBe(
      'https://www.youtube.com/api/timedtext?v=abc&lang=en',
    );
    expect(captions.buildTrackRequest(track('https://www.youtube.com/api/timedtext?v=abc&lang=en')).url).toBe(
      'https://www.youtube.com/api/timedtext?v=abc&lang=en',
    );
  });

  it('reads <transcript> timed text and refuses any other format as a parse error', () => {
    const transcript = '<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.5" dur="2">Hello &amp;amp; welcome</text><text start="61">on</text></transcript>';
    expect(captions.parseTranscript(response(transcript))).toEqual([
      { start: 0.5, duration: 2, text: 'Hello & welcome' },
      { start: 61, text: 'on' },
    ]);
    const srv3 = '<timedtext format="3"><body><p t="500" d="2000">Hello</p></body></timedtext>';
    expect(() => captions.parseTranscript(response(srv3))).toThrow(expect.objectContaining({ code: 'PROVIDER_PARSE' }));
  });
});
