import type { ErrorCode } from './errors.js';

export const PROVIDER_STATUSES = ['ok', 'error', 'timeout', 'not_configured', 'skipped', 'suspended', 'rate_limited'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** What one provider did for one search: always reported, whatever happened. */
export interface ProviderOutcome {
  provider: string;
  status: ProviderStatus;
  count: number;
  latency_ms: number;
  /** Short cause for error, timeout, not_configured and skipped; never a key, token or upstream body. */
  message?: string;
  code?: ErrorCode;
  /** Environment variables that would configure a not_configured provider. */
  missing?: string[];
  /**
   * When the upstream asked us to wait (429 Retry-After), when a suspended provider is tried again, or, for
   * rate_limited (our own outbound limit had no request slot before the deadline), when the next slot is free.
   */
  retry_after_ms?: number;
}
