import { createHash } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { describeRedisUrl, openFailFastRedis } from '../transport/redis-connection.js';
import { deeperThan, entryTtl, type AnswerCache } from './answer-cache.js';
import { ANSWER_KEYS } from './cached-answer.js';

export interface RedisCacheOptions<T> {
  /** redis://[:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  /** How long an answer lives in Redis (PX); 0 caches nothing, as the in-process cache does. */
  ttlMs: number;
  /** Namespace for keys, so several services (or answer formats) can share one Redis. */
  keyPrefix?: string;
  logger: Logger;
  /** The in-process cache asked first and filled on every Redis hit. */
  front: AnswerCache<T>;
  /** Longest wait for one Redis command before the local cache is used alone. Default 250 ms. */
  commandTimeoutMs?: number;
  /** Whether an entry read back can be served: another writer may have left anything under a key. */
  isServable(value: unknown): value is T;
  /**
   * The longest answer written to Redis, as its JSON length (what CACHE_MAX_BYTES counts); a longer one is kept in
   * `front` only. Unset: no bound.
   */
  maxEntryBytes?: number;
}

export type RedisCache<T> = AnswerCache<T> & { close(): Promise<void> };

const DEFAULT_KEY_PREFIX = `fedsearch:${ANSWER_KEYS}`;
const DEFAULT_COMMAND_TIMEOUT_MS = 250;
/** Keys read as another writer's that a replica remembers until its own answer replaces them (createRedisCache). */
const FOREIGN_KEYS_REMEMBERED = 1_000;

/**
 * SET unless the entry kept stays (keepsKept in answer-cache.ts, as Lua; ARGV[3] is the depth, ARGV[4] 1 for
 * keepAsDeep, ARGV[5] to ARGV[7] the gathering time, depth and length of the list the answer extends, empty when it
 * was ranked afresh): then that entry and its remaining lifetime come back instead, for the local copy. Only a key
 * that holds an entry has it decoded, and only an entry no longer than ARGV[8] (CACHE_SHARED_MAX_BYTES, as bytes; empty
 * for no bound): a longer one is no replica's (none writes one), and no replica would serve it, so it is replaced at
 * once rather than decoded inside Redis and sent back and forth whole for the caller to replace (megabytes each way,
 * past the command's 250 ms on a loaded replica, and the entry stayed). A replica's own entry within the bound in
 * characters but past it in bytes (many letters outside ASCII) is replaced at once as well: all it loses is the
 * rule of which list stays (keepsKept).
 */
const SET_UNLESS_KEPT_SCRIPT = `
local kept = redis.call('GET', KEYS[1])
if kept and (ARGV[8] == '' or #kept <= tonumber(ARGV[8])) then
  local ok, entry = pcall(cjson.decode, kept)
  local depth = tonumber(ARGV[3])
  if ok and type(entry) == 'table' and type(entry.depth) == 'number' and entry.depth >= depth then
    local stays = entry.depth > depth or ARGV[4] == '1'
    if not stays then
      local extended = ARGV[5] ~= '' and entry.cached_at == tonumber(ARGV[5]) and entry.depth == tonumber(ARGV[6])
        and type(entry.results) == 'table' and #entry.results == tonumber(ARGV[7])
      stays = not extended and entry.partial ~= true
    end
    if stays then return {kept, redis.call('PTTL', KEYS[1])} end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;

/** SET when KEYS[1] still holds ARGV[1]: an entry found unservable is replaced, unless another replica wrote meanwhile. */
const REPLACE_UNCHANGED_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1
`;

type ScriptedRedis = Redis & {
  setUnlessKept(
    key: string,
    payload: string,
    ttlMs: number,
    depth: number,
    orAsDeep: 0 | 1,
    extendsCachedAt: number | '',
    extendsDepth: number | '',
    extendsLength: number | '',
    maxEntryBytes: number | '',
  ): Promise<[string, number] | null>;
  replaceUnchanged(key: string, kept: string, payload: string, ttlMs: number): Promise<number>;
};

/**
 * A two-level answer cache: the in-process `front` first, then Redis, shared by every replica. Redis being
 * down or slow never reaches callers: commands fail fast (no offline queue, a short timeout), the local
 * cache answers alone, and one warning is logged per outage rather than one per request.
 */
