/**
 * How the service tells callers apart for what it counts per caller (the per-client rate limit, the MCP session
 * cap): by API key id when keys are configured (never the key itself), else by address.
 */
export function clientKey(apiKeyId: string | undefined, address: string): string {
  return apiKeyId ? `key:${apiKeyId}` : `ip:${address}`;
}
