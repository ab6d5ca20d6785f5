import type { ErrorCode } from './errors.js';

export const PROVIDER_STATUSES = ['ok', 'error', 'timeout', 'not_configured', 'skipped', 'suspended'] as const;
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
  /** When the upstream asked us to wait (429 Retry-After), or when a suspended provider is tried again. */
  retry_after_ms?: number;
}
