import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { braveBody, connect, TRANSPORT_KINDS, type Connected } from './mcp-client.js';

const KEYS = { BRAVE_API_KEY: 'brave-progress-key-0123456789', EXA_API_KEY: 'exa-progress-key-0123456789' };

/** Exa's answer waits until the test releases it. */
function holdExa(upstream: FakeUpstream): { release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  upstream.on('/exa/search', {
    kind: 'handler',
    handle: (_request, response: ServerResponse) =>
      void released.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'Exa', url: 'https://exa.example/' }] }))),
  });
  return { release };
}

/** A tool call with onprogress; each notification is recorded and handed to `onEach` as it arrives. */
async function callWithProgress(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onEach: (progress: Progress) => void = () => undefined,
): Promise<{ result: CallToolResult; progress: Progress[] }> {
  const progress: Progress[] = [];
  const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
    onprogress: (update) => {
      progress.push(update);
      onEach(update);
    },
  })) as CallToolResult;
  return { result, progress };
}

describe.each(TRANSPORT_KINDS)('MCP progress over %s', (kind) => {
  let upstream: FakeUpstream;
  let split: RunningService;
  let compact: RunningService;
  let splitClient: Connected;
  let compactClient: Connected;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', JSON.parse(braveBody('https://brave.example/progress')));
    const env = { ...providerEnv(upstream.origin), ...KEYS, LOG_LEVEL: 'warn' };
    split = await startService({ ...env, MCP_TOOLS: 'split' });
    compact = await startService(env);
    splitClient = await connect(split.origin, kind);
    compactClient = await connect(compact.origin, kind);
  });
  afterAll(async () => {
    await splitClient.close();
    await compactClient.close();
    await split.stop();
    await compact.stop();
    await upstream.stop();
  });

  it('web_search reports each provider as it finishes, before its result', async () => {
    const exa = holdExa(upstream);
    const { result, progress } = await callWithProgress(
      splitClient.client,
      'web_search',
      { query: 'progress please', providers: ['brave', 'exa', 'tavily'] },
      // Exa answers only once brave's notification is here: a result sent first would never come.
      (update) => {
        if (update.message?.startsWith('brave ')) exa.release();
      },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.map((update) => [update.progress, update.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const messages = progress.map((update) => update.message ?? '');
    expect(messages.at(-1)).toMatch(/^exa ok \d+ ms$/);
    expect(messages).toContain('tavily not_configured');
    expect(messages.some((message) => /^brave ok \d+ ms$/.test(message))).toBe(true);
    expect(messages.indexOf('tavily not_configured')).toBeLessThan(messages.findIndex((message) => message.startsWith('exa ')));
  });

  it('the compact research tool reports paper_search progress, and a cached answer all at once', async () => {
    upstream.on('/arxiv/api/query', { kind: 'respond', status: 503, body: 'busy' });
    upstream.on('/crossref/works', { kind: 'respond', status: 404, body: 'none' });
    const args = { operation: 'paper_search', params: { query: 'progress of papers', providers: ['arxiv', 'crossref'], timeout_ms: 3000 } };
    const first = await callWithProgress(compactClient.client, 'research', args);
    // Answered, with each provider's outcome; a failed tool call, since neither provider answered.
    expect(first.result.isError).toBe(true);
    expect(first.result.structuredContent).toMatchObject({ results: [], providers: [{ status: 'error' }, { status: 'error' }] });
    expect(first.progress.map((update) => update.progress)).toEqual([1, 2]);
    expect(first.progress.map((update) => update.message!.split(' ').slice(0, 2).join(' ')).sort()).toEqual(['arxiv error', 'crossref error']);
    // Nothing succeeded, so nothing was cached: make one provider answer, then ask twice.
    upstream.json('/crossref/works', { status: 'ok', message: { items: [{ DOI: '10.1000/progress', title: ['Progress'] }] } });
    const fresh = await callWithProgress(compactClient.client, 'research', { ...args, params: { ...args.params, query: 'cached progress' } });
    const cached = await callWithProgress(compactClient.client, 'research', { ...args, params: { ...args.params, query: 'cached progress' } });
    expect((fresh.result.structuredContent as { cached: boolean }).cached).toBe(false);
    expect((cached.result.structuredContent as { cached: boolean }).cached).toBe(true);
    // A cached answer has no providers finishing: it reports each of them at once, with the latency it had.
    expect(cached.progress.map((update) => [update.progress, update.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(cached.progress.map((update) => update.message).sort()).toEqual(fresh.progress.map((update) => update.message).sort());
  });

  it('auto_research counts the providers of every search it plans', async () => {
    upstream.on('/*', { kind: 'respond', status: 404, body: 'none' });
    const exa = holdExa(upstream);
    exa.release();
    const { result, progress } = await callWithProgress(splitClient.client, 'auto_research', { query: 'transformer paper arxiv citations', depth: 1 });
    expect(result.isError).toBeFalsy();
    const sections = (result.structuredContent as { sections: Array<{ operation: string; output?: { providers?: unknown[] } }> }).sections;
    const searched = sections.filter((section) => section.operation.endsWith('_search'));
    expect(searched.map((section) => section.operation).sort()).toEqual(['paper_search', 'web_search']);
    const asked = searched.reduce((sum, section) => sum + (section.output?.providers?.length ?? 0), 0);
    expect(progress.map((update) => update.progress)).toEqual(Array.from({ length: asked }, (_, index) => index + 1));
    expect(progress.at(-1)!.total).toBe(asked);
  });
});
