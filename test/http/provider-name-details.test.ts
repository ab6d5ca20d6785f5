import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Refusal = { code: string; message: string; details?: Array<{ field: string; message: string }> };

/**
 * A refused provider name is a refused field like any other: its 400 names the field in `details`, as schema
 * validation's do (`limit`, an unknown field), so a client that reads `details` to mark the field at fault finds it.
 * Its answers carried the message alone.
 */
describe('a refused provider name answers with the details of a refused field', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ LOCAL_WEIGHT: '1' });
  });
  afterAll(() => service.stop());

  async function refusal(path: string): Promise<Refusal> {
    const response = await request(service.origin, path);
    expect(response.status).toBe(400);
    return (await response.json()) as Refusal;
  }

  it.each([
    ['an unknown name', '/v1/search/web?q=rust&providers=local,made-up', /^unknown provider "made-up"; allowed for web: .*local/],
    ['a provider of another kind', '/v1/search/web?q=rust&providers=arxiv', /^"arxiv" serves papers, not web; allowed for web: .*local/],
    ['"auto" beside a name', '/v1/search/web?q=rust&providers=auto,local', /^"auto" chooses the providers itself, so it stands alone; allowed: "auto" by itself, or names of web providers: .*local/],
  ])('%s: details name the providers field, with the message after "providers: "', async (_label, path, problem) => {
    const body = await refusal(path);
    expect(body.code).toBe('QUERY_INVALID');
    expect(body.details).toEqual([{ field: 'providers', message: expect.stringMatching(problem) }]);
    expect(body.message).toBe(`providers: ${body.details![0]!.message}`);
  });

  it('has the shape of a schema validation refusal of another field', async () => {
    const validation = await refusal('/v1/search/web?q=rust&limit=0');
    const provider = await refusal('/v1/search/web?q=rust&providers=made-up');
    expect(validation.details?.map((problem) => Object.keys(problem).sort())).toEqual([['field', 'message']]);
    expect(provider.details?.map((problem) => Object.keys(problem).sort())).toEqual([['field', 'message']]);
    expect(validation.message).toBe(`${validation.details![0]!.field}: ${validation.details![0]!.message}`);
  });
});
