import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { FedsearchError } from '../domain/errors.js';
import { retryAfterWords } from '../domain/retry-advice.js';
import type { ReadDeadline } from './fetch-settings.js';
import type { PdfDocumentMessage, PdfEndMessage, PdfPageMessage, PdfStartedMessage, PdfTask } from './pdf-worker.js';

export interface PdfText {
  text: string;
  pages: number;
  title: string | undefined;
  author: string | undefined;
  /** ISO 8601, from the document's CreationDate. */
  created: string | undefined;
  /** Why reading stopped before the last page ("at 10,000 characters …"), when it did. */
  stopped?: string;
  /** Reading stopped for its time (timeMs), not its size: given longer, it would have read more. */
  outOfTime?: true;
}

/**
 * How much of an untrusted PDF is read. Its size is capped when it is fetched, but not what it holds: a
 * compressed content stream, or one stream shared by thousands of pages, makes far more text than bytes, and
 * every page costs CPU however little it holds.
 */
export interface PdfReadingLimits {
  /** Characters of text at most (FETCH_MAX_BYTES: as many characters as the file may have bytes). */
  maxChars: number;
  /** Time for reading the pages (FETCH_TIMEOUT_MS): the first page is always started. */
  timeMs: number;
  /** The caller went away: reading stops at once, rejecting with its reason. */
  signal?: AbortSignal;
  /**
   * The whole read's deadline (the caller's timeout_ms, else READ_TIMEOUT_MS): the caller is answered by it, with
   * the pages read so far or a timeout, never after the page grace or a thread's start. See answerByDeadline.
   */
  deadline?: ReadDeadline;
}

/**
 * How long past `timeMs` a page still being read may run before its thread is stopped. Reading stops between
 * pages at `timeMs`; this is for the one page (or the document's opening) that alone takes longer. It is counted
 * from when the thread has PDF.js loaded, so a thread's own start never eats into it.
 */
export const PDF_PAGE_GRACE_MS = 2_000;
/**
 * Beyond the time and the page grace, how long a PDF may wait for a reader thread before it is given up: a thread
 * being started (PDF.js loaded into it) under load is no reason to give up, a queue of other PDFs may be.
 */
export const PDF_THREAD_START_MS = 5_000;
/** The heap a reader thread may grow to: past it, the thread is stopped and the PDF refused (FETCH_TOO_LARGE). */
export const PDF_READER_HEAP_MB = 512;
/** Reader threads at most: PDFs read at once beyond this wait their turn, within their own time. */
export const PDF_READERS = 2;
/**
 * PDFs that may wait for a reader thread, four per thread. Most PDFs are read in well under a second, so a burst
 * that size is read within the time each may wait (FETCH_TIMEOUT_MS, the page grace and a thread's start); behind
 * PDFs that take their whole time, even the second in line for a thread would be given up before it started. A
 * longer queue would only hold more bodies in memory (up to FETCH_MAX_BYTES each, and the copy for the thread)
 * to answer FETCH_TIMEOUT late, so past it a PDF is refused at once (PDF_READERS_BUSY). Not a setting: it
 * follows the number of threads, which is fixed, and what it costs in memory follows FETCH_MAX_BYTES.
 */
export const PDF_QUEUE_LENGTH = PDF_READERS * 4;
/**
 * When a PDF refused for a full queue is worth sending again: long enough for a queue of ordinary PDFs to be
 * read, not the worst case (every PDF in hand taking its whole time), which would send callers away for minutes
 * when seconds usually do.
 */
export const PDF_READERS_BUSY_RETRY_AFTER_MS = 5_000;
/**
 * How long the reader threads outlive the last PDF in hand before they are ended (each idle one is a thread, a
 * heap and PDF.js loaded): a burst of PDFs finds them warm, a service that read one PDF an hour ago holds none.
 */
export const PDF_READERS_IDLE_MS = 30_000;

