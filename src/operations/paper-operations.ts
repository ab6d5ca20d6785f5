import { z } from 'zod';
import { FedsearchError, type ErrorCode } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { PaperIdentifier } from '../domain/paper-identifiers.js';
import type { SearchResult } from '../domain/result.js';
import { canonicalUrl } from '../engine/canonical-url.js';
import type { PaperLookup } from '../engine/paper-lookup.js';
import { extractDocument, pageText, type ExtractedDocument, type TextPage } from '../fetch/extract.js';
import { readDeadline, readFetchSettings, timeLeft, type FetchSettings, type ReadDeadline } from '../fetch/fetch-settings.js';
import { keptRead, readWithin, type WholeRead } from '../fetch/read-cache.js';
import { safeFetch, type FetchedDocument } from '../fetch/safe-fetch.js';
import { callOptions, defineOperation, type OperationContext } from './operation.js';
import { paperDetailsOutput, paperTextOutput } from './output-schemas.js';
import { parsePaperIdentifier } from './paper-identifier.js';
import { renderSearch } from './render.js';
import { renderTextPage } from './render-text-page.js';

const paperId = z.string().trim().min(1).max(300).describe('DOI, arXiv id (any version), PMID, PMCID (PMC1234567) or Semantic Scholar id, or a link to one.');
const timeoutMs = z.number().int().min(100).max(30_000).optional().describe('Deadline in milliseconds (100–30000).');

export interface PaperDetails {
  id: string;
  identifier: { type: string; value: string };
  paper: SearchResult;
  providers: ProviderOutcome[];
}

/** One merged record for an identifier, from every paper provider that knows it. */
export async function findPaper(id: string, context: OperationContext, timeout?: number): Promise<PaperDetails> {
  const identifier = parsePaperIdentifier(id);
  const { result, providers } = await lookupOnce(identifier, context, timeout);
  if (!result) throw lookupFailure(identifier, providers);
  return { id, identifier, paper: result, providers };
}

/** The lookup of an identifier, shared with the other steps of the operation when it keeps them (paperLookups). */
function lookupOnce(identifier: PaperIdentifier, context: OperationContext, timeout: number | undefined): Promise<PaperLookup> {
  const lookups = context.paperLookups;
  if (!lookups) return context.search.lookupPaper(identifier, callOptions(context, timeout));
  const key = `${identifier.type}:${identifier.value}:${timeout ?? ''}`;
  let lookup = lookups.get(key);
  if (!lookup) {
    lookup = context.search.lookupPaper(identifier, callOptions(context, timeout));
    lookups.set(key, lookup);
  }
  return lookup;
}

/** Outcomes of providers that were not asked because of our own limits: the breaker, the outbound rate limit. */
const HELD_BACK: ReadonlySet<ProviderOutcome['status']> = new Set(['suspended', 'rate_limited']);

/**
 * Why a lookup found nothing. "Not found" (404) is only true when every provider that could look the identifier
 * up answered and none knew the paper: PubMed not knowing a DOI while Crossref timed out says nothing of whether
 * the paper exists, and an agent told 404 would conclude it does not. So: when no provider could be asked at all,
 * each held back by our own breaker (suspended) or outbound rate limit (rate_limited), or not configured, it is
 * 503 with Retry-After at the earliest moment one of them can be asked (PROVIDER_SUSPENDED when every one held back
 * is suspended, else OUTBOUND_RATE_LIMITED): the caller need only wait, nothing failed upstream. When some were
 * asked and any failed, timed out or was held back it is 502, naming who answered "unknown" and who did not
 * answer, with Retry-After too when every one that did not answer was held back; not-configured and skipped
 * providers count for neither. The providers' outcomes go with the error either way.
 */
