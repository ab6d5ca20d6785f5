import { afterEach, describe, expect, it } from 'vitest';
import { request, startService, type RunningService } from '../support/service.js';

type Line = Record<string, unknown> & { reqId?: string; msg?: string };

/** The fedsearch_ sample lines of a scrape, apart from histogram buckets (one per bound, as many as their series). */
async function seriesOf(service: RunningService): Promise<Map<string, number>> {
  const text = await (await request(service.origin, '/metrics')).text();
  const samples = text.split('\n').filter((line) => line.startsWith('fedsearch_') && !line.includes('_bucket{'));
  return new Map(samples.map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]));
}

/** The request series that appeared between two scrapes, the scrape of /metrics itself left out. */
function newSeries(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after.keys()].filter((series) => !before.has(series) && !series.includes('route="/metrics"'));
}

/**
 * Whatever a caller sends, the label values it can reach are a bounded set: an unknown path, method or provider
 * name must not become a series of its own, or each scanner's request would add one to every scrape for good.
 */
describe('the series callers can make', () => {
  const services: RunningService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop()));
  });

  it('stay the same few however many distinct paths, methods, routes and provider names are sent', async () => {
    const service = await startService({ LOCAL_WEIGHT: '1', LOG_LEVEL: 'silent' });
    services.push(service);
    // Every kind once, so the series they land in exist before the count is taken.
    const sendAll = async (index: number): Promise<void> => {
      for (const [method, path] of [
        ['GET', `/nowhere-${index}`],
        ['POST', `/v1/ops/no_such_operation_${index}`],
        ['GET', `/docs/missing-${index}`],
        ['GET', `/v1/search/web?q=rust&providers=made-up-${index}`],
        ['PROPFIND', `/v1/search/web?attempt=${index}`],
        ['GET', `/%zz-${index}`],
      ] as const) {
        await (await request(service.origin, path, { method })).arrayBuffer();
      }
    };
    await sendAll(0);
    const before = await seriesOf(service);
    for (let index = 1; index <= 30; index += 1) await sendAll(index);
    const after = await seriesOf(service);
    expect(newSeries(before, after)).toEqual([]);
    // Counted all the same, in the series they share.
    expect(after.get('fedsearch_http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(62);
    expect(after.get('fedsearch_http_requests_total{method="GET",route="unmatched",status_code="400"}')).toBe(31);
    expect(after.get('fedsearch_http_requests_total{method="GET",route="/v1/search/web",status_code="400"}')).toBe(31);
  });

  it('count a path the router cannot decode, and log it (keys redacted), with the request id its caller was given', async () => {
    const service = await startService({});
    services.push(service);
    const before = await seriesOf(service);
    const response = await request(service.origin, '/v1/search/%zz?api_key=caller-secret-0123456789', { headers: { 'x-request-id': 'id-bad-escape' } });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe('id-bad-escape');
    // helmet's headers too, as on every other answer.
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'QUERY_INVALID', request_id: 'id-bad-escape' });
    expect(body.message).toMatch(/%/);
    const after = await seriesOf(service);
    const labels = '{method="GET",route="unmatched",status_code="400"}';
    expect(newSeries(before, after)).toEqual([
      `fedsearch_http_requests_total${labels}`,
      `fedsearch_http_request_duration_seconds_sum${labels}`,
      `fedsearch_http_request_duration_seconds_count${labels}`,
    ]);
    expect(after.get('fedsearch_http_requests_total{method="GET",route="unmatched",status_code="400"}')).toBe(1);
    await service.stop();
    const lines = service.logs.map((line) => JSON.parse(line) as Line).filter((line) => line.reqId === 'id-bad-escape');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request completed', route: 'unmatched', req: expect.objectContaining({ method: 'GET', url: '/v1/search/%zz?api_key=[redacted]' }), res: { statusCode: 400 } }),
    ]);
    expect(JSON.stringify(service.logs)).not.toContain('caller-secret-0123456789');
  });
});