let readers: Piscina<PdfTask, void> | undefined;
/** PDFs being read or waiting for a reader thread, counted here: see pdfReadersBusy. */
let pdfsInHand = 0;
let idleTimer: NodeJS.Timeout | undefined;

/**
 * The reader threads, started on first use so that a service that never reads a PDF starts none, and ended
 * PDF_READERS_IDLE_MS after the last PDF (see endReadersWhenIdle). Run from the
 * TypeScript sources (tests, `npm run dev`), the thread loads its module through tsx, as the caller was.
 */
function readerPool(): Piscina<PdfTask, void> {
  const fromSource = import.meta.url.endsWith('.ts');
  readers ??= new Piscina<PdfTask, void>({
    filename: new URL(fromSource ? './pdf-worker.ts' : './pdf-worker.js', import.meta.url).href,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
    // As many as at most: when a thread is stopped (overtime, out of heap, the caller gone), Piscina starts
    // another only up to minThreads, and a PDF queued behind it would otherwise wait for ever for a thread.
    minThreads: PDF_READERS,
    maxThreads: PDF_READERS,
    resourceLimits: { maxOldGenerationSizeMb: PDF_READER_HEAP_MB },
  });
  return readers;
}

/**
 * Ends the whole pool once no PDF has been in hand for PDF_READERS_IDLE_MS; the next PDF starts a new one. Not
 * Piscina's own idleTimeout: it ends only threads above minThreads, and minThreads must stay at PDF_READERS (see
 * readerPool), so it would end none.
 */
function endReadersWhenIdle(): void {
  idleTimer = setTimeout(() => {
    const idle = readers;
    readers = undefined;
    void idle?.destroy().catch(() => undefined);
  }, PDF_READERS_IDLE_MS);
  // An idle pool's timer must not keep the process alive (a CLI, a test, a server closing).
  idleTimer.unref();
}

/** The reader threads now alive or starting: none before the first PDF and after PDF_READERS_IDLE_MS idle. */
export function pdfReaderThreads(): readonly Worker[] {
  return readers?.threads ?? [];
}

/**
 * A PDF's text layer, page by page, read on a thread of its own (pdf-worker.ts). PDF.js decodes and lays out
 * each page whole, and an untrusted file can make one page cost seconds of CPU or gigabytes of memory: on the
 * service's own thread that would stall every other request. The thread stops between pages at `timeMs` or
 * `maxChars`, and is stopped from here when a page is still being read `PDF_PAGE_GRACE_MS` after that, when its
 * heap passes PDF_READER_HEAP_MB, or when the caller goes away; the pages read by then are kept. With a `deadline`
 * the caller is answered by it whatever the thread is doing (answerByDeadline). A PDF that finds every thread
 * reading and PDF_QUEUE_LENGTH waiting is refused at once (PDF_READERS_BUSY).
 */
export async function extractPdfText(body: Buffer, limits: PdfReadingLimits): Promise<PdfText> {
  limits.signal?.throwIfAborted();
  if (pdfsInHand >= PDF_READERS + PDF_QUEUE_LENGTH) throw pdfReadersBusy();
  pdfsInHand += 1;
  clearTimeout(idleTimer);
  const reading = readOnThread(body, limits);
  // Counted until its thread is done with it, also when the caller was answered at the deadline first: the thread
  // is busy until it stops between pages, or is stopped after the page grace.
  void reading.done.then(releaseReader, releaseReader);
  return limits.deadline ? answerByDeadline(reading, limits, limits.deadline) : reading.done;
}

function releaseReader(): void {
  pdfsInHand -= 1;
  if (pdfsInHand === 0) endReadersWhenIdle();
}

/**
 * The reading's answer, or at the read's deadline what it has read so far (a timeout when no page yet): the caller
 * does not wait out the page grace, nor a thread's start. A PDF still waiting for a thread is taken out of the queue
 * then; a thread reading one is left to its own stop between pages (at `timeMs`, about the deadline) or stopped
 * after the grace, Piscina starting another in its place, without anyone waiting on it.
 */
