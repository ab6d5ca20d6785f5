import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerEnv, startService, type RunningService } from '../support/service.js';
import { useFakeUpstream } from '../support/fake-upstream.js';

/**
 * A new user copies the documents' curl commands as they are. Each is run here against the real service, with
 * every provider but `local` pointed at a loopback fake that knows no route (so each fails, as without keys or
 * network): a renamed parameter, field, path or header in the code, or a typo in a document, fails here.
 */

const root = new URL('../../', import.meta.url);
const documents = ['README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:8080';

/** Every curl command of a document, continuation lines (a trailing `\`) joined. */
function curlCommands(markdown: string): string[] {
  const commands: string[] = [];
  let current: string | undefined;
  for (const line of markdown.split('\n')) {
    const text = line.trim();
    if (current === undefined && !text.startsWith('curl ')) continue;
    current = current === undefined ? text : `${current} ${text}`;
    if (current.endsWith('\\')) current = current.slice(0, -1).trimEnd();
    else {
      commands.push(current);
      current = undefined;
    }
  }
  return commands;
}

/** The words of a shell command line, with single and double quotes as a shell reads them (no expansions). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const [, single, double, bare] of command.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    words.push(single ?? double?.replace(/\\(.)/g, '$1') ?? bare!);
  }
  return words;
}

interface CurlRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The request a curl command sends; an option this reader does not know fails, rather than being passed over. */
function curlRequest(command: string): CurlRequest {
  const words = shellWords(command).slice(1);
  const request: CurlRequest = { url: '', method: 'GET', headers: {}, body: undefined };
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '-X') request.method = words[++index]!;
    else if (word === '-H') {
      const [name, ...value] = words[++index]!.split(':');
      request.headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') {
      request.body = words[++index]!;
      if (request.method === 'GET') request.method = 'POST';
    } else if (word === '-N' || word === '-s' || word === '-i') continue;
    else if (word.startsWith('http')) request.url = word;
    else throw new Error(`a curl option this test does not read: ${word} (in ${command})`);
  }
  return request;
}

const examples = documents.flatMap((document) => curlCommands(readFileSync(new URL(document, root), 'utf8')).map((command) => [document, command] as const));

describe('the curl examples of README.md and docs/', () => {
  const upstream = useFakeUpstream();
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(providerEnv(upstream.origin));
  });
  afterAll(() => service.stop());

  it('finds the examples (the quick start, searches, an operation, the providers, a stream)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
    expect(examples.map(([, command]) => curlRequest(command).url.split('?')[0])).toEqual(
      expect.arrayContaining([`${DOCUMENTED_ORIGIN}/v1/search/web`, `${DOCUMENTED_ORIGIN}/v1/ops/web_search`, `${DOCUMENTED_ORIGIN}/v1/providers`, `${DOCUMENTED_ORIGIN}/v1/search/web/stream`]),
    );
  });

  it.each(examples)('%s: %s answers 200 as written', async (_document, command) => {
    const { url, method, headers, body } = curlRequest(command);
    expect(url.startsWith(`${DOCUMENTED_ORIGIN}/`)).toBe(true);
    const response = await fetch(service.origin + url.slice(DOCUMENTED_ORIGIN.length), { method, headers, body });
    const text = await response.text();
    expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) expect(text).toMatch(/^event: done$/m);
    else expect(JSON.parse(text)).toBeTypeOf('object');
  });

  it("answers the quick start's search from the embedded index, with no keys and no network", async () => {
    const [, quickStart] = examples[0]!;
    const answer = (await (await fetch(service.origin + curlRequest(quickStart).url.slice(DOCUMENTED_ORIGIN.length))).json()) as {
      results: { sources: { provider: string }[] }[];
    };
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results[0]!.sources.map((source) => source.provider)).toContain('local');
  });
});
