/** Query parameters that only track a click and never change what a page shows. */
const TRACKING_PARAMETERS = new Set([
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'igshid', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'oly_anon_id', 'oly_enc_id',
  'vero_id', 'rb_clickid', 's_cid', 'ref_src', 'ref_url', 'spm', 'srsltid',
]);
const TRACKING_PREFIXES = ['utm_', 'pk_', 'hsa_', 'piwik_', 'matomo_'];

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMETERS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The key two URLs share when they show the same page: scheme, `www.`, default port, trailing slash,
 * fragment, host letter case, parameter order and tracking parameters do not count. Returns the input,
 * lower-cased, when it is not a URL, so odd values still deduplicate with themselves.
 */
export function canonicalUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return value.trim().toLowerCase();
  }
  // URL already lower-cases the host and drops the scheme's default port.
  const host = url.hostname.replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : '';
  const path = samePercentEncoding(url.pathname).replace(/\/+$/, '');
  const parameters = [...url.searchParams.entries()]
    .filter(([name]) => !isTracking(name))
    .sort(([nameA, valueA], [nameB, valueB]) => (nameA === nameB ? valueA.localeCompare(valueB) : nameA.localeCompare(nameB)));
  const search = parameters.length > 0 ? `?${new URLSearchParams(parameters).toString()}` : '';
  return `${host}${port}${path}${search}`;
}

/** `%3A` and `:`, `%27` and `'`, `%C3%A9` and `é` name the same path: decode, then encode one way. */
function samePercentEncoding(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        // Sub-delimiters are legal raw in a path segment; keep them raw so both spellings meet.
        return encodeURIComponent(decodeURIComponent(segment)).replace(/%(3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi, (escape) =>
          decodeURIComponent(escape),
        );
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** The host a result lives on, without `www.`, for display and domain filters. */
export function domainOf(value: string): string | undefined {
  try {
    const host = new URL(value).hostname.toLowerCase();
    return host.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}