function lookupFailure(identifier: { type: string; value: string }, providers: ProviderOutcome[]): FedsearchError {
  const asked = providers.filter((provider) => provider.status !== 'skipped');
  const summary = asked.map((provider) => `${provider.provider}: ${provider.status}${provider.message ? ` (${provider.message})` : ''}`).join(', ');
  const what = `${identifier.type} ${identifier.value}`;
  const details = { providers };
  if (asked.every((provider) => HELD_BACK.has(provider.status) || provider.status === 'not_configured')) {
    const held = asked.filter((provider) => HELD_BACK.has(provider.status));
    const waits = held.flatMap((provider) => (provider.retry_after_ms !== undefined ? [provider.retry_after_ms] : []));
    const retryAfterMs = waits.length > 0 ? Math.min(...waits) : undefined;
    const code =
      held.length === 0 ? 'PROVIDER_NOT_CONFIGURED' : held.every((provider) => provider.status === 'suspended') ? 'PROVIDER_SUSPENDED' : 'OUTBOUND_RATE_LIMITED';
    const when = retryAfterMs === undefined ? '' : `; try again in ${Math.ceil(retryAfterMs / 1000)} s`;
    return new FedsearchError(code, `no paper provider can look up ${what} now (${summary || `none can look up ${identifier.type} identifiers`})${when}`, {
      details,
      retryAfterMs,
    });
  }
  const answered = asked.filter((provider) => provider.status === 'ok').map((provider) => provider.provider);
  const failures = asked.filter((provider) => provider.status !== 'ok' && provider.status !== 'not_configured');
  const failed = failures.map((provider) => provider.provider);
  if (failed.length === 0) return new FedsearchError('NOT_FOUND', `no provider knows ${what} (${summary})`, { details });
  const who =
    answered.length === 0
      ? 'no paper provider answered'
      : `${answered.join(', ')} answered and did not know it, but ${failed.join(', ')} did not answer`;
  // Every one that did not answer was held back by our own limits: when the first can be asked is known, so said.
  const retryAfterMs = failures.every((provider) => HELD_BACK.has(provider.status) && provider.retry_after_ms !== undefined)
    ? Math.min(...failures.map((provider) => provider.retry_after_ms!))
    : undefined;
  const when = retryAfterMs === undefined ? 'try again later' : `try again in ${Math.ceil(retryAfterMs / 1000)} s`;
  return new FedsearchError('PROVIDERS_FAILED', `could not look up ${what}: ${who} (${summary}); the paper may exist, ${when}`, { details, retryAfterMs });
}

export const paperDetails = defineOperation({
  name: 'paper_details',
  description: 'Look a paper up by DOI, arXiv id, PMID, PMCID or Semantic Scholar id across every paper provider at once; one merged record with every source.',
  input: z.strictObject({ id: paperId, timeout_ms: timeoutMs }),
  example: { id: '10.1038/nature14539' },
  output: paperDetailsOutput,
  run: (input, context) => findPaper(input.id, context, input.timeout_ms),
  render: (output) => {
    // Providers that cannot look up this kind of identifier (skipped) are no news; one that failed or lacks its key is.
    const providers = output.providers.filter((provider) => provider.status !== 'skipped');
    const record = renderSearch({ query: output.id, kind: 'papers', results: [output.paper], providers, page: 1, has_more: false, took_ms: 0, cached: false, cache_age_ms: 0 });
    return record + (output.paper.abstract ? `\n\nAbstract: ${output.paper.abstract}` : '');
  },
});

/**
 * Where a paper's full text can be fetched, best first: every open PDF link its sources gave (pdf_url first), then
 * arXiv's PDF for an arXiv paper. The link a provider gives is often a publisher's (refused, or a landing page)
 * while another source knows a repository's copy; arXiv's PDF is the real one.
 */
function pdfLocations(paper: SearchResult, context: OperationContext): string[] {
  const locations = paper.pdf_urls ? paper.pdf_urls.slice() : paper.pdf_url ? [paper.pdf_url] : [];
  const arxivBase = paper.arxiv_id ? context.search.baseUrlOf('arxiv') : undefined;
  const arxivPdf = arxivBase ? `${arxivBase}/pdf/${paper.arxiv_id}` : undefined;
  if (arxivPdf && !locations.some((location) => canonicalUrl(location) === canonicalUrl(arxivPdf))) locations.push(arxivPdf);
  return locations;
}

/**
 * Downloads a paper's PDF (by identifier or URL) through the safe fetcher. The caller's `timeout_ms`, else
 * READ_TIMEOUT_MS, bounds the whole of it, lookup and download, and each location gets at most FETCH_TIMEOUT_MS of
 * it; `deadline` is that deadline, which reading the document must keep too. A paper's locations are
 * tried in turn while one fails, is too large, runs out of its own FETCH_TIMEOUT_MS or is not a PDF: the first PDF
 * wins, else the first document that answered (a landing page still has text), else an error naming every location
 * and why it failed. `tried` lists the locations asked, in order. `readPdf`, when given, reads each PDF of a paper
 * where it is found, and its reading comes back as `read`: a PDF it cannot read (broken, truncated, locked by a
 * password, too large to read) is passed over as a location that failed, so another source's copy is read instead
 * of the whole read failing on the first source's file.
 */
