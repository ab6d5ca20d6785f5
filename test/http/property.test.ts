import fc from 'fast-check';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { providerEnv, startService, type RunningService } from '../support/service.js';

/** Statuses a client may get for anything it sends; a 5xx means the input found a crash. */
const ALLOWED_STATUSES = [200, 400, 404, 413, 415];
const RUNS = 150;
const REQUEST_TIMEOUT_MS = 8000;
/** Shrinking re-sends requests; the time limit keeps a failure reported (with its seed) rather than timed out. */
const PARAMETERS = { numRuns: RUNS, interruptAfterTimeLimit: 20_000 };

const braveBody = JSON.stringify({
  type: 'search',
  web: { type: 'search', results: [{ title: 'Brave 1', url: 'https://brave.example/1', description: 'a result' }] },
});

interface Reply {
  status: number;
  body: string;
}

/**
 * One connection per request: a request line the HTTP parser rejects (raw bytes above 0x7F) gets Node's
 * 400 and a closed socket, which a keep-alive pool would hand to the next request as a "socket hang up".
 */
const agent = new Agent({ keepAlive: false });

/**
 * node:http rather than fetch, so the request line goes out byte for byte as generated: fetch would
 * re-encode the URL and hide exactly the odd inputs this file is after.
 */
function send(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Reply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ agent, host: hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    // A hang is a failure too, reported with the input that caused it rather than as a test timeout.
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// ---- query strings -------------------------------------------------------------------------------------

const FIELD_NAMES = ['q', 'providers', 'limit', 'timeout_ms', 'explain'];
const PROVIDER_NAMES = ['local', 'brave', 'tavily', 'exa', 'searxng', 'wikipedia', 'arxiv', 'pubmed', 'semanticscholar'];

/** Characters Node lets into a request line as they are (0x21–0xFF): `&`, `=`, `%`, `#`, `+` and raw Latin-1 bytes. */
const rawCharacter = fc.integer({ min: 0x21, max: 0xff }).map((code) => String.fromCharCode(code));
const percentBytes = fc
  .array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 })
  .map((bytes) => bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''));
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('1e3', '0x10', '010', '-0', ' 5', '5 ', '', '1_000', '10.0', '١٠'),
);
const providerList = fc
  .tuple(fc.array(fc.oneof(fc.constantFrom(...PROVIDER_NAMES), fc.string({ maxLength: 12 })), { maxLength: 25 }), fc.constantFrom(',', ', ', ',,'))
  .map(([names, separator]) => names.join(separator));

const encodedValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  // Around q's 500-character limit; ASCII so that eight of them still fit Node's 16 KiB request head.
  fc.string({ unit: 'grapheme-ascii', minLength: 480, maxLength: 520 }).map(encodeURIComponent),
  fc.string({ unit: rawCharacter, maxLength: 40 }),
  percentBytes,
  numberText.map(encodeURIComponent),
  providerList.map(encodeURIComponent),
  fc.constantFrom('true', 'false', '1', '0', 'yes', 'TRUE', 'null', 'undefined', '[]', '{}', '%', '%%', '%zz', '%00', '+', '%2C'),
);
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('q[]', 'q[0]', 'providers[]', 'limit[a]', '__proto__', 'constructor', 'toString', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: rawCharacter, maxLength: 6 }) },
);
/** `k=v`, a bare `k`, or `k=`; the same key may come back (arrays via repeated keys). */
const parameter = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, encodedValue).map(([name, value]) => `${name}=${value}`) },
  { weight: 1, arbitrary: key },
  { weight: 1, arbitrary: key.map((name) => `${name}=`) },
);
const queryString = fc.oneof(
  // Mostly a real-looking search with noise around it, so the valid path is exercised too.
  fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), fc.array(parameter, { maxLength: 6 })).map(
    ([q, rest]) => [`q=${encodeURIComponent(q)}`, ...rest].join('&'),
  ),
  fc.array(parameter, { maxLength: 8 }).map((parts) => parts.join('&')),
  fc.tuple(fc.array(parameter, { maxLength: 8 }), fc.constantFrom('&&', ';', '&')).map(([parts, separator]) => parts.join(separator)),
);

