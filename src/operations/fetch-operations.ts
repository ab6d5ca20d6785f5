import { boundedText } from '../domain/cut-text.js';
import { FedsearchError } from '../domain/errors.js';
import { DOCUMENT_BOUNDS } from '../fetch/document-bounds.js';
import { extractDocument, pageText } from '../fetch/extract.js';
import { readDeadline, readFetchSettings, timeLeft, type FetchSettings, type ReadDeadline } from '../fetch/fetch-settings.js';
import { ALLOWED_ADDRESSES, checkFetchTarget } from '../fetch/fetch-target.js';
import { slotWaitNote, type SlotWait } from '../fetch/lookup-slots.js';
import { readWithin, type WholeRead } from '../fetch/read-cache.js';
import { safeFetch } from '../fetch/safe-fetch.js';
import { fetchInput, MAX_LINKS, type FetchedPage, type FetchInput } from './fetched-page.js';
import { isLocalLink, readLocalDocument } from './local-documents.js';
import { callOptions, defineOperation, type OperationContext } from './operation.js';
import { fetchedPageOutput } from './output-schemas.js';
import { renderLinks } from './render-links.js';
import { renderTextPage } from './render-text-page.js';

function fetchTimeoutMs(settings: FetchSettings, input: FetchInput): number {
  return Math.min(settings.timeoutMs, input.timeout_ms ?? Number.POSITIVE_INFINITY);
}

/** Less than this left of timeout_ms, and a failed direct fetch is not retried through Firecrawl (timeout_ms' minimum). */
const MIN_FALLBACK_MS = 100;

/** A page read whole, before paging: what fetch_url keeps for the next pages of it (fetch/read-cache.ts). */
interface PageRead extends WholeRead {
  final_url: string;
  engine: 'direct' | 'firecrawl';
  content_type: string;
  links: FetchedPage['links'];
  title?: string;
  byline?: string;
  published_at?: string;
}

/** Where a page read by an engine is kept. The URL as the caller wrote it: every later page is asked for by it. */
function readKey(engine: PageRead['engine'], url: string): string {
  return `page ${engine} ${url}`;
}

/**
 * Said in place of a fetched HTML page's text when it has none: most often an application's shell, whose content
 * its scripts write in a browser. An empty success read as an empty page, with nothing to tell the caller why.
 */
const NO_HTML_TEXT_NOTE =
  '[No text was found in this page: its content may be written by JavaScript in a browser, which is not run here; engine "firecrawl" renders such pages where it is configured.]';

/**
 * A page already read whole by an engine the caller allows. `auto` takes either: the next page of a document
 * Firecrawl read after the direct fetch failed comes from that same text, so its offsets mean what they meant.
 */
function keptPageRead(input: FetchInput, context: OperationContext): PageRead | undefined {
  const reads = context.reads;
  if (!reads) return undefined;
  if (input.engine !== 'firecrawl') {
    const direct = reads.get<PageRead>(readKey('direct', input.url), input.timeout_ms);
    if (direct || input.engine === 'direct') return direct;
  }
  return reads.get<PageRead>(readKey('firecrawl', input.url), input.timeout_ms);
}

function kept(read: PageRead, input: FetchInput, context: OperationContext): PageRead {
  context.reads?.set(readKey(read.engine, input.url), read);
  return read;
}

/** The page fetch_url answers: the part of the read that offset and max_chars ask for. */
function pageOf(read: PageRead, input: FetchInput): FetchedPage {
  const page: FetchedPage = {
    url: input.url,
    final_url: read.final_url,
    engine: read.engine,
    content_type: read.content_type,
    links: read.links,
    ...pageText(read.markdown, input.offset, input.max_chars),
  };
  if (read.title) page.title = read.title;
  if (read.byline) page.byline = read.byline;
  if (read.published_at) page.published_at = read.published_at;
  return page;
}

