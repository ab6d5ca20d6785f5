import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/logger.js';

const KEY = 'sk-upstream-key-0123456789abcdef';

type Line = { msg?: string; reqId?: string; err?: { type?: string; message?: string; stack?: string; [field: string]: unknown } };

/** A Fastify app with the service's logger options and `secrets`; GET /fails throws an error whose causes quote the key. */
async function appLogging(secrets: string[]): Promise<{ app: FastifyInstance; lines: Line[] }> {
  const lines: Line[] = [];
  const app = Fastify(loggerOptions('info', { write: (line) => lines.push(JSON.parse(line) as Line) }, secrets));
  app.get('/fails', async () => {
    const upstream = new Error(`API key not valid: ${KEY}`);
    const wrapped = new Error('youtube failed', { cause: new Error(`HTTP 400 from ${KEY.slice(0, 3)}…`, { cause: upstream }) });
    throw Object.assign(wrapped, { body: `{"key":"${KEY}"}`, sent: { headers: { authorization: `Bearer ${KEY}` } } });
  });
  await app.ready();
  return { app, lines };
}

describe('errors in log lines', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('are written with their cause chain, and no configured secret anywhere in them', async () => {
    const { app, lines } = await appLogging([KEY]);
    apps.push(app);
    const response = await app.inject({ url: '/fails', headers: { 'x-request-id': 'id-fails' } });
    expect(response.statusCode).toBe(500);

    const logged = lines.filter((line) => line.reqId === 'id-fails' && line.err);
    expect(logged.length).toBeGreaterThan(0);
    for (const { err } of logged) {
      expect(err).toMatchObject({ type: 'Error', message: 'youtube failed: HTTP 400 from sk-…: API key not valid: [redacted]' });
      expect(err!.stack).toContain('caused by: Error: API key not valid: [redacted]');
      expect(err).toMatchObject({ body: '{"key":"[redacted]"}', sent: { headers: { authorization: 'Bearer [redacted]' } } });
    }
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(KEY);
  });

  it('are written as pino writes them when no secret is configured', async () => {
    const { app, lines } = await appLogging([]);
    apps.push(app);
    await app.inject({ url: '/fails', headers: { 'x-request-id': 'id-fails' } });
    const logged = lines.find((line) => line.reqId === 'id-fails' && line.err);
    expect(logged?.err?.message).toBe(`youtube failed: HTTP 400 from sk-…: API key not valid: ${KEY}`);
  });
});
