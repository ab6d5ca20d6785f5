/** Every start of `secret` long enough to identify it (4 characters or more), the whole of it included. */
export function prefixesOf(secret: string): string[] {
  return Array.from({ length: secret.length - 3 }, (_, index) => secret.slice(0, index + 4));
}
