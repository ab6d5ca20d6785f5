/** Replaces every occurrence of a configured secret with a marker; the last line of defence for messages. */
export function redactSecrets(message: string, secrets: string[]): string {
  let redacted = message;
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}