async function fetchDirect(input: FetchInput, context: OperationContext, deadline: ReadDeadline): Promise<PageRead> {
  const settings = readFetchSettings(context.config);
  const document = await safeFetch(input.url, { ...settings, timeoutMs: timeLeft(settings, deadline.at), signal: context.signal, lookup: context.resolveHost });
  // The deadline bounds a PDF's reading too: the caller is answered by it, not after the grace for a slow page.
  const extracted = await extractDocument(document, { maxChars: settings.maxBytes, timeMs: timeLeft(settings, deadline.at), signal: context.signal, deadline });
  const read: PageRead = {
    final_url: document.finalUrl,
    engine: 'direct',
    content_type: extracted.content_type,
    links: extracted.links.slice(0, MAX_LINKS),
    markdown: document.kind === 'html' && extracted.markdown.trim() === '' ? NO_HTML_TEXT_NOTE : extracted.markdown,
    ...readWithin(extracted, input.timeout_ms, settings.timeoutMs),
  };
  if (extracted.title) read.title = extracted.title;
  if (extracted.byline) read.byline = extracted.byline;
  if (extracted.published_at) read.published_at = extracted.published_at;
  return kept(read, input, context);
}

/**
 * The same address rules as a direct fetch, checked here before Firecrawl hears of the URL: Firecrawl
 * fetches from wherever it runs (a self-hosted one from this network), so it must not become a way to
 * reach what our own fetcher refuses. It is given the URL as checked (WHATWG-normalised), not as typed.
 */
async function checkedForFirecrawl(input: FetchInput, context: OperationContext): Promise<string> {
  const settings = readFetchSettings(context.config);
  const timeoutMs = fetchTimeoutMs(settings, input);
  const deadline = AbortSignal.timeout(timeoutMs);
  const lookupWait: SlotWait = {};
  try {
    const target = await checkFetchTarget(input.url, {
      allowPrivate: settings.allowPrivate,
      nat64Prefixes: settings.nat64Prefixes,
      lookup: context.resolveHost,
      signal: AbortSignal.any([context.signal, deadline]),
      lookupWait,
    });
    return target.url.href;
  } catch (error) {
    if (deadline.aborted && !context.signal.aborted) {
      // Out of time in the queue for a lookup slot, when it was, as a direct fetch says (lookup-slots.ts).
      throw new FedsearchError('FETCH_TIMEOUT', `resolving the host of ${input.url} took longer than ${timeoutMs} ms${slotWaitNote(lookupWait)}`, { cause: error });
    }
    throw error;
  }
}

/** What a scrape whose landing cannot be checked would have needed, and the engine that needs nothing of Firecrawl. */
const CHECKABLE_SCRAPE = 'allowed: a scrape whose answer names a valid http(s) address it landed on (metadata.url), or engine "direct", which reads the page here';

/**
 * Where Firecrawl says the page it scraped was (`metadata.url`, after redirects) must pass the same rules: it follows
 * redirects itself, so a public URL that redirects to 169.254.169.254 or an intranet name passed the first check and
 * still had Firecrawl read the address behind it. Nothing it read from there is handed on. The landing host is asked
 * again even when it is the host that passed: Firecrawl asked DNS for it itself, after our check, and a rebinding
 * name (public to the first question, 10.0.0.1 to the next) sent it to a private address under the very name that
 * passed; its answer now is the best evidence of what Firecrawl's was. A host it was redirected away from is not:
 * what it read came from the landing. An answer that does not say where it landed is withheld too: the address it
 * was asked (`sourceURL`) or the page's own `og:url` says nothing of a redirect, and every v2 scrape reports `url`.
 * With FETCH_ALLOW_PRIVATE there is nothing to check.
 */
async function refuseForbiddenLanding(landing: string | undefined, checkedUrl: string, input: FetchInput, context: OperationContext): Promise<void> {
  const settings = readFetchSettings(context.config);
  if (settings.allowPrivate) return;
  if (landing === undefined) {
    throw new FedsearchError(
      'FETCH_FORBIDDEN',
      `refused: Firecrawl did not say where it landed after following redirects from ${checkedUrl} (its answer has no http(s) metadata.url), so what it read cannot be checked against the address rules; ${CHECKABLE_SCRAPE}`,
    );
  }
  let landed: URL;
  try {
    landed = new URL(landing);
  } catch {
    throw new FedsearchError('FETCH_FORBIDDEN', `refused: Firecrawl named no valid address for the page it scraped; ${CHECKABLE_SCRAPE}`);
  }
  try {
    await checkedForFirecrawl({ ...input, url: landed.href }, context);
  } catch (error) {
    if (!(error instanceof FedsearchError) || error.code === 'FETCH_TIMEOUT') throw error;
    const how =
      landed.hostname === new URL(checkedUrl).hostname
        ? `${landed.hostname} no longer passes the address rules after Firecrawl read ${checkedUrl}`
        : `Firecrawl was redirected from ${checkedUrl} to an address not fetched here`;
    // The check's own refusal says what is allowed; a landing that does not resolve here gets the address rule's.
    const why = error.code === 'FETCH_FORBIDDEN' ? error.message.replace(/^refused: /, '') : `${error.message}; ${ALLOWED_ADDRESSES}`;
    throw new FedsearchError('FETCH_FORBIDDEN', `refused: ${how}: ${why}`, { cause: error });
  }
}