export async function downloadPaper<Read = never>(
  input: { id?: string | undefined; url?: string | undefined; timeout_ms?: number | undefined },
  context: OperationContext,
  readPdf?: (download: PaperDownload) => Promise<Read>,
): Promise<PaperDownload & { read?: Read }> {
  const settings = readFetchSettings(context.config);
  const whole = readDeadline(settings, input.timeout_ms);
  const deadline = whole.at;
  const fetchLocation = (location: string): Promise<FetchedDocument> =>
    safeFetch(location, { ...settings, timeoutMs: timeLeft(settings, deadline), signal: context.signal, lookup: context.resolveHost });
  if (input.url) return { document: await fetchLocation(input.url), deadline: whole, tried: [input.url] };
  const { paper, providers } = await findPaper(input.id!, context, input.timeout_ms);
  const locations = pdfLocations(paper, context);
  if (locations.length === 0) throw noOpenPdf(input.id!, paper, providers);
  let answered: FetchedDocument | undefined;
  const failures: LocationFailure[] = [];
  const tried: string[] = [];
  for (const location of locations) {
    tried.push(location);
    // Decided before the fetch: whether a timeout would be FETCH_TIMEOUT_MS's (time is left) or the deadline's.
    const deadlineBinds = deadline - performance.now() <= settings.timeoutMs;
    let document: FetchedDocument;
    try {
      document = await fetchLocation(location);
    } catch (error) {
      if (!(error instanceof FedsearchError)) throw error;
      if (error.code === 'FETCH_TIMEOUT' && deadlineBinds) throw outOfTime(input.id!, whole, failures, { location, error }, locations.slice(tried.length));
      if (!PASSED_OVER.has(error.code)) throw error;
      failures.push({ location, error });
      continue;
    }
    if (document.kind !== 'pdf') {
      answered ??= document;
      continue;
    }
    const download: PaperDownload = { document, paper, deadline: whole, tried };
    if (!readPdf) return download;
    try {
      return { ...download, read: await readPdf(download) };
    } catch (error) {
      if (!(error instanceof FedsearchError) || !UNREADABLE_PDF.has(error.code)) throw error;
      failures.push({ location, error });
    }
  }
  if (answered) return { document: answered, paper, deadline: whole, tried };
  throw everyLocationFailed(input.id!, failures);
}

/** Lookups that did not answer: their record, had they sent one, might have held a PDF link. */
const UNANSWERED: ReadonlySet<ProviderOutcome['status']> = new Set(['error', 'timeout', 'suspended', 'rate_limited']);

/**
 * A paper found with no PDF link: which sources know it and gave none, any that did not answer, and where its text
 * may still be read. "No open PDF is known" alone left a caller to guess whether anything had been asked.
 */
function noOpenPdf(id: string, paper: SearchResult, providers: ProviderOutcome[]): FedsearchError {
  const sources = [...new Set(paper.sources.map((source) => source.provider))];
  const unanswered = providers.filter((provider) => UNANSWERED.has(provider.status)).map((provider) => `${provider.provider} (${provider.status})`);
  const notHeard = unanswered.length === 0 ? '' : `; not heard from: ${unanswered.join(', ')}`;
  // A DOI leads to the publisher's page, where an abstract or the text may be; the record's own URL may be a catalogue's.
  const page = paper.doi ? `https://doi.org/${paper.doi} (the publisher's page)` : `${paper.url} (its page)`;
  // An arXiv paper is read from arXiv: only when the arxiv provider is off is its PDF not tried.
  const arxiv = paper.arxiv_id ? `arXiv's PDF of ${paper.arxiv_id} is not read (the arxiv provider is off)` : 'it has no arXiv id';
  return new FedsearchError(
    'NOT_FOUND',
    `no open PDF is known for ${id}: the sources that know it (${sources.join(', ')}) give no open PDF link, and ${arxiv}${notHeard}; try fetch_url on ${page}`,
  );
}

