import type { Provider } from '../providers/provider.js';

/** Replaces every occurrence of a configured secret with a marker; the last line of defence for messages. */
export function redactSecrets(message: string, secrets: string[]): string {
  let redacted = message;
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}

/** Every configured secret value, so logs and messages can redact them wherever they appear. */
export function secretValues(providers: readonly Provider[]): string[] {
  return providers.flatMap((provider) =>
    provider.settings.credentials
      .filter((credential) => credential.secret)
      .map((credential) => provider.config.credentials[credential.env])
      .filter((value): value is string => typeof value === 'string' && value.length >= 4),
  );
}
