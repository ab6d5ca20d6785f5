// A search as the page holds it ({ q, kind, providers, timeout, explain, filters }, and from the address bar also what
// the service would refuse of it: refusedKind, refusedTimeout, refusedFilters, and the other kind's filters, aside), to
// and from the address bar, and the parameters the service takes for it: what a shared link, Back and Forward, and
// each request are made of.

import { deadlineFromAddress, filterFromAddress, KINDS, kindFromAddress } from './address-filters.js';

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
 * `providers=auto` (in any letter case, as the service reads it): the service chooses the providers by the query, and
 * its answer says which (`routing`). The page holds it as the one-entry list ['auto'], which it sends as written.
 */
export const AUTO_PROVIDERS = 'auto';

/** Whether `providers` (a search's, or a link's) asks the service to choose them by the query. */
export function asksForAuto(providers) {
  return providers?.length === 1 && providers[0].toLowerCase() === AUTO_PROVIDERS;
}

/**
 * The state the address bar describes; missing (or empty) values fall back to the defaults. A value the service
 * would refuse is kept apart, as the address wrote it (address-filters.js): a kind (`refusedKind`, the page then shows
 * the web's fields), a deadline (`refusedTimeout`), a filter value (`refusedFilters`, by name). So are the other kind's
 * filters the address names (`aside`: that kind, the texts `asked` by name, and read as its fields read them). The
 * page says each, on its field where it has one, and does not search, rather than search without it.
 */
export function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  const { value: givenKind, refused: refusedKind } = kindFromAddress(params);
  const kind = givenKind || 'web';
  // As the service reads them: comma-separated, or the parameter repeated (providers=arxiv&providers=crossref), of which
  // the first alone was read, and the search asked fewer providers than the link named.
  const named = params.getAll('providers');
  const listed = named.length === 0 ? undefined : named.flatMap((text) => text.split(',')).map((name) => name.trim()).filter(Boolean);
  // Read as a provider named "auto", it checked no chip, and the page asked for one rather than let the service choose.
  const providers = asksForAuto(listed) ? [AUTO_PROVIDERS] : listed;
  const { value: timeout = '', refused: refusedTimeout } = deadlineFromAddress(params);
  const { filters, refusedFilters } = filtersFromAddress(params, FILTERS[kind]);
  const aside = asideOf(kind, params);
  // Trimmed as the form trims it: a link whose q is only spaces is the empty page, not a search for nothing.
  const q = params.get('q')?.trim() ?? '';
  return { q, kind, refusedKind, providers, timeout, refusedTimeout, explain: params.get('explain') === 'true', filters, refusedFilters, aside };
}

/**
 * The filters the address names of the kind other than `kind` (`aside`): the texts `asked` by name, and read as that
 * kind's fields read them. A search of `kind` is sent without them.
 */
export function asideOf(kind, params = new URLSearchParams(location.search)) {
  const otherKind = KINDS.find((other) => other !== kind);
  // Named with a value, as written: an empty one is none, as for the kind's own filters.
  const asked = Object.fromEntries(FILTERS[otherKind].map((name) => [name, params.getAll(name)]).filter(([, texts]) => texts.some(Boolean)));
  return { kind: otherKind, asked, ...filtersFromAddress(params, Object.keys(asked)) };
}

/** The filters `names` of the address's `params`: those the service takes (`filters`), and those it would refuse. */
function filtersFromAddress(params, names) {
  const filters = {};
  const refusedFilters = {};
  for (const name of names) {
    const { value, refused } = filterFromAddress(params, name);
    if (refused) refusedFilters[name] = refused;
    else if (value) filters[name] = value;
  }
  return { filters, refusedFilters };
}

/**
 * The address of a search's state: the one a link to it is shared by. A link's filters of the other kind (`aside`, not
 * yet said: the key is still asked for) stay as the link wrote them.
 */
export function urlFor(state) {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  params.set('kind', state.kind);
  if (state.providers?.length) params.set('providers', state.providers.join(','));
  setFilters(params, state.filters);
  for (const [name, texts] of Object.entries(state.aside?.asked ?? {})) for (const text of texts) params.append(name, text);
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
