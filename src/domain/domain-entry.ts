/**
 * A top-level domain: letters, or an internationalised one in its ASCII form (`xn--p1ai` is .рф, `xn--fiqs8s` .中国),
 * whose digits and hyphens refused every site under it as "not a domain name".
 */
const TOP_LEVEL_DOMAIN = String.raw`(?:[a-zA-Z]{2,63}|[xX][nN]--[a-zA-Z0-9-]{0,57}[a-zA-Z0-9])`;

/** An include_domains / exclude_domains entry: a host, or a host and a path under it (`docs.example.com/guide`). */
export const DOMAIN_ENTRY = new RegExp(String.raw`^(?=.{1,253}$)([a-zA-Z0-9-]+\.)+${TOP_LEVEL_DOMAIN}(\/[^\s?#]*)?$`);

/** A domain name alone (company_research's domain): at most 253 characters and 63 a label, as DNS allows. */
export const DOMAIN_NAME = new RegExp(String.raw`^(?=.{1,253}$)([a-zA-Z0-9-]{1,63}\.)+${TOP_LEVEL_DOMAIN}$`);

/** `Docs.Example.com/Guide` as `docs.example.com/Guide`: a host has no letter case, a path does. */
export function lowerCaseHost(entry: string): string {
  const slash = entry.indexOf('/');
  return slash < 0 ? entry.toLowerCase() : entry.slice(0, slash).toLowerCase() + entry.slice(slash);
}

/**
 * `www.docs.rs/guide` as `docs.rs/guide`: a leading `www.` names no other site, so an entry is read by the result
 * filter (engine/filters.ts, for entries and result hosts alike), keyed, and sent to Tavily and Exa as the host without
 * it, subdomains included. Not when nothing but a top-level domain would be left: `www.com` is one site, where `com`
 * would be every .com one (and is no entry a caller can give: DOMAIN_ENTRY). The entry itself when it has no `www.`
 * (nearly every one).
 */
export function withoutWww(entry: string): string {
  if (!entry.startsWith('www.')) return entry;
  const slash = entry.indexOf('/');
  const hostEnd = slash < 0 ? entry.length : slash;
  // A dot after the label following `www.`: a host of two labels at least is left.
  const dot = entry.indexOf('.', 4);
  return dot > 4 && dot < hostEnd ? entry.slice(4) : entry;
}

/** A domain list with each entry withoutWww; the list itself when no entry starts with `www.` (no copy). */
export function entriesWithoutWww(entries: readonly string[]): readonly string[] {
  for (const entry of entries) if (entry.startsWith('www.')) return entries.map(withoutWww);
  return entries;
}