export function createRedisCache<T>(options: RedisCacheOptions<T>): RedisCache<T> {
  const { front, logger, ttlMs } = options;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const redis = openFailFastRedis<ScriptedRedis>(
    {
      url: options.url,
      logger,
      purpose: 'shared cache',
      whileDown: 'answering from the local cache',
      commandTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    },
    (client) => {
      // defineCommand sends EVALSHA and loads the script again when Redis restarted without it.
      client.defineCommand('setUnlessKept', { numberOfKeys: 1, lua: SET_UNLESS_KEPT_SCRIPT });
      client.defineCommand('replaceUnchanged', { numberOfKeys: 1, lua: REPLACE_UNCHANGED_SCRIPT });
      return client as ScriptedRedis;
    },
  );
  const { attempt } = redis;
  const maxEntryBytes = options.maxEntryBytes ?? Number.POSITIVE_INFINITY;
  /**
   * Whether `payload` may go to Redis. Every replica that looks the answer up reads it whole within the command timeout
   * and parses it on its event loop, and Redis holds it in a memory that, once full, refuses every replica's writes:
   * page 10 of fifty papers with their abstracts can be tens of MB. Such an answer stays in this replica's own cache.
   */
  const shareable = (payload: string): boolean => {
    if (payload.length <= maxEntryBytes) return true;
    logger.debug({ bytes: payload.length, maxBytes: maxEntryBytes }, 'shared cache: answer larger than CACHE_SHARED_MAX_BYTES; not shared, kept in this replica only');
    return false;
  };

  /**
   * Keys whose entry this replica last read as another writer's, one it cannot serve: its next answer for the key
   * replaces it outright. Judging it again inside Redis would send the whole entry back (megabytes, for 100,000 empty
   * results) to be parsed and found unservable once more, past the command's 250 ms on a loaded replica, and the
   * entry stayed. Bounded: a key forgotten is judged the slow way.
   */
  const foreignKeys = new LRUCache<string, true>({ max: FOREIGN_KEYS_REMEMBERED });

  return {
    async get(key, usable) {
      // Judged here rather than by the front, so that a local copy found shallow is known as such (EntryVerdict).
      const found = await front.get(key);
      const verdict = found === undefined ? false : usable === undefined || usable(found);
      if (verdict === true) return found;
      // A shallow local copy is served unless Redis holds a deeper entry: another replica extended the list for a
      // later page, and the next page must go on from the one shown, not extend this copy differently.
      const local = verdict === 'shallow' ? found : undefined;
      const redisEntry = redisKey(prefix, key);
      // The entry's remaining lifetime comes with it, so the local copy expires when the shared one does.
      const replies = await attempt((client) => client.multi().get(redisEntry).pttl(redisEntry).exec());
      const [[, stored] = [], [, remainingMs] = []] = replies ?? [];
      if (typeof stored !== 'string') return local;
      // Longer than any answer a replica writes (shareable): another writer's, which would be parsed on the event loop.
      if (stored.length > maxEntryBytes) {
        logger.debug({ redis: describeRedisUrl(options.url), bytes: stored.length, maxBytes: maxEntryBytes }, 'shared cache entry is larger than CACHE_SHARED_MAX_BYTES; ignored');
        return local;
      }
      const value = parsedEntry(stored);
      if (value === undefined) {
        logger.debug({ redis: describeRedisUrl(options.url) }, 'shared cache entry is not JSON; ignored');
        return local;
      }
      // A miss, not an error: the search runs and its answer replaces the entry.
      if (!options.isServable(value)) {
        logger.debug({ redis: describeRedisUrl(options.url) }, 'shared cache entry is not an answer this service can serve; ignored');
        foreignKeys.set(key, true);
        return local;
      }
      if (usable !== undefined && usable(value) === false) return local;
      if (local !== undefined && !deeperThan(value, local)) return local;
      if (typeof remainingMs === 'number' && remainingMs > 0) await front.set(key, value, remainingMs);
      return value;
    },

    async set(key, value, requestedTtlMs, setOptions) {
      const ttl = entryTtl(ttlMs, requestedTtlMs);
      if (setOptions?.keepExisting === true && ttl > 0) {
        // What another replica kept stays (NX), and this replica keeps no copy of its own answer in its place: null
        // is Redis' "not set". With Redis away (undefined), or the answer not shared, the local entry is all there is.
        const payload = JSON.stringify(value);
        const stored = shareable(payload) ? await attempt((client) => client.set(redisKey(prefix, key), payload, 'PX', ttl, 'NX')) : undefined;
        if (stored !== null) await front.set(key, value, requestedTtlMs, setOptions);
        return;
      }
      await front.set(key, value, requestedTtlMs, setOptions);
      if (ttl <= 0) return;
      const payload = JSON.stringify(value);
      if (!shareable(payload)) return;
      const depth = setOptions?.depth;
      if (depth === undefined) {
        await attempt((client) => client.set(redisKey(prefix, key), payload, 'PX', ttl));
        return;
      }
      // Another replica may have kept a list a page was shown from (a deeper one, for a later page of the same search, or
      // one as deep this answer does not extend): it stays, and becomes the local copy.
      // Read just before as another writer's: replaced outright (foreignKeys). One written meanwhile by another replica
      // is replaced with it, as any answer as deep was before lists that were shown stayed.
      if (foreignKeys.delete(key)) {
        await attempt((client) => client.set(redisKey(prefix, key), payload, 'PX', ttl));
        return;
      }
      const extending = setOptions?.extending;
      const orAsDeep = setOptions?.keepAsDeep === true ? 1 : 0;
      const stays = await attempt((client) =>
        client.setUnlessKept(
          redisKey(prefix, key),
          payload,
          ttl,
          depth,
          orAsDeep,
          extending?.cachedAt ?? '',
          extending?.depth ?? '',
          extending?.length ?? '',
          Number.isFinite(maxEntryBytes) ? maxEntryBytes : '',
        ),
      );
      if (!stays) return;
      const [kept, remainingMs] = stays;
      const keptValue = kept.length <= maxEntryBytes ? parsedEntry(kept) : undefined;
      if (keptValue !== undefined && options.isServable(keptValue)) {
        if (remainingMs > 0) await front.set(key, keptValue, remainingMs);
        return;
      }
      // What is kept only looks deeper (another writer's entry, with a depth the script reads as a number): left there,
      // it would be a miss for every replica, each search's answer refused in its favour, for as long as it lives.
      await attempt((client) => client.replaceUnchanged(redisKey(prefix, key), kept, payload, ttl));
    },

    storesNothing: ttlMs <= 0,

    close: () => redis.close(),
  };
}

/** An entry's JSON value; undefined when it is no JSON (Redis' own decoder, which judged its depth, takes more). */
function parsedEntry(stored: string): unknown {
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return undefined;
  }
}

/** Cache keys are long JSON strings; a digest keeps Redis keys short and free of odd characters. */
function redisKey(prefix: string, key: string): string {
  return prefix + createHash('sha256').update(key).digest('base64url');
}
