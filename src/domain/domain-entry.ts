import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * A top-level domain: letters, or an internationalised one in its ASCII form (`xn--p1ai` is .рф, `xn--fiqs8s` .中国),
 * whose digits and hyphens refused every site under it as "not a domain name".
 */
const TOP_LEVEL_DOMAIN = String.raw`(?:[a-zA-Z]{2,63}|[xX][nN]--[a-zA-Z0-9-]{0,57}[a-zA-Z0-9])`;

/**
 * An include_domains / exclude_domains entry as the service keeps it (asciiEntry): a host in its ASCII form, or a host
 * and a path under it (`docs.example.com/guide`). A label of at most 63 characters, as DNS allows: no site has a longer
 * one, and a Unicode label short as typed can be longer in its ASCII form (`ä` × 60 is 66 characters so written), which
 * Tavily and Exa would be sent.
 */
const DOMAIN_ENTRY = new RegExp(String.raw`^(?=.{1,253}$)([a-zA-Z0-9-]{1,63}\.)+${TOP_LEVEL_DOMAIN}(\/[^\s?#]*)?$`);

/** A domain name alone (company_research's domain), in its ASCII form: at most 253 characters and 63 a label, as DNS allows. */
const DOMAIN_NAME = new RegExp(String.raw`^(?=.{1,253}$)([a-zA-Z0-9-]{1,63}\.)+${TOP_LEVEL_DOMAIN}$`);

/**
 * What a caller may type where DOMAIN_ENTRY and DOMAIN_NAME are kept: labels that may hold any letter beyond ASCII
 * (`bücher.de`, `пример.рф`), the dots UTS #46 reads as dots (`例子。中国`), and a dot ending a fully qualified name
 * (`docs.rs.`). The patterns tools/list and OpenAPI advertise for the input as sent, where a client would otherwise
 * refuse a name the service takes. Wider than what the service keeps: asciiEntry and asciiDomainName check the ASCII
 * form, lengths included (a name's Unicode form is shorter than its ASCII one, so no bound on the typed form holds).
 */
const TYPED_LABEL_CHARACTER = String.raw`(?:[a-zA-Z0-9-]|[^\x00-\x7F])`;
const TYPED_DOT = String.raw`[.\u3002\uFF0E\uFF61]`;
/** An ASCII top-level domain as kept, or one with a letter beyond ASCII (`рф`), whose ASCII form is checked after. */
const TYPED_TOP_LEVEL_DOMAIN = String.raw`(?:${TOP_LEVEL_DOMAIN}|[a-zA-Z0-9-]*[^\x00-\x7F]${TYPED_LABEL_CHARACTER}*)`;
const TYPED_HOST = String.raw`(${TYPED_LABEL_CHARACTER}+${TYPED_DOT})+${TYPED_TOP_LEVEL_DOMAIN}${TYPED_DOT}?`;
/**
 * The white space the fields trim before reading a name (` docs.rs `, a list typed by hand): the advertised patterns
 * admit it, where a client would otherwise refuse what the service takes. The service's own check
 * reads the value trimmed, so the service refuses nothing more or less for it.
 */
export const TYPED_DOMAIN_ENTRY = new RegExp(String.raw`^\s*${TYPED_HOST}(\/[^\s?#]*)?\s*$`);
export const TYPED_DOMAIN_NAME = new RegExp(String.raw`^\s*${TYPED_HOST}\s*$`);
/** A host as typed, nothing around it: what asciiHost gives domainToASCII, which reads a URL's host from more. */
const TYPED_HOST_ALONE = new RegExp(String.raw`^${TYPED_HOST}$`);

/** A letter beyond ASCII: a host so written is read in its ASCII form by the URL standard's rules (domainToASCII). */
const BEYOND_ASCII = /[^\x00-\x7F]/;

/**
 * `Bücher.de/Guide` as `xn--bcher-kva.de/Guide`, `Docs.rs./guide` as `docs.rs/guide`: the host in the one spelling
 * the filter, the cache key and every provider get (its ASCII form, in small letters, without the dot of a fully
 * qualified name); a result's link, read by the URL parser, has its host in that form whichever it was written in.
 * A path keeps its case. '' for a value that is no DOMAIN_ENTRY so written: refused as not a domain name.
 */
export function asciiEntry(entry: string): string {
  const slash = entry.indexOf('/');
  const host = asciiHost(slash < 0 ? entry : entry.slice(0, slash));
  const ascii = slash < 0 ? host : host + entry.slice(slash);
  return DOMAIN_ENTRY.test(ascii) ? ascii : '';
}

/** A domain name (no path) as asciiEntry writes a host; '' for a value that is no DOMAIN_NAME so written. */
export function asciiDomainName(name: string): string {
  const ascii = asciiHost(name);
  return DOMAIN_NAME.test(ascii) ? ascii : '';
}

/**
 * '' for a host with no ASCII form (domainToASCII's answer to one UTS #46 refuses: a space, bad punycode), or that is
 * more than a host: domainToASCII reads its value as a URL's, so `bücher.de?x=1` came back as the host alone. An ASCII
 * host is taken as typed, so its punycode labels are checked here (wellFormedPunycode), where only the rare host
 * holding `xn--` pays for it.
 */
function asciiHost(host: string): string {
  const ascii = !BEYOND_ASCII.test(host) ? host.toLowerCase() : TYPED_HOST_ALONE.test(host) ? domainToASCII(host) : '';
  const name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  return name.includes('xn--') && !name.split('.').every(wellFormedPunycode) ? '' : name;
}

/**
 * Whether a label is not punycode, or is punycode that names a label beyond ASCII and is how that label is written:
 * `xn--zz` and `xn--` decode to nothing, `xn--a-` to `a` (an ASCII label written as punycode, which UTS #46 refuses
 * and the URL parser takes), and a label decoding to one written otherwise is no name a site is registered under.
 */
function wellFormedPunycode(label: string): boolean {
  if (!label.startsWith('xn--')) return true;
  const unicode = domainToUnicode(label);
  return BEYOND_ASCII.test(unicode) && domainToASCII(unicode) === label;
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
