// A search as the page holds it ({ q, kind, providers, timeout, explain, filters }, and from the address bar also
// refusedFilters), to and from the address bar, and the parameters the service takes for it: what a shared link, Back
// and Forward, and each request are made of.

import { filterFromAddress } from './address-filters.js';

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

/**
 * The state the address bar describes; unknown or missing values fall back to the defaults. A filter value the service
 * would refuse is not in `filters` but in `refusedFilters`, by name, as the address wrote it (address-filters.js): the
 * page says so on its field and does not search, rather than search without it.
 */
export function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  const kind = KINDS.includes(params.get('kind')) ? params.get('kind') : 'web';
  const providers = params.get('providers')?.split(',').map((name) => name.trim()).filter(Boolean);
  const filters = {};
  const refusedFilters = {};
  for (const name of FILTERS[kind]) {
    const { value, refused } = filterFromAddress(params, name);
    if (refused) refusedFilters[name] = refused;
    else if (value) filters[name] = value;
  }
  // Trimmed as the form trims it: a link whose q is only spaces is the empty page, not a search for nothing.
  return { q: params.get('q')?.trim() ?? '', kind, providers, timeout: params.get('timeout_ms') ?? '', explain: params.get('explain') === 'true', filters, refusedFilters };
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
