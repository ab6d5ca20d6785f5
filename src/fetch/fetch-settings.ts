import type { AppConfig } from '../config.js';
import { booleanFlag, wholeNumber } from '../config/env-values.js';
import { callerLookupSlots } from './lookup-slots.js';
import { nat64PrefixesVariable, type Nat64Prefix } from './nat64-prefixes.js';
import { DEFAULT_FETCH_MAX_BYTES, DEFAULT_FETCH_TIMEOUT_MS, type SafeFetchOptions } from './safe-fetch.js';

/** A read's whole time without timeout_ms: two slow locations' FETCH_TIMEOUT_MS, with room left under a proxy's 60 s. */
export const DEFAULT_READ_TIMEOUT_MS = 45_000;

/** The FETCH_* variables, validated with the rest of the configuration at start-up. */
export const fetchVariableShape = {
  /** Lets fetch_url and paper_read reach loopback and private addresses: tests and private deployments only. */
  FETCH_ALLOW_PRIVATE: booleanFlag().default(false),
  FETCH_MAX_BYTES: wholeNumber(1024).default(DEFAULT_FETCH_MAX_BYTES),
  /** The network's own NAT64 prefixes (IPv6-only hosts with DNS64): an address under one is judged by its IPv4 address. */
  FETCH_NAT64_PREFIXES: nat64PrefixesVariable.default([]),
  FETCH_TIMEOUT_MS: wholeNumber(100, 120_000).default(DEFAULT_FETCH_TIMEOUT_MS),
  /**
   * The whole of one read (fetch_url, paper_read, /v1/papers/download) when the caller sets no timeout_ms: every
   * location tried, a fallback and the reading. Below the 60 s a reverse proxy usually waits (nginx's
   * proxy_read_timeout), so a caller hears the service's own timeout, naming what was tried, not the proxy's 504.
   */
  READ_TIMEOUT_MS: wholeNumber(100, 600_000).default(DEFAULT_READ_TIMEOUT_MS),
};

export type FetchSettings = Required<Pick<SafeFetchOptions, 'allowPrivate' | 'maxBytes' | 'timeoutMs'>> & {
  /** FETCH_NAT64_PREFIXES (nat64-prefixes.ts). */
  nat64Prefixes: readonly Nat64Prefix[];
  /** READ_TIMEOUT_MS: the deadline of a whole read without the caller's timeout_ms (readDeadline). */
  readTimeoutMs: number;
  /** How many lookups of caller-named hosts may run at once, from libuv's UV_THREADPOOL_SIZE (lookup-slots.ts). */
  callerLookupSlots: number;
};

/** The `fetch` section built from validated values. */
export function fetchSettingsFrom(values: {
  FETCH_ALLOW_PRIVATE: boolean;
  FETCH_NAT64_PREFIXES: readonly Nat64Prefix[];
  FETCH_MAX_BYTES: number;
  FETCH_TIMEOUT_MS: number;
  READ_TIMEOUT_MS: number;
}, threadPoolSize?: string): FetchSettings {
  return {
    allowPrivate: values.FETCH_ALLOW_PRIVATE,
    nat64Prefixes: values.FETCH_NAT64_PREFIXES,
    maxBytes: values.FETCH_MAX_BYTES,
    timeoutMs: values.FETCH_TIMEOUT_MS,
    readTimeoutMs: values.READ_TIMEOUT_MS,
    callerLookupSlots: callerLookupSlots(threadPoolSize),
  };
}

/** What bounds a whole read, and the words an error uses for it: the caller's timeout_ms, else READ_TIMEOUT_MS. */
export interface ReadDeadline {
  /** performance.now() time by which the read must be done. */
  at: number;
  /** "timeout_ms 2000" or "READ_TIMEOUT_MS 45000": what the caller would change for more time. */
  named: string;
}

/**
 * The deadline of one whole read, started now. Without the caller's timeout_ms a read still has one: each location
 * getting FETCH_TIMEOUT_MS in turn let one call run for minutes, long after a proxy in front had answered 504.
 */
export function readDeadline(settings: FetchSettings, timeoutMs: number | undefined): ReadDeadline {
  const ms = timeoutMs ?? settings.readTimeoutMs;
  return { at: performance.now() + ms, named: timeoutMs === undefined ? `READ_TIMEOUT_MS ${ms}` : `timeout_ms ${ms}` };
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
