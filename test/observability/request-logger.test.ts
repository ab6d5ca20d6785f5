import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/logger.js';
import { lazyChildLoggerFactory } from '../../src/request-logger.js';

/** A Fastify app with the service's logger options, its lines collected; `lazy: false` keeps Fastify's own child per request. */
async function appLogging(level: string, lazy: boolean): Promise<{ app: FastifyInstance; lines: Array<Record<string, unknown>> }> {
  const lines: Array<Record<string, unknown>> = [];
  const { childLoggerFactory: _lazy, ...options } = loggerOptions(level, { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = Fastify(lazy ? { ...options, childLoggerFactory: lazyChildLoggerFactory } : options);
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talks', async (request) => {
    request.log.info({ headers: { authorization: 'Bearer secret-token-1234' }, step: 1 }, 'info line');
    request.log.warn('warn line %s', 'formatted');
    request.log.debug('debug line');
    request.log.child({ part: 'inner' }).error({ provider: { apiKey: 'k-123456' }, token: 't-654321' }, 'child line');
    return { ok: true };
  });
  app.get('/chatty', { logLevel: 'debug' }, async (request) => {
    request.log.debug('route-level debug line');
    return { level: request.log.level };
  });
  await app.ready();
  return { app, lines };
}

/** The lines without what differs from one run to the next. */
const comparable = (lines: Array<Record<string, unknown>>) => lines.map(({ time: _time, responseTime: _responseTime, ...rest }) => rest);

describe('request loggers made on first use', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  for (const level of ['info', 'warn', 'debug', 'silent']) {
    it(`writes exactly the lines Fastify's own request children write (level ${level})`, async () => {
      const lazy = await appLogging(level, true);
      const eager = await appLogging(level, false);
      apps.push(lazy.app, eager.app);
      for (const { app } of [lazy, eager]) {
        for (const url of ['/quiet', '/talks', '/chatty']) {
          const response = await app.inject({ url, headers: { 'x-request-id': `id-${url.slice(1)}` } });
          expect(response.statusCode).toBe(200);
        }
      }
      expect(comparable(lazy.lines)).toEqual(comparable(eager.lines));
      if (level !== 'silent') expect(lazy.lines.length).toBeGreaterThan(0);
      // Redaction and the request id hold on the lines the lazy logger wrote.
      expect(JSON.stringify(lazy.lines)).not.toContain('secret-token-1234');
      expect(JSON.stringify(lazy.lines)).not.toContain('k-123456');
      expect(JSON.stringify(lazy.lines)).not.toContain('t-654321');
      for (const line of lazy.lines.filter((entry) => typeof entry.msg === 'string' && String(entry.msg).endsWith('line'))) {
        expect(line.reqId).toMatch(/^id-/);
      }
    });
  }

  it('makes the pino child only when a line is written at an enabled level, and once', () => {
    const parent = pino({ level: 'warn' }, { write: () => undefined });
    let made = 0;
    const child = parent.child.bind(parent);
    parent.child = ((bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => {
      made += 1;
      return child(bindings, options);
    }) as unknown as typeof parent.child;
    const factory = lazyChildLoggerFactory.bind(undefined as never);
    const log = factory(parent as unknown as FastifyBaseLogger, { reqId: 'r1' }, {}, undefined as never) as FastifyBaseLogger & {
      isLevelEnabled(level: string): boolean;
    };
    log.info('not written');
    log.debug('not written');
    expect(made).toBe(0);
    expect(log.level).toBe('warn');
    expect([log.isLevelEnabled('info'), log.isLevelEnabled('warn'), log.isLevelEnabled('fatal')]).toEqual([false, true, true]);
    log.warn('written');
    log.error('written too');
    expect(made).toBe(1);
    const routeLevel = factory(parent as unknown as FastifyBaseLogger, { reqId: 'r2' }, { level: 'debug' }, undefined as never) as typeof log;
    expect([routeLevel.level, routeLevel.isLevelEnabled('debug'), routeLevel.isLevelEnabled('trace')]).toEqual(['debug', true, false]);
    expect(made).toBe(1);
  });
});
