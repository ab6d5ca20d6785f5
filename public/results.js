// Renders merged results. Everything from the API goes in as text (textContent), never as HTML, and only
// http(s) addresses become links; a document of the embedded index (local:///) gets a button that shows it here.

/** A small element helper: tag, class, text and attributes. */
export function element(tag, { className, text, attributes } = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

function httpUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The note under the Results heading (index.html) saying that links open in a new tab: each link names it as its
 * description, so a screen reader says so on the link itself, after its name, rather than leave the user wondering
 * why Back does nothing. The name stays the link's own, short in a links list.
 */
const NEW_TAB_NOTE = 'new-tab-note';

/**
 * A link that opens in a new tab, or plain text when the address is not http(s). `hiddenText` goes after the visible
 * text for screen readers only: what tells this link apart from its neighbours that read the same ("PDF").
 */
function link(href, text, className, hiddenText) {
  const safe = httpUrl(href);
  if (!safe) return element('span', { className, text });
  const attributes = { href: safe, rel: 'noopener noreferrer', target: '_blank', 'aria-describedby': NEW_TAB_NOTE };
  return element('a', { className, attributes }, [text, hiddenText && element('span', { className: 'visually-hidden', text: hiddenText })]);
}

/**
 * The title of a result from the embedded index (`local:///api.md`): no browser opens that address, so it was plain
 * text, and the first result a new user clicked (on a machine with no keys, the only ones) did nothing. A button, not
 * a link: it opens the document's text over this page (document-view.js reads it through fetch_url), not an address.
 */
function documentOpener(url, text) {
  return element('button', { className: 'title open-document', text, attributes: { type: 'button', 'aria-haspopup': 'dialog', 'data-document': url } });
}

const LOCAL_SCHEME = 'local:///';

/** Whether `url` names a document of the embedded index, as the service tells such links apart (operations/local-documents.ts). */
function isLocalDocument(url) {
  return typeof url === 'string' && url.slice(0, LOCAL_SCHEME.length).toLowerCase() === LOCAL_SCHEME;
}

/** What a keyboard lands on in a result to open it: its links, and the button of a local document. */
export const RESULT_OPENERS = 'a, button.open-document';

function titleOf(result) {
  const text = result.title || result.url;
  return isLocalDocument(result.url) ? documentOpener(result.url, text) : link(result.url, text, 'title');
}

function domainOf(result) {
  if (result.domain) return result.domain;
  try {
    return new URL(result.url).hostname || result.url;
  } catch {
    return result.url;
  }
}

/**
 * Word boundaries as the browser finds them in any script. Cutting back to the last space emptied a Chinese or
 * Japanese snippet, which has none between its words: "2024年 联邦搜索…" showed as "2024年 …". Nor does a boundary fall
 * inside a character written as two UTF-16 units (𠀀, an emoji), which a cut at 400 units could split into a "�".
 */
const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });

function shorten(text, max) {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index } of WORDS.segment(text)) {
    if (index > max) break;
    end = index;
  }
  // One word longer than `max` (a long link): cut inside it, but not between the two halves of a character.
  const kept = end > 0 ? text.slice(0, end) : text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');
  return `${kept.trimEnd()} …`;
}

function authorsOf(authors) {
  if (!authors?.length) return undefined;
  return authors.length > 4 ? `${authors.slice(0, 3).join(', ')} et al.` : authors.join(', ');
}

function paperLine(result) {
  const parts = [
    authorsOf(result.authors),
    result.year ? String(result.year) : undefined,
    result.venue,
    typeof result.citation_count === 'number' ? `${result.citation_count.toLocaleString()} citations` : undefined,
  ].filter(Boolean);
  return parts.length ? element('p', { className: 'paper-line', text: parts.join(' · '), attributes: { dir: 'auto' } }) : undefined;
}

/** A DOI's doi.org link: `#` and `?` may be part of a DOI (`…;2-#`), so they are encoded, as the service does. */
function doiLink(doi) {
  return `https://doi.org/${encodeURI(doi).replace(/[?#]/g, encodeURIComponent)}`;
}

