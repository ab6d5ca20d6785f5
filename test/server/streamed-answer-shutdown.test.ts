import { Agent, get } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startService } from '../support/service.js';

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * An answer sent as a stream (a page file, an answer being compressed) can have its headers out, promising
 * keep-alive, when a shutdown begins. Node closes only the connections idle at that moment, so a client that
 * keeps its idle sockets held the close open once the answer was done: in tests for ever, in production until
 * SHUTDOWN_GRACE_MS was over.
 */
describe('shutdown with a streamed answer going out', () => {
  it('delivers the answer whole, then ends its connection so that the close completes', async () => {
    const body = new PassThrough();
    const service = await startService({ LOG_LEVEL: 'silent' }, (app) => {
      app.get('/test/streamed', (_request, reply) => reply.type('application/json').send(body));
    });
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    try {
      let firstBytes!: () => void;
      const started = new Promise<void>((resolve) => (firstBytes = resolve));
      const answer = new Promise<{ text: string; connection: string | undefined }>((resolve, reject) => {
        get(`${service.origin}/test/streamed`, { agent }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.once('data', () => firstBytes());
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ text, connection: response.headers.connection }));
          response.on('error', reject);
        }).on('error', reject);
      });
      body.write('{"part":"first",');
      await started;
      const closed = service.stop();
      // The answer ends only once the server has stopped listening, when Node no longer closes connections as they idle.
      await until(() => !service.app.server.listening);
      body.end('"last":true}');
      const delivered = await answer;
      expect(delivered.connection).toBe('keep-alive');
      expect(JSON.parse(delivered.text)).toEqual({ part: 'first', last: true });
      // Without the connection ended, this waits for the client to drop its idle socket, which it never does.
      await closed;
    } finally {
      agent.destroy();
    }
  });
});
