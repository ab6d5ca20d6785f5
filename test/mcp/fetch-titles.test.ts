import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSite } from '../fetch/loopback-site.js';
import { startService, type RunningService } from '../support/service.js';
import { callTool, connect, textOf, type Connected } from './mcp-client.js';

/** The first line a model reads of fetch_url is the document's title: a feed's own, a <title>'s entities decoded once. */
describe('fetch_url over MCP opens with the title a reader sees', () => {
  const site = new LoopbackSite();
  let service: RunningService;
  let connected: Connected;

  beforeAll(async () => {
    await site.start();
    site
      .serve(
        '/feed.rss',
        'application/rss+xml',
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Tom &amp; Jerry news</title><item><title>First episode</title></item></channel></rss>',
      )
      .serve(
        '/entity-page',
        'text/html; charset=utf-8',
        `<html><head><title>How to write &amp;amp; in an HTML page</title></head><body><article><p>${'A page about character references. '.repeat(12)}</p></article></body></html>`,
      );
    service = await startService({ FETCH_ALLOW_PRIVATE: 'true', MCP_TOOLS: 'split', LOG_LEVEL: 'silent' });
    connected = await connect(service.origin, 'streamable');
  });
  afterAll(async () => {
    await connected.close();
    await service.stop();
    await site.stop();
  });

  it.each([
    ['/feed.rss', 'Tom & Jerry news'],
    ['/entity-page', 'How to write &amp; in an HTML page'],
  ])('titles %s "%s"', async (path, title) => {
    const result = await callTool(connected.client, 'fetch_url', { url: `${site.origin}${path}` });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(textOf(result).split('\n')[0]).toBe(title);
  });
});
