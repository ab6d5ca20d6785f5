import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { startRedisServer, describeWithRedis } from '../support/redis-server.js';
import { request, startService, type RunningService } from '../support/service.js';
import { temporaryDirectory } from '../support/temporary-directory.js';

type Answer = { cached: boolean; results: Array<{ title: string; url: string }> };

/**
 * Replicas deployed with one LOCAL_INDEX_DIR path, each with its own files there (a volume per node, a rolling deploy
 * that ships new documents). Each answers local searches from the files it loaded, so it must not be served the
 * answer another replica's files gave.
 */
describeWithRedis('replicas sharing one Redis whose embedded indexes hold other files', () => {
  it('keep their local answers apart, and share them when their files are the same', async () => {
    const redis = await startRedisServer();
    const folder = temporaryDirectory('fedsearch-shared-index-');
    const started: RunningService[] = [];
    onTestFinished(async () => {
      for (const service of started) await service.stop();
      await redis.stop();
    });
    const document = path.join(folder, 'animal.md');
    const replicaWith = async (text: string): Promise<RunningService> => {
      writeFileSync(document, text);
      const service = await startService({ LOCAL_INDEX_DIR: folder, REDIS_URL: redis.url, CACHE_TTL_SECONDS: '300', LOG_LEVEL: 'silent' });
      started.push(service);
      return service;
    };
    const search = async (service: RunningService): Promise<Answer> => {
      const response = await request(service.origin, '/v1/search/web?q=quokka&providers=local');
      expect(response.status).toBe(200);
      return (await response.json()) as Answer;
    };

    const first = await replicaWith('# Quokka of the first release\n\nThe quokka smiles.\n');
    const firstAnswer = await search(first);
    expect(firstAnswer.cached).toBe(false);
    expect(firstAnswer.results.map((result) => result.title)).toEqual(['Quokka of the first release']);

    const second = await replicaWith('# Quokka of the second release\n\nThe quokka hops.\n');
    const secondAnswer = await search(second);
    expect(secondAnswer.cached).toBe(false);
    expect(secondAnswer.results.map((result) => result.title)).toEqual(['Quokka of the second release']);

    // The first release's files again: the same index, so the answer the first replica kept is this one's too.
    const third = await replicaWith('# Quokka of the first release\n\nThe quokka smiles.\n');
    const thirdAnswer = await search(third);
    expect(thirdAnswer.cached).toBe(true);
    expect(thirdAnswer.results).toEqual(firstAnswer.results);
  });
});
