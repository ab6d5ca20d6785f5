import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Provider } from '../providers/provider.js';
import type { OutboundRateLimiter } from '../rate-limit/outbound-limiter.js';
import { planRateLimitBuckets, type BucketMember } from '../rate-limit/rate-limit-buckets.js';
import type { TakeSlot } from './provider-pipeline.js';

/** An instance as the bucket plan sees it: where it sends, with which secret credentials, under which limit. */
function bucketMember(provider: Provider): BucketMember {
  const credentials: Record<string, string> = {};
  for (const credential of provider.settings.credentials) {
    const value = provider.config.credentials[credential.env];
    // A plain setting (a contact e-mail, a folder) names no account; an unset key is no key.
    if (credential.secret && value) credentials[credential.env] = value;
  }
  return { name: provider.name, definition: provider.definition, baseUrl: provider.config.baseUrl, credentials, limit: provider.config.rateLimit };
}

/** A provider's outbound bucket as its calls use it, each undefined for a provider with no limit. */
export interface OutboundSlots {
  /** How a request takes its slot. */
  slotFor(provider: Provider): TakeSlot | undefined;
  /** Tells the bucket the upstream asked to wait (Retry-After), so that every replica sharing it holds off. */
  waitFor(provider: Provider): ((waitMs: number) => void) | undefined;
}

/**
 * Each provider's way to its outbound slots, worked out once at start-up: instances that spend one upstream
 * quota (rate-limit-buckets.ts) take them from one bucket, at the stricter of their limits, which the log says
 * once. Instances that are never called (a required credential unset) spend nothing and join no bucket.
 */
export function outboundSlots(providers: readonly Provider[], limiter: OutboundRateLimiter, logger: Logger): OutboundSlots {
  const callable = providers.filter((provider) => provider.missingSettings().length === 0);
  const plan = planRateLimitBuckets(callable.map(bucketMember));
  for (const notice of plan.notices) logger.info(notice);
  const slots = new Map<string, TakeSlot>();
  const waits = new Map<string, (waitMs: number) => void>();
  for (const provider of callable) {
    const bucket = plan.buckets.get(provider.name);
    if (!bucket) continue;
    const { name } = provider;
    slots.set(name, (deadline, signal, caller) => limiter.acquire(bucket.key, bucket.limit, deadline, signal, name, caller));
    waits.set(name, (waitMs) => limiter.hold(bucket.key, waitMs));
  }
  return { slotFor: (provider) => slots.get(provider.name), waitFor: (provider) => waits.get(provider.name) };
}
