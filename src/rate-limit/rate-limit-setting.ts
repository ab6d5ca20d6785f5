/**
 * Outbound rate limits as operators write them: `N/s`, `N/Ns`, `N/min`, `N/Nmin`, `N/h` (`1/s`, `1/3s`,
 * `100/min`), or `off` for none. Parsed once at start-up; a bad value refuses to start.
 */
export interface RateLimit {
  /** Requests allowed per `intervalMs`: the bucket refills at requests / intervalMs. */
  requests: number;
  intervalMs: number;
  /** The bucket's capacity: how many requests may go at once after a quiet spell. */
  burst: number;
  /** The setting as written (`2/s`), for messages. */
  text: string;
  /** The variable that changes it (`BRAVE_RATE_LIMIT`), so a `rate_limited` outcome says what to raise. */
  variable: string;
}

/**
 * A provider's published allowance: one rate, or a higher one once a credential is set (NCBI's API key,
 * Crossref's polite-pool e-mail, a GitHub token).
 */
export type RateLimitDefault = string | { rate: string; withCredential: { env: string; rate: string } };

/** What a rate-limit setting may say, for messages. */
export const RATE_LIMIT_FORMS = 'N/s, N/Ns, N/min, N/Nmin or N/h (e.g. 1/s, 1/3s, 100/min), or off';
const UNIT_MS: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };
const PATTERN = /^(\d+)\s*\/\s*(\d+)?\s*(s|min|h)$/;
/** Beyond these a limit is either a typo or no limit at all. */
const MAX_REQUESTS = 1_000_000;
const MAX_INTERVAL_MS = 24 * 3_600_000;

/** The default bucket capacity: one request at a time, so a limit of 2/s never means 2 in the same instant. */
export const DEFAULT_BURST = 1;

/** Parses one value; undefined means `off`. Throws a message naming the variable and what is allowed. */
export function parseRateLimit(value: string, variable: string): RateLimit | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'off') return undefined;
  const match = PATTERN.exec(text);
  const requests = match ? Number(match[1]) : Number.NaN;
  const intervalMs = match ? Number(match[2] ?? '1') * UNIT_MS[match[3]!]! : Number.NaN;
  if (!(requests >= 1 && requests <= MAX_REQUESTS && intervalMs > 0 && intervalMs <= MAX_INTERVAL_MS)) {
    throw new Error(`Invalid configuration: ${variable} must be ${RATE_LIMIT_FORMS}, got "${value}"`);
  }
  return { requests, intervalMs, burst: DEFAULT_BURST, text: text.replace(/\s+/g, ''), variable };
}

/** The declared default that applies with these credentials. */
export function defaultRate(declared: RateLimitDefault, credentials: Record<string, string | undefined>): string {
  if (typeof declared === 'string') return declared;
  return credentials[declared.withCredential.env] ? declared.withCredential.rate : declared.rate;
}
