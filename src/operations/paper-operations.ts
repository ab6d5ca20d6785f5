import { z } from 'zod';
import { FedsearchError } from '../domain/errors.js';
import type { SearchResult } from '../domain/result.js';
import { extractDocument, pageText, type ExtractedDocument, type TextPage } from '../fetch/extract.js';
import { readFetchSettings, timeLeft } from '../fetch/fetch-settings.js';
import { keptRead, readWithin, type WholeRead } from '../fetch/read-cache.js';
import { defineOperation, type OperationContext } from './operation.js';
import { paperDetailsOutput, paperTextOutput } from './output-schemas.js';
import { downloadPaper, readingOutOfTime, type PaperDownload } from './paper-download.js';
import { parsePaperIdentifier } from './paper-identifier.js';
import { findPaper } from './find-paper.js';
import { renderSearch } from './render.js';
import { renderTextPage } from './render-text-page.js';

const paperId = z.string().trim().min(1).max(300).describe('DOI, arXiv id (any version), PMID, PMCID (PMC1234567) or Semantic Scholar id, or a link to one.');
const timeoutMs = z.number().int().min(100).max(30_000).optional().describe('Deadline in milliseconds (100–30000).');

export const paperDetails = defineOperation({
  name: 'paper_details',
  description:
    'Look a paper up by DOI, arXiv id, PMID, PMCID or Semantic Scholar id across every paper provider at once; one merged record with every source. ' +
    'Fails when none found it, saying whether none knows it or some could not answer (then the paper may exist).',
  notFound: 'every provider that can look the identifier up answered and none knew the paper',
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

/**
 * Exactly one of id and url, checked by checkIdOrUrl: not a oneOf in the schema, which OpenAI-style function calling
 * refuses at the top of a tool's parameters, so each description says it, as the tool's does.
 */
const readInput = z
  .strictObject({
    id: paperId.optional().describe(`${paperId.description} Give this or url: exactly one of the two.`),
    url: z.string().trim().url().optional().describe('A PDF (or paper page) URL to read instead of an identifier. Give this or id: exactly one of the two.'),
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
  description:
    "Read a paper's full text: downloads its PDF (each open-access link its sources gave, then arXiv) and returns the text, paged by offset. " +
    'Name the paper with exactly one of id (an identifier) or url (a PDF or paper page), never both. Fails, saying why, when its text could not be read.',
  notFound: 'every provider that can look the identifier up answered and none knew the paper, or none of those that know it gives an open PDF',
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