function answerByDeadline(reading: ThreadReading, limits: PdfReadingLimits, deadline: ReadDeadline): Promise<PdfText> {
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<PdfText>((resolve, reject) => {
    timer = setTimeout(() => {
      const started = reading.started();
      if (!started) reading.giveUp();
      try {
        resolve(cutAtDeadline(reading.read, limits, deadline, started));
      } catch (error) {
        reject(error);
      }
    }, Math.max(0, deadline.at - performance.now()));
  });
  return Promise.race([reading.done, cut]).finally(() => clearTimeout(timer));
}

/**
 * The refusal of a PDF that finds every thread reading and the queue full. Counted by us, not by Piscina's
 * `maxQueue`: Piscina keeps a task that comes with an AbortSignal (each of ours does) in a second queue that
 * `maxQueue` does not count, so it would never refuse one.
 */
function pdfReadersBusy(): FedsearchError {
  return new FedsearchError(
    'PDF_READERS_BUSY',
    `the PDF readers are busy (${PDF_READERS} PDFs being read and ${PDF_QUEUE_LENGTH} waiting, as many as may wait): this PDF was fetched but not read; ${retryAfterWords(PDF_READERS_BUSY_RETRY_AFTER_MS)}`,
    { retryAfterMs: PDF_READERS_BUSY_RETRY_AFTER_MS },
  );
}

/** A PDF given to a reader thread: its answer, the pages posted so far, and whether the thread has begun on it. */
interface ThreadReading {
  done: Promise<PdfText>;
  read: PagesRead;
  started(): boolean;
  /** Takes a PDF still waiting for a thread out of the queue (its `done` rejects, unheard). */
  giveUp(): void;
}

function readOnThread(body: Buffer, limits: PdfReadingLimits): ThreadReading {
  const stopAt = Date.now() + limits.timeMs;
  const overtime = new AbortController();
  // Waiting for a thread counts against the time: a PDF queued behind others is given up when it has not started
  // by its time, the grace and a thread's start, rather than read whenever a thread frees, however late that is.
  const mayWait = limits.timeMs + PDF_PAGE_GRACE_MS + PDF_THREAD_START_MS;
  let timer: NodeJS.Timeout | undefined = setTimeout(() => overtime.abort(), mayWait);
  let started = false;
  const channel = new MessageChannel();
  const reading = readPages(channel.port1, () => {
    started = true;
    clearTimeout(timer);
    timer = setTimeout(() => overtime.abort(), Math.max(0, stopAt - Date.now()) + PDF_PAGE_GRACE_MS);
  });
  const signal = limits.signal ? AbortSignal.any([limits.signal, overtime.signal]) : overtime.signal;
  // A copy, transferred: PDF.js detaches the array it is given, and the caller's Buffer stays the caller's.
  const data = new Uint8Array(body);
  const task: PdfTask = { data, maxChars: limits.maxChars, timeMs: limits.timeMs, stopAt, port: channel.port2 };
  const done = (async () => {
    try {
      await readerPool().run(task, { transferList: [data.buffer, channel.port2], signal });
      // The end message was posted before the task returned; it may still be on its way.
      const end = await reading.ended;
      if ('error' in end) throw new FedsearchError(end.error.code, end.error.message);
      return pdfText(reading.read, limits.maxChars, end.stopped, 'outOfTime' in end && end.outOfTime === true);
    } catch (error) {
      if (error instanceof FedsearchError) throw error;
      if (limits.signal?.aborted) throw limits.signal.reason;
      if (overtime.signal.aborted && !started) {
        throw new FedsearchError(
          'FETCH_TIMEOUT',
          `the PDF waited longer than ${mayWait} ms for a reader thread (FETCH_TIMEOUT_MS, ${PDF_PAGE_GRACE_MS} ms for one page and ${PDF_THREAD_START_MS} ms for a thread to start): others were being read`,
        );
      }
      if (overtime.signal.aborted) return stoppedFromOutside(reading.read, limits);
      throw readerFailure(error);
    } finally {
      clearTimeout(timer);
      channel.port1.close();
    }
  })();
  return { done, read: reading.read, started: () => started, giveUp: () => overtime.abort() };
}