function paperLinks(result) {
  const links = [
    result.doi && link(doiLink(result.doi), `DOI ${result.doi}`),
    result.arxiv_id && link(`https://arxiv.org/abs/${result.arxiv_id}`, `arXiv ${result.arxiv_id}`),
    result.pmid && link(`https://pubmed.ncbi.nlm.nih.gov/${result.pmid}/`, `PubMed ${result.pmid}`),
    // Every paper's PDF link reads "PDF": a screen reader's list of links said "PDF, PDF, PDF", naming no paper.
    result.pdf_url && link(result.pdf_url, 'PDF', undefined, ` of ${result.title || result.url}`),
  ].filter(Boolean);
  return links.length ? element('p', { className: 'paper-links' }, links) : undefined;
}

function sourceBadges(result) {
  const badges = result.sources.map((source) =>
    element('li', { className: 'badge', text: `${source.provider} #${source.rank}`, attributes: { title: `${source.provider} ranked it ${source.rank}` } }),
  );
  // role="list" as on the results list (index.html): unbulleted, WebKit no longer tells VoiceOver it is a list.
  return element('ul', { className: 'sources', attributes: { role: 'list', 'aria-label': 'Found by' } }, badges);
}

/** Why the score is what it is: each provider's weight / (k + rank), and their sum. */
function explanation(result) {
  if (!result.explain?.length) return undefined;
  const header = element('tr', {}, ['Provider', 'Rank', 'Weight', 'Contribution'].map((text) => element('th', { text, attributes: { scope: 'col' } })));
  const rows = result.explain.map((entry) =>
    element('tr', {}, [
      element('td', { text: entry.provider }),
      element('td', { text: String(entry.rank) }),
      element('td', { text: String(entry.weight) }),
      element('td', { text: entry.contribution.toFixed(5) }),
    ]),
  );
  const total = element('tr', { className: 'total' }, [
    element('th', { text: 'Score', attributes: { scope: 'row', colspan: '3' } }),
    element('td', { text: result.score.toFixed(5) }),
  ]);
  return element('table', { className: 'explain' }, [
    element('caption', { text: 'Score contributions: weight / (k + rank)' }),
    element('thead', {}, [header]),
    element('tbody', {}, [...rows, total]),
  ]);
}

function resultItem(result, kind) {
  const date = result.published_at && kind === 'web' ? ` · ${result.published_at.slice(0, 10)}` : '';
  const snippet = result.snippet ?? result.abstract;
  return element('li', { className: 'result' }, [
    // dir="auto": each text takes its direction from its own first letters. Under the page's ltr, a Hebrew or Arabic
    // title or snippet put its question mark and full stop at the wrong end, and the words either side of a Latin
    // phrase swapped places.
    element('h3', { attributes: { dir: 'auto' } }, [titleOf(result)]),
    element('p', { className: 'meta', text: `${domainOf(result)}${date}` }),
    kind === 'papers' ? paperLine(result) : undefined,
    snippet ? element('p', { className: 'snippet', text: shorten(snippet, 400), attributes: { dir: 'auto' } }) : undefined,
    kind === 'papers' ? paperLinks(result) : undefined,
    sourceBadges(result),
    explanation(result),
  ]);
}

/** Each list's items as last rendered, by the result they show (kind and JSON), for renderResults to reuse. */
const renderedItems = new WeakMap();

/**
 * Shows the given results in the list (each `results` event carries the whole fused list so far). A result that
 * did not change keeps its item, and items are only moved where the order changed: replacing every item on each
 * event took keyboard focus (and a screen reader's place) off a result the moment the next provider answered.
 */
export function renderResults(list, results, kind) {
  const previous = renderedItems.get(list) ?? new Map();
  const current = new Map();
  const items = results.map((result) => {
    const key = `${kind} ${JSON.stringify(result)}`;
    const item = previous.get(key) ?? resultItem(result, kind);
    // Taken once: a result listed twice still gets two items.
    previous.delete(key);
    current.set(key, item);
    return item;
  });
  renderedItems.set(list, current);
  // The items that go, first: left in place, they would push the kept ones out of position, and each would be moved.
  const wanted = new Set(items);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  items.forEach((item, index) => {
    const there = list.children[index];
    if (there !== item) list.insertBefore(item, there ?? null);
  });
}

/**
 * Adds a later page's results below the list, leaving out any whose URL `shown` already holds (the service
 * repeats none, but a page that grew between two answers must still not show one twice). Returns the items added.
 */
export function appendResults(list, results, kind, shown) {
  const fresh = results.filter((result) => !shown.has(result.url));
  for (const result of fresh) shown.add(result.url);
  const items = fresh.map((result) => resultItem(result, kind));
  list.append(...items);
  return items;
}
