import { it, expect } from 'vitest';
import { request as ureq } from 'undici';
import { startService } from '/work/main/test/support/service.js';
it(`close after unread undici`, async () => {
  const service = await startService({ LOG_LEVEL: 'warn' });
  const response = await ureq(`${service.origin}/web/app.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(response.statusCode).toBe(200);
  const t = Date.now();
  const stopped = service.stop();
  const result = await Promise.race([stopped.then(() => 'stopped'), new Promise((r) => setTimeout(() => r('hung'), 3000))]);
  console.log(result, Date.now() - t);
  await response.body.arrayBuffer();
  await stopped;
}, 20000);
