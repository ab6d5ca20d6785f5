import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation, startService, type RunningService } from '../support/service.js';

interface RejectedLine {
  msg?: string;
  code?: string;
  message?: string;
}

/**
 * A field the schema does not know is named in the 400 (message and details) and in the `request rejected` log line.
 * Its name is the caller's: as long, and there may be as many, as BODY_LIMIT_BYTES allows.
 */
describe('unknown fields named in a 400', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ LOG_LEVEL: 'info' });
  });
  afterAll(() => service.stop());

  /** The `request rejected` lines whose message starts with `start`. */
  const rejectedLines = (start: string): RejectedLine[] =>
    service.logs.map((line) => JSON.parse(line) as RejectedLine).filter((line) => line.msg === 'request rejected' && line.message?.startsWith(start) === true);

  it('names a long field by its start, in the answer and in the log line', async () => {
    const name = `long-field-${'n'.repeat(100_000)}`;
    const response = await callOperation(service, 'web_search', { query: 'rust', [name]: 1 });
    const body = (await response.json()) as { code: string; message: string; details: { field: string; message: string }[] };

    expect(response.status).toBe(400);
    expect(body.code).toBe('QUERY_INVALID');
    const shown = `${name.slice(0, 100)}…`;
    expect(body.message).toMatch(new RegExp(`^${shown}: not a known field; allowed: query, `));
    expect(body.details).toEqual([{ field: shown, message: expect.stringMatching(/^not a known field; allowed: query, /) }]);
    const [line, ...others] = rejectedLines('long-field-');
    expect(others).toEqual([]);
    expect(line?.message).toBe(body.message);
    expect(service.logs.filter((logged) => logged.includes(name))).toEqual([]);
  });

  it('names the first ten of many fields and counts the rest', async () => {
    const fields = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`many-${index}`, index]));
    const response = await callOperation(service, 'web_search', { query: 'rust', ...fields });
    const body = (await response.json()) as { message: string };

    expect(response.status).toBe(400);
    const named = Array.from({ length: 10 }, (_, index) => `many-${index}`).join(', ');
    expect(body.message).toMatch(new RegExp(`^${named} and 4990 more: not known fields; allowed: query, `));
    expect(rejectedLines('many-0,').map((line) => line.message)).toEqual([body.message]);
  });
});