// ---- JSON bodies ---------------------------------------------------------------------------------------

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 490, maxLength: 520 }),
  numberText,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e300, '', ' ', [], {}, [''], ['brave'], 'brave,arxiv', ['local', 'local']),
  fc.array(fc.constantFrom(...PROVIDER_NAMES, '', ' ', 'nope'), { maxLength: 25 }),
);

function objectWithFields(fields: string[]) {
  const record = Object.fromEntries(fields.map((field) => [field, anyValue]));
  return fc
    .tuple(fc.record(record, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }))
    .map(([known, extra]) => ({ ...extra, ...known }));
}

/** Bodies as bytes: JSON of every shape, the real fields with wrong types, text that is not JSON, and too much of it. */
function bodyFor(fields: string[]) {
  return fc.oneof(
    { weight: 4, arbitrary: objectWithFields(fields).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"q": "a",', 'null', '[]', '{"__proto__": {"q": "x"}}', '{"q": "\\ud800"}', '{"q":"a","q":"b"}') },
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ [fields[0]!]: 'x'.repeat(300 * 1024) })) },
  );
}
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
      'application/JSON',
      'json',
      '',
    ),
  },
);

// ---- the properties ------------------------------------------------------------------------------------

describe('no input yields a 5xx', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.json('/brave/res/v1/web/search', braveBody);
    service = await startService({ ...providerEnv(upstream.origin), BRAVE_API_KEY: 'brave-property-key', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service?.stop();
    await upstream?.stop();
    agent.destroy();
  });

  function expectHandled(reply: Reply, what: string): void {
    if (!ALLOWED_STATUSES.includes(reply.status)) {
      throw new Error(`${what} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    }
    const body = JSON.parse(reply.body) as { results?: unknown; statusCode?: unknown };
    if (reply.status === 200) expect(Array.isArray(body.results)).toBe(true);
    // Errors are JSON that repeat their status (the HTTP parser's own 400s carry no `code`, the app's do).
    else expect(body.statusCode).toBe(reply.status);
  }

  it('GET /v1/search/{web,papers} with any query string', { timeout: 60_000 }, async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/search/web', '/v1/search/papers'), queryString, async (path, query) => {
        const target = `${path}?${query}`;
        const reply = await send(service.origin, 'GET', target);
        statuses.add(reply.status);
        expectHandled(reply, `GET ${target}`);
      }),
      PARAMETERS,
    );
    // The generators reach both the search itself and the validation that turns input away.
    expect(statuses).toContain(200);
    expect(statuses).toContain(400);
  });

  it('POST /v1/search/{web,papers} with any body', { timeout: 60_000 }, async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/search/web', '/v1/search/papers'),
        bodyFor(['q', 'providers', 'limit', 'timeout_ms', 'explain']),
        contentType,
        async (path, body, type) => {
          const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
          const reply = await send(service.origin, 'POST', path, headers, Buffer.from(body, 'utf8'));
          statuses.add(reply.status);
          expectHandled(reply, `POST ${path} (${type}) ${body.slice(0, 200)}`);
        },
      ),
      PARAMETERS,
    );
    expect(statuses).toContain(400);
    expect(statuses).toContain(413);
  });

  it('POST /v1/ops/{web_search,paper_search} with any body', { timeout: 60_000 }, async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/ops/web_search', '/v1/ops/paper_search'),
        bodyFor(['query', 'providers', 'max_results', 'timeout_ms']),
        contentType,
        async (path, body, type) => {
          const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
          const reply = await send(service.origin, 'POST', path, headers, Buffer.from(body, 'utf8'));
          statuses.add(reply.status);
          expectHandled(reply, `POST ${path} (${type}) ${body.slice(0, 200)}`);
        },
      ),
      PARAMETERS,
    );
    expect(statuses).toContain(400);
  });

  it('answers a valid search alongside the fuzzing (the service is still healthy)', async () => {
    const reply = await send(service.origin, 'GET', '/v1/search/web?q=after+fuzzing&providers=brave');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).results[0].url).toBe('https://brave.example/1');
    expect(service.logs.join('\n')).not.toMatch(/"level":50/);
  });
});
