/** An include_domains / exclude_domains entry: a host, or a host and a path under it (`docs.example.com/guide`). */
export const DOMAIN_ENTRY = /^(?=.{1,253}$)([a-zA-Z0-9-]+\.)+[a-zA-Z]{2,63}(\/[^\s?#]*)?$/;

/** `Docs.Example.com/Guide` as `docs.example.com/Guide`: a host has no letter case, a path does. */
export function lowerCaseHost(entry: string): string {
  const slash = entry.indexOf('/');
  return slash < 0 ? entry.toLowerCase() : entry.slice(0, slash).toLowerCase() + entry.slice(slash);
}
