import { upstreamError } from '../domain/errors.js';
import { asArray, isoDate, isRecord, normalizeDoi, normalizePmid, text, yearFrom } from './parse-helpers.js';

/**
 * E-utilities answer in JSON when asked with retmode=json: esearch as `{esearchresult: {idlist}}`, esummary
 * as `{result: {uids, <uid>: {...}}}`, errors as `{error}` or `esearchresult.ERROR`.
 * https://www.ncbi.nlm.nih.gov/books/NBK25499/#chapter4.ESearch
 */
export type JsonAnswer = { pmids: string[] } | { summaries: PubmedSummary[] };

export interface PubmedSummary {
  pmid?: string;
  title?: string;
  authors: string[];
  published_at?: string;
  year?: number;
  venue?: string;
  doi?: string;
  pmcid?: string;
}

export function readJsonAnswer(body: Record<string, unknown>): JsonAnswer | undefined {
  if (typeof body.error === 'string') throw upstreamError(`PubMed: ${body.error}`);
  if (isRecord(body.esearchresult)) {
    const result = body.esearchresult;
    const failure = text(result.ERROR) ?? text(isRecord(result.errorlist) ? asArray(result.errorlist.fieldnotfound)[0] : undefined);
    const pmids = asArray(result.idlist).map(normalizePmid).filter((id): id is string => id !== undefined);
    if (failure && pmids.length === 0 && typeof result.ERROR === 'string') throw upstreamError(`PubMed: ${failure}`);
    return { pmids };
  }
  if (isRecord(body.result)) {
    const result = body.result;
    const uids = asArray(result.uids).map(String);
    return { summaries: uids.map((uid) => result[uid]).filter(isRecord).map(summaryFrom) };
  }
  return undefined;
}

function summaryFrom(record: Record<string, unknown>): PubmedSummary {
  const ids = Object.fromEntries(
    asArray(record.articleids)
      .filter(isRecord)
      .map((entry) => [String(entry.idtype), typeof entry.value === 'string' ? entry.value : undefined]),
  );
  const date = text(record.sortpubdate)?.replace(/\//g, '-').slice(0, 10) ?? text(record.pubdate);
  const summary: PubmedSummary = {
    authors: asArray(record.authors)
      .filter(isRecord)
      .map((author) => text(author.name))
      .filter((name): name is string => name !== undefined),
  };
  const pmid = normalizePmid(record.uid);
  if (pmid) summary.pmid = pmid;
  const title = text(record.title);
  if (title) summary.title = title;
  const published = isoDate(date) ?? isoDate(text(record.pubdate));
  if (published) summary.published_at = published;
  const year = yearFrom(text(record.pubdate)) ?? yearFrom(date);
  if (year !== undefined) summary.year = year;
  const venue = text(record.fulljournalname) ?? text(record.source);
  if (venue) summary.venue = venue;
  const doi = normalizeDoi(ids.doi) ?? normalizeDoi(text(record.elocationid)?.replace(/^doi:\s*/i, ''));
  if (doi) summary.doi = doi;
  const pmcid = ids.pmc ?? ids.pmcid;
  if (pmcid) summary.pmcid = pmcid.replace(/^pmc-id:\s*/i, '').replace(/;$/, '');
  return summary;
}
