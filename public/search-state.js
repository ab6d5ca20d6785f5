// A search as the page holds it ({ q, kind, providers, timeout, explain }), to and from the address bar, and the
// parameters the service takes for it: what a shared link, Back and Forward, and each request are made of.

const KINDS = ['web', 'papers'];

/** The state the address bar describes; unknown or missing values fall back to the defaults. */
export function stateFromUrl() {
  const params = new URLSearchParams(location.search);
  const kind = KINDS.includes(params.get('kind')) ? params.get('kind') : 'web';
  const providers = params.get('providers')?.split(',').map((name) => name.trim()).filter(Boolean);
  // Trimmed as the form trims it: a link whose q is only spaces is the empty page, not a search for nothing.
  return { q: params.get('q')?.trim() ?? '', kind, providers, timeout: params.get('timeout_ms') ?? '', explain: params.get('explain') === 'true' };
}

/** The address of a search's state: the one a link to it is shared by. */
export function urlFor(state) {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  params.set('kind', state.kind);
  if (state.providers?.length) params.set('providers', state.providers.join(','));
  if (state.timeout) params.set('timeout_ms', state.timeout);
  if (state.explain) params.set('explain', 'true');
  return `${location.pathname}?${params}`;
}

/** The search's parameters, as the stream and the plain route both take them. */
export function searchParams(state, page = 1) {
  const params = new URLSearchParams({ q: state.q, providers: state.providers.join(','), explain: 'true' });
  if (state.timeout) params.set('timeout_ms', state.timeout);
  if (page > 1) params.set('page', String(page));
  return params;
}