/**
 * What one of a paper's locations may fail with and leave the next worth trying: it failed on its own, is larger
 * than FETCH_MAX_BYTES, ran out of its own FETCH_TIMEOUT_MS, or the fetcher refused its address. The locations are
 * the providers' data, not the caller's choice (a URL the caller gives is fetched alone), so one source's slow or
 * oversized file, link to a private address, or poisoned record must not keep the paper from another source's link
 * or arXiv. Final are the caller's abort and a timeout that was the caller's deadline (see outOfTime): no time is
 * left for another location.
 */
const PASSED_OVER: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'FETCH_FAILED',
  'FETCH_UNSUPPORTED_TYPE',
  'FETCH_FORBIDDEN',
  'FETCH_TOO_LARGE',
  'FETCH_TIMEOUT',
]);

/**
 * What reading a downloaded PDF may fail with and leave another source's copy worth reading: the file is broken or
 * cut short (FETCH_FAILED), locked by a password (FETCH_UNSUPPORTED_TYPE), or needs more than a reader may use
 * (FETCH_TOO_LARGE). A reading out of the caller's time, or PDF readers all busy, is final.
 */
const UNREADABLE_PDF: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['FETCH_FAILED', 'FETCH_UNSUPPORTED_TYPE', 'FETCH_TOO_LARGE']);

/** A paper's document as downloadPaper found it, with what the reading of it needs. */
export interface PaperDownload {
  document: FetchedDocument;
  paper?: SearchResult | undefined;
  deadline: ReadDeadline;
  /** The locations asked, in order, this one last. */
  tried: string[];
}

interface LocationFailure {
  location: string;
  error: FedsearchError;
}

/**
 * One failed location's error as it is; several in one error, each reason naming its location (a refusal names
 * only the address it refused). Its code is the first fetched location's failure when there is one (502 when it
 * failed, 413 too large, 504 out of its time): a refusal's 400 would tell the caller that their request was at
 * fault, and they gave only the paper.
 */
function everyLocationFailed(id: string, failures: LocationFailure[]): FedsearchError {
  const first = failures[0]!.error;
  if (failures.length === 1) return first;
  const telling = failures.find(({ error }) => error.code !== 'FETCH_FORBIDDEN')?.error ?? first;
  return new FedsearchError(telling.code, `none of the ${failures.length} PDF locations known for ${id} could be read: ${reasonsOf(failures)}`, { cause: telling });
}

/**
 * The caller's deadline ran out at `last`: a timeout (504) whatever the earlier locations failed with, since more
 * time is what the caller can change. It still names every location: those that failed before, and those left
 * untried. Alone (the first location, no other left) the timeout is as it came.
 */
function outOfTime(id: string, deadline: ReadDeadline, failures: LocationFailure[], last: LocationFailure, untried: string[]): FedsearchError {
  if (failures.length === 0 && untried.length === 0) return last.error;
  const before = failures.length === 0 ? '' : `; before it: ${reasonsOf(failures)}`;
  const left = untried.length === 0 ? '' : `; not tried: ${untried.map(shownLocation).join(', ')}`;
  return new FedsearchError('FETCH_TIMEOUT', `the deadline for reading ${id} (${deadline.named} ms) ran out: cut at ${reasonOf(last)}${before}${left}`, {
    cause: last.error,
  });
}

/**
 * The downloaded document's reading ran out of the caller's deadline: a timeout naming the paper, the deadline, the
 * location it was read from and those tried before it (which failed, or answered with no PDF).
 */
function readingOutOfTime(paper: string, deadline: ReadDeadline, tried: string[], error: FedsearchError): FedsearchError {
  const read = tried.at(-1)!;
  // A URL the caller gave is the one location: named once.
  const where = read === paper ? '' : ` while reading ${shownLocation(read)}`;
  const before = tried.length > 1 ? `; tried before it: ${tried.slice(0, -1).map(shownLocation).join(', ')}` : '';
  return new FedsearchError('FETCH_TIMEOUT', `the deadline for reading ${shownLocation(paper)} (${deadline.named} ms) ran out${where}: ${error.message}${before}`, {
    cause: error,
  });
}

function reasonsOf(failures: LocationFailure[]): string {
  return failures.map(reasonOf).join('; ');
}

function reasonOf({ location, error }: LocationFailure): string {
  return error.message.includes(location) ? error.message : `${shownLocation(location)}: ${error.message}`;
}

