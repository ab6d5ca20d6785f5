import { FedsearchError, type ErrorCode } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { SearchResult } from '../domain/result.js';
import { canonicalFileUrl } from '../engine/canonical-url.js';
import { readDeadline, readFetchSettings, timeLeft, type ReadDeadline } from '../fetch/fetch-settings.js';
import { safeFetch, type FetchedDocument } from '../fetch/safe-fetch.js';
import type { OperationContext } from './operation.js';
import { findPaper } from './find-paper.js';

/**
 * Where a paper's full text can be fetched, best first: every open PDF link its sources gave (pdf_url first), then
 * arXiv's PDF for an arXiv paper. The link a provider gives is often a publisher's (refused, or a landing page)
 * while another source knows a repository's copy; arXiv's PDF is the real one.
 */
function pdfLocations(paper: SearchResult, context: OperationContext): string[] {
  const locations = paper.pdf_urls ? paper.pdf_urls.slice() : paper.pdf_url ? [paper.pdf_url] : [];
  const arxivBase = paper.arxiv_id ? context.search.baseUrlOf('arxiv') : undefined;
  const arxivPdf = arxivBase ? `${arxivBase}/pdf/${paper.arxiv_id}` : undefined;
  if (arxivPdf && !locations.some((location) => canonicalFileUrl(location) === canonicalFileUrl(arxivPdf))) locations.push(arxivPdf);
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
 * One failed location's error naming that location, as each of several is named in one error: a PDF that could not
 * be read, or a refusal, says nothing of where it was (the paper was asked for by its id, not its URL). The code of
 * several is the first fetched location's failure when there is one (502 when it failed, 413 too large, 504 out of
 * its time): a refusal's 400 would tell the caller that their request was at fault, and they gave only the paper.
 */
function everyLocationFailed(id: string, failures: LocationFailure[]): FedsearchError {
  const first = failures[0]!.error;
  if (failures.length === 1) return locationNamed(failures[0]!);
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
export function readingOutOfTime(paper: string, deadline: ReadDeadline, tried: string[], error: FedsearchError): FedsearchError {
  const read = tried.at(-1)!;
  // A URL the caller gave is the one location: named once.
  const where = read === paper ? '' : ` while reading ${shownLocation(read)}`;
  const before = tried.length > 1 ? `; tried before it: ${tried.slice(0, -1).map(shownLocation).join(', ')}` : '';
  return new FedsearchError('FETCH_TIMEOUT', `the deadline for reading ${shownLocation(paper)} (${deadline.named} ms) ran out${where}: ${error.message}${before}`, {
    cause: error,
  });
}

/** A failure's error, its message prefixed by its location unless it names it already (as a fetch's own does). */
function locationNamed(failure: LocationFailure): FedsearchError {
  const { error } = failure;
  const message = reasonOf(failure);
  if (message === error.message) return error;
  return new FedsearchError(error.code, message, {
    cause: error,
    details: error.details,
    retryAfterMs: error.retryAfterMs,
    upstreamStatus: error.upstreamStatus,
  });
}

/** How a refusal's last clause starts: what is allowed (fetch-target.ts's ALLOWED_ADDRESSES and the other refusals'). */
const ALLOWED_CLAUSE = '; allowed: ';

/**
 * Each location's reason, then what is allowed, once for each clause the refusals among them gave: every link of a
 * paper on a private address said the same "allowed: public addresses (…)" once per location, a list hard to read.
 */
function reasonsOf(failures: LocationFailure[]): string {
  const allowed = new Set<string>();
  const reasons = failures.map((failure) => {
    const reason = reasonOf(failure);
    const clause = failure.error.code === 'FETCH_FORBIDDEN' ? reason.lastIndexOf(ALLOWED_CLAUSE) : -1;
    if (clause < 0) return reason;
    allowed.add(reason.slice(clause + '; '.length));
    return reason.slice(0, clause);
  });
  return [...reasons, ...allowed].join('; ');
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