/** `timeoutMs`: the caller's timeout_ms, or what the direct fetch left of the read's deadline for a fallback. */
async function fetchThroughFirecrawl(input: FetchInput, context: OperationContext, timeoutMs = input.timeout_ms): Promise<PageRead> {
  const checkedUrl = await checkedForFirecrawl({ ...input, timeout_ms: timeoutMs }, context);
  const scraped = await context.search.call('firecrawl', 'scrape', { url: checkedUrl }, callOptions(context, timeoutMs));
  await refuseForbiddenLanding(scraped.url, checkedUrl, input, context);
  // Only with FETCH_ALLOW_PRIVATE may the landing be unknown: the address asked is then the best there is.
  const read: PageRead = { final_url: scraped.url ?? checkedUrl, engine: 'firecrawl', content_type: 'text/markdown', links: [], markdown: scraped.markdown };
  // Bounded as a page fetched here is (fetch/document-bounds.ts): the title comes with every page of the text.
  if (scraped.title) read.title = boundedText(scraped.title, DOCUMENT_BOUNDS.title);
  if (scraped.published) read.published_at = scraped.published;
  return kept(read, input, context);
}

async function readPage(input: FetchInput, context: OperationContext): Promise<PageRead> {
  if (input.engine === 'firecrawl') return fetchThroughFirecrawl(input, context);
  // Without timeout_ms the read still has READ_TIMEOUT_MS in all: the direct fetch, its reading and the fallback.
  const deadline = readDeadline(readFetchSettings(context.config), input.timeout_ms);
  try {
    return await fetchDirect(input, context, deadline);
  } catch (error) {
    // A page that failed to load here (blocked, timed out) may still load through Firecrawl; a refused
    // address or type is never retried elsewhere, and Firecrawl only gets a URL that passes the same check
    // (so a name that does not resolve here is not handed on either). A suspended Firecrawl is no fallback:
    // the page's own error says more than "Firecrawl is suspended". Busy PDF readers (PDF_READERS_BUSY) are no
    // reason either: the page loaded, and a flood of PDFs must not become a flood of paid scrapes; the caller is
    // told to retry.
    const retryable = error instanceof FedsearchError && (error.code === 'FETCH_FAILED' || error.code === 'FETCH_TIMEOUT');
    if (input.engine !== 'auto' || !retryable || !context.search.isAdmissible('firecrawl')) throw error;
    // Firecrawl has what the direct fetch left of timeout_ms (READ_TIMEOUT_MS without one), and nothing when it
    // used it up: the deadline bounds the whole call, as paper_read's does, not each engine in turn.
    const left = Math.round(deadline.at - performance.now());
    if (left < MIN_FALLBACK_MS) throw error;
    return fetchThroughFirecrawl(input, context, left);
  }
}

export const fetchUrl = defineOperation({
  name: 'fetch_url',
  description:
    'Fetch a web page (HTML, text, JSON or PDF) and return its main content as Markdown with title, byline, date and links, paged by offset. ' +
    'Internal and private addresses are refused, whichever engine fetches. local:/// links from search results are read from the embedded index. ' +
    'Fails, saying why, when the page cannot be read.',
  notFound: 'a local:/// link names no document of the embedded index, or the local provider is turned off',
  input: fetchInput,
  example: { url: 'https://en.wikipedia.org/wiki/Metasearch_engine', max_chars: 4000 },
  output: fetchedPageOutput,
  run: async (input, context) => {
    if (isLocalLink(input.url)) return readLocalDocument(input, context);
    return pageOf(keptPageRead(input, context) ?? (await readPage(input, context)), input);
  },
  render: (output) => {
    const header = [output.title ?? output.final_url, output.final_url, output.byline, output.published_at].filter(Boolean).join('\n');
    return renderTextPage('fetch_url', header, output, renderLinks(output.links));
  },
});