/**
 * A location as a message names it: without a user name and password, which a provider's link may carry (the
 * fetcher refuses such a link, and its credentials are no one's to read in an error).
 */
function shownLocation(location: string): string {
  try {
    const url = new URL(location);
    if (url.username === '' && url.password === '') return location;
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return location;
  }
}


/** A paper is named by id or by url: never both, never neither. For `.superRefine` on a schema holding both. */
export function checkIdOrUrl(input: { id?: string | undefined; url?: string | undefined }, context: z.RefinementCtx): void {
  if ((input.id === undefined) !== (input.url === undefined)) return;
  context.addIssue({
    code: 'custom',
    path: ['id'],
    message: input.id === undefined ? 'missing, and so is url; allowed: exactly one of id or url' : 'sent together with url; allowed: exactly one of id or url',
    input: input.id,
  });
}

const readInput = z
  .strictObject({
    id: paperId.optional(),
    url: z.string().trim().url().optional().describe('A PDF (or paper page) URL to read instead of an identifier.'),
    offset: z.number().int().min(0).default(0).describe('Character offset to start from (for paging).'),
    max_chars: z.number().int().min(500).max(100_000).default(20_000).describe('Characters to return (500–100000, default 20000).'),
    timeout_ms: timeoutMs,
  })
  .superRefine(checkIdOrUrl);

export interface PaperText extends TextPage {
  url: string;
  title?: string;
  content_type: string;
  paper?: SearchResult;
}

/** A paper read whole, before paging: what paper_read keeps for the next pages of it (fetch/read-cache.ts). */
interface PaperRead extends WholeRead {
  url: string;
  content_type: string;
  title: string | undefined;
  paper: SearchResult | undefined;
}

/** Where a paper's read is kept: by its identifier (however it was written), or by the URL the caller gave. */
function readKey(input: { id?: string | undefined; url?: string | undefined }): string {
  if (input.url !== undefined) return `paper url ${input.url}`;
  const identifier = parsePaperIdentifier(input.id!);
  return `paper ${identifier.type} ${identifier.value}`;
}

/** The text of a downloaded document; a reading out of the caller's time names the paper and where it was read. */
async function extractPaper(download: PaperDownload, input: z.output<typeof readInput>, context: OperationContext): Promise<ExtractedDocument> {
  const { document, paper, deadline, tried } = download;
  const settings = readFetchSettings(context.config);
  // The deadline bounds the PDF's reading too: the caller is answered by it, not after the grace for a slow page.
  const limits = { maxChars: settings.maxBytes, timeMs: timeLeft(settings, deadline.at), signal: context.signal, deadline };
  return extractDocument({ ...document, fallbackTitle: paper?.title }, limits).catch((error: unknown) => {
    if (error instanceof FedsearchError && error.code === 'FETCH_TIMEOUT') throw readingOutOfTime(input.id ?? input.url!, deadline, tried, error);
    throw error;
  });
}

async function readPaper(input: z.output<typeof readInput>, context: OperationContext): Promise<PaperRead> {
  const download = await downloadPaper(input, context, (found) => extractPaper(found, input, context));
  const { document, paper } = download;
  const settings = readFetchSettings(context.config);
  // A PDF was read where it was found; a URL the caller gave, or a landing page, is read here.
  const extracted = download.read ?? (await extractPaper(download, input, context));
  return {
    url: document.finalUrl,
    content_type: extracted.content_type,
    title: extracted.title,
    markdown: extracted.markdown,
    paper,
    ...readWithin(extracted, input.timeout_ms, settings.timeoutMs),
  };
}

export const paperRead = defineOperation({
  name: 'paper_read',
  description: "Read a paper's full text: downloads its PDF (each open-access link its sources gave, then arXiv) and returns the text, paged by offset.",
  input: readInput,
  example: { id: 'arXiv:1706.03762', max_chars: 5000 },
  output: paperTextOutput,
  run: async (input, context): Promise<PaperText> => {
    const read = await keptRead(context.reads, readKey(input), () => readPaper(input, context), input.timeout_ms);
    const output: PaperText = { url: read.url, content_type: read.content_type, title: read.title, ...pageText(read.markdown, input.offset, input.max_chars) };
    if (read.paper) output.paper = read.paper;
    return output;
  },
  render: (output) => renderTextPage('paper_read', `${output.title ?? output.url}\n${output.url}`, output),
});
