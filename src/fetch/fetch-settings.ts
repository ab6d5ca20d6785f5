import type { AppConfig } from '../config.js';
import { booleanFlag, wholeNumber } from '../config/env-values.js';
import { DEFAULT_FETCH_MAX_BYTES, DEFAULT_FETCH_TIMEOUT_MS, type SafeFetchOptions } from './safe-fetch.js';

/** The FETCH_* variables, validated with the rest of the configuration at start-up. */
export const fetchVariableShape = {
  /** Lets fetch_url and paper_read reach loopback and private addresses: tests and private deployments only. */
  FETCH_ALLOW_PRIVATE: booleanFlag().default(false),
  FETCH_MAX_BYTES: wholeNumber(1024).default(DEFAULT_FETCH_MAX_BYTES),
  FETCH_TIMEOUT_MS: wholeNumber(100, 120_000).default(DEFAULT_FETCH_TIMEOUT_MS),
};

export type FetchSettings = Required<Pick<SafeFetchOptions, 'allowPrivate' | 'maxBytes' | 'timeoutMs'>>;

/** The `fetch` section built from validated values. */
export function fetchSettingsFrom(values: { FETCH_ALLOW_PRIVATE: boolean; FETCH_MAX_BYTES: number; FETCH_TIMEOUT_MS: number }): FetchSettings {
  return { allowPrivate: values.FETCH_ALLOW_PRIVATE, maxBytes: values.FETCH_MAX_BYTES, timeoutMs: values.FETCH_TIMEOUT_MS };
}

/** The fetch settings of a loaded configuration: validated at start-up, never read from the environment here. */
export function readFetchSettings(config: Pick<AppConfig, 'fetch'>): FetchSettings {
  return config.fetch;
}

/**
 * FETCH_TIMEOUT_MS, or what is left of the caller's deadline (a performance.now() time) when that comes sooner, at
 * least 1 ms so that a step always starts: the steps of one call (a download, its reading, a fallback) share it.
 */
export function timeLeft(settings: FetchSettings, deadline: number): number {
  return Math.max(1, Math.round(Math.min(settings.timeoutMs, deadline - performance.now())));
}
