// A search as the page holds it ({ q, kind, providers, timeout, explain, filters }), to and from the address bar, and
// the parameters the service takes for it: what a shared link, Back and Forward, and each request are made of.

const KINDS = ['web', 'papers'];

/**
 * The filters each kind of search takes (docs/providers.md "Filters"), under the API's own names in the address bar
 * too, as q, providers and timeout_ms are: a link to the page and a request to the API read alike. A search holds
 * only its own kind's: the other kind's would be refused by the service as unknown fields.
 */
export const FILTERS = {
  web: ['time_range', 'language', 'safesearch', 'include_domains', 'exclude_domains'],
  papers: ['year_from', 'year_to', 'open_access'],
};

/** The state the address bar describes; unknown or missing values fall back to the defaults. */
export function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  const kind = KINDS.includes(params.get('kind')) ? params.get('kind') : 'web';
  const providers = params.get('providers')?.split(',').map((name) => name.trim()).filter(Boolean);
  const filters = {};
  for (const name of FILTERS[kind]) {
    const value = filterFromUrl(params, name);
    if (value) filters[name] = value;
  }
  // Trimmed as the form trims it: a link whose q is only spaces is the empty page, not a search for nothing.
  return { q: params.get('q')?.trim() ?? '', kind, providers, timeout: params.get('timeout_ms') ?? '', explain: params.get('explain') === 'true', filters };
}

/** The filters whose value is a list: the service also takes each entry as a parameter of its own. */
const LIST_FILTERS = ['include_domains', 'exclude_domains'];

/**
 * Filter `name` as the service reads the same parameter, so that a link written for the API searches alike here:
 * a repeated list (`include_domains=a.org&include_domains=b.org`) is every entry, not the first only, and
 * `open_access=1` is true. Read otherwise, the page searched for other than the link asked, without a word
 * (the first domain only, or every paper).
 */
function filterFromUrl(params, name) {
  if (LIST_FILTERS.includes(name)) {
    return params
      .getAll(name)
      .map((entry) => entry.trim())
      .filter(Boolean)
      .join(',');
  }
  const value = params.get(name)?.trim();
  if (name === 'open_access') return value === 'true' || value === '1' ? 'true' : '';
  return value;
}

/** The address of a search's state: the one a link to it is shared by. */
export function urlFor(state) {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  params.set('kind', state.kind);
  if (state.providers?.length) params.set('providers', state.providers.join(','));
  setFilters(params, state.filters);
  if (state.timeout) params.set('timeout_ms', state.timeout);
  if (state.explain) params.set('explain', 'true');
  return `${location.pathname}?${params}`;
}

/** The search's parameters, as the stream and the plain route both take them (so More results keeps the filters). */
export function searchParams(state, page = 1) {
  const params = new URLSearchParams({ q: state.q, providers: state.providers.join(','), explain: 'true' });
  setFilters(params, state.filters);
  if (state.timeout) params.set('timeout_ms', state.timeout);
  if (page > 1) params.set('page', String(page));
  return params;
}

function setFilters(params, filters = {}) {
  for (const [name, value] of Object.entries(filters)) params.set(name, value);
}
