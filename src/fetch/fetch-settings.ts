import { z } from 'zod';
import { DEFAULT_FETCH_MAX_BYTES, DEFAULT_FETCH_TIMEOUT_MS, type SafeFetchOptions } from './safe-fetch.js';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const fetchSettingsSchema = z.object({
  /** Lets fetch_url and paper_read reach loopback and private addresses: tests and private deployments only. */
  FETCH_ALLOW_PRIVATE: booleanFromEnv.default(false),
  FETCH_MAX_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_FETCH_MAX_BYTES),
  FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DEFAULT_FETCH_TIMEOUT_MS),
});

export type FetchSettings = Required<Pick<SafeFetchOptions, 'allowPrivate' | 'maxBytes' | 'timeoutMs'>>;

/** The fetch settings from the environment, validated; a bad value throws with the variable's name. */
export function readFetchSettings(env: Record<string, string | undefined> = process.env): FetchSettings {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = fetchSettingsSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return {
    allowPrivate: parsed.data.FETCH_ALLOW_PRIVATE,
    maxBytes: parsed.data.FETCH_MAX_BYTES,
    timeoutMs: parsed.data.FETCH_TIMEOUT_MS,
  };
}