interface PagesRead {
  document: PdfDocumentMessage | undefined;
  pages: string[];
}

/**
 * What the reader has posted so far (`read`), and its end message when it comes (`ended`, which never settles
 * for a thread stopped first). `onStarted` runs when the reader has PDF.js loaded.
 */
function readPages(port: MessagePort, onStarted: () => void): { read: PagesRead; ended: Promise<PdfEndMessage> } {
  const read: PagesRead = { document: undefined, pages: [] };
  const ended = new Promise<PdfEndMessage>((resolve) => {
    port.on('message', (message: PdfStartedMessage | PdfDocumentMessage | PdfPageMessage | PdfEndMessage) => {
      if (message.kind === 'started') onStarted();
      else if (message.kind === 'document') read.document = message;
      else if (message.kind === 'page') read.pages.push(message.text);
      else resolve(message);
    });
  });
  return { read, ended };
}

/** The pages read before the thread was stopped for running past the time, or a timeout when not even one was. */
function stoppedFromOutside({ document, pages }: PagesRead, limits: PdfReadingLimits): PdfText {
  const allowed = limits.timeMs + PDF_PAGE_GRACE_MS;
  if (!document || pages.length === 0) {
    throw new FedsearchError('FETCH_TIMEOUT', `the PDF's first page was not read within ${allowed} ms (FETCH_TIMEOUT_MS and ${PDF_PAGE_GRACE_MS} ms for one page)`);
  }
  return pdfText({ document, pages }, limits.maxChars, `after ${allowed} ms (FETCH_TIMEOUT_MS and ${PDF_PAGE_GRACE_MS} ms for one page), at page ${pages.length} of ${document.pages}`, true);
}

/**
 * The pages read when the read's deadline came, or a timeout naming the deadline when not even one was (or no thread
 * had started on the PDF).
 */
function cutAtDeadline({ document, pages }: PagesRead, limits: PdfReadingLimits, deadline: ReadDeadline, started: boolean): PdfText {
  if (!document || pages.length === 0) {
    const before = started ? "the PDF's first page was read" : 'a reader thread started on the PDF';
    throw new FedsearchError('FETCH_TIMEOUT', `the read's deadline (${deadline.named} ms) ran out before ${before}`);
  }
  const at = `page ${pages.length} of ${document.pages}`;
  return pdfText({ document, pages }, limits.maxChars, `after ${limits.timeMs} ms (${deadline.named} ms, the read's deadline), at ${at}`, true);
}

function pdfText({ document, pages }: PagesRead, maxChars: number, stopped: string | undefined, outOfTime = false): PdfText {
  if (!document) throw new FedsearchError('FETCH_FAILED', 'the PDF could not be read: its reader ended without opening it');
  const text = pages.filter((page) => page !== '').join('\n\n');
  const result: PdfText = {
    text: text.length > maxChars ? text.slice(0, maxChars) : text,
    pages: document.pages,
    title: document.title,
    author: document.author,
    created: document.created,
  };
  // The last page read may run past the limit on its own.
  const why = stopped ?? (text.length > maxChars ? `at ${maxChars} characters (FETCH_MAX_BYTES)` : undefined);
  if (why) result.stopped = why;
  if (stopped !== undefined && outOfTime) result.outOfTime = true;
  return result;
}

/** A reader thread that died: out of its heap, or anything else, reported without the thread's internals. */
function readerFailure(error: unknown): FedsearchError {
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new FedsearchError('FETCH_TOO_LARGE', `reading the PDF needed more than ${PDF_READER_HEAP_MB} MiB of memory; it is not read`, { cause: error });
  }
  return new FedsearchError('FETCH_FAILED', `the PDF could not be read: ${(error as Error).message ?? error}`, { cause: error });
}
