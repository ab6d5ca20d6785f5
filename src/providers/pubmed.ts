import { parseError, upstreamError } from '../domain/errors.js';
import { doiUrl, normalizeDoi, normalizePmcid, normalizePmid } from '../domain/paper-identifiers.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { ERROR_ENVELOPES, describeJsonError } from './error-envelope.js';
import { booleanQueryProblem, booleanQueryText, withBooleanExclusion } from './excluded-terms.js';
import {
  answerItems,
  asArray,
  compact,
  isoDate,
  isRecord,
  itemsOf,
  parseXmlBody,
  plainXmlText,
  snippetOf,
  xmlText,
  yearFrom,
} from './parse-helpers.js';
import {
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type PaperIdentifier,
  type ParseOutcome,
  type ProviderSettings,
  type Refusal,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

/** NCBI rate limiting: `{"error": "API rate limit exceeded", "count"}` (other errors come as XML). */
const ERROR_BODIES = [ERROR_ENVELOPES.errorString];

type XmlNode = Record<string, unknown>;

/** PMIDs asked of esearch at most: efetch takes them in its URL, and NCBI asks for POST beyond about 200 ids. */
const MAX_RESULTS = 200;
/** esearch reaches the first 10,000 PMIDs of a PubMed search at most (`retstart` + `retmax`). */
const MAX_DEPTH = 10_000;

/**
 * The opening tags of elements whose text may carry inline markup (<i>, <sup>, MathML) that would split it into
 * pieces. Attributes hold no `<` in XML: `[^<>]` ends the reading of an unclosed tag at the next one.
 */
const MARKUP_OPENING = /<(ArticleTitle|VernacularTitle|BookTitle|AbstractText)(?:\s[^<>]*)?(?<!\/)>/g;
/** A tag inside one of them; `[^<>]` for the same reason. */
const INLINE_TAG = /<[^<>]*>/g;

/**
 * NCBI E-utilities, two steps, both asked for XML (retmode=xml): esearch.fcgi finds PMIDs (eSearchResult),
 * efetch.fcgi returns the PubmedArticleSet for them. https://www.ncbi.nlm.nih.gov/books/NBK25499/
 */
export class PubmedProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'pubmed',
    kind: 'papers',
    description: 'PubMed biomedical literature (MEDLINE, life-science journals) through NCBI E-utilities, with abstracts.',
    baseUrl: 'https://eutils.ncbi.nlm.nih.gov',
    credentials: [
      { env: 'PUBMED_API_KEY', required: false, secret: true },
      // NCBI asks callers to name a contact address; it is sent as `email`, not a secret.
      { env: 'PUBMED_EMAIL', required: false, secret: false },
    ],
    filters: ['year_from', 'year_to', 'open_access'],
    // NCBI E-utilities: 3 requests per second without an API key, 10 with one.
    rateLimit: { rate: '3/s', withCredential: { env: 'PUBMED_API_KEY', rate: '10/s' } },
  };
  readonly settings = PubmedProvider.settings;

  /**
   * A query of excluded terms alone (`-mice`) leaves NOT nothing to leave results out of, and one of operators, quotes
   * or parentheses alone (`AND (`) has nothing to search for: skipped, not sent.
   */
  override queryProblem(text: string): string | undefined {
    return booleanQueryProblem(withBooleanExclusion(text));
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    const { year_from: yearFromFilter, year_to: yearTo, open_access: openAccess } = query.filters;
    // `-mice` as NOT: PubMed's operators are AND, OR and NOT (upper case, left to right); a minus is none of them.
    const text = booleanQueryText(query.text);
    const parameters: Record<string, string> = {
      term: openAccess ? `(${text}) AND free full text[sb]` : text,
      retmax: String(Math.min(query.limit, MAX_RESULTS)),
      retmode: 'xml',
      // PubMed's Best Match. ESearch's own default for PubMed is the most recently added first, whatever the words
      // matched ("the default value used by ESearch … may differ from that used on NCBI web search pages").
      sort: 'relevance',
    };
    if (yearFromFilter !== undefined || yearTo !== undefined) {
      // mindate and maxdate only work as a pair.
      Object.assign(parameters, { datetype: 'pdat', mindate: String(yearFromFilter ?? 1800), maxdate: String(yearTo ?? 3000) });
    }
    return { url: this.eutilsUrl('/entrez/eutils/esearch.fcgi', parameters), headers: { Accept: 'application/xml' } };
  }

  /** The next esearch (`retstart` past this page's PMIDs), fetched as the first was, while the page was full. */
  override nextPageRequest(query: SearchQuery, page: PageRead): UpstreamRequest | undefined {
    const retstart = numberParameter(page.request, 'retstart', 0);
    const retmax = numberParameter(page.request, 'retmax', MAX_RESULTS);
    if (fetchedIds(page) < retmax) return undefined;
    const next = Math.min(query.limit - page.collected, MAX_RESULTS, MAX_DEPTH - (retstart + retmax));
    return next > 0 ? withParameters(page.request, { retstart: String(retstart + retmax), retmax: String(next) }) : undefined;
  }

  /**
   * A PMID goes straight to efetch (an unknown one answers an empty PubmedArticleSet); a DOI is searched in the
   * [doi] field and a PMCID in the [pmcid] field first, and the usual follow-up fetches the PMID found. arXiv and
   * S2 ids are not in PubMed.
   */
  override buildLookupRequest(identifier: PaperIdentifier): UpstreamRequest | undefined {
    const pmid = identifier.type === 'pmid' ? normalizePmid(identifier.value) : undefined;
    if (pmid) return this.fetchRequest([pmid]);
    const term = lookupTerm(identifier);
    if (!term) return undefined;
    const url = this.eutilsUrl('/entrez/eutils/esearch.fcgi', { term, retmax: '1', retmode: 'xml' });
    return { url, headers: { Accept: 'application/xml' } };
  }

  override parseResponse(response: UpstreamResponse): ParseOutcome {
    const document = parseXmlBody(withoutInlineMarkup(response));
    if ('eSearchResult' in document) return this.followSearch(document.eSearchResult);
    if ('PubmedArticleSet' in document) return { items: articleSetItems(document.PubmedArticleSet) };
    const failure = errorText(document);
    if (failure) throw upstreamError(`PubMed: ${failure}`);
    throw parseError('expected an E-utilities answer (eSearchResult or PubmedArticleSet)');
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // Rate limiting comes as JSON whatever retmode asked for: {"error":"API rate limit exceeded","count":"11"}
    // with a 429; other errors as XML (a JSON body never starts with `<`, so it never reads as XML).
    return describeJsonError(response, ERROR_BODIES) ?? xmlErrorText(response);
  }

  /**
   * NCBI answers a bad api_key with 400 and `{"error": "API key invalid", …}`, not 401. Only that JSON error is
   * read, so not what describeError said, which may be an XML body's <ERROR>: the key's refusal is judged by the
   * shape NCBI sends it in, and no other.
   */
  override refusalOf(response: UpstreamResponse): Refusal | undefined {
    return response.status === 400 && /api[- _]?key/i.test(describeJsonError(response, ERROR_BODIES) ?? '') ? 'credentials' : undefined;
  }

  /** efetch for these PMIDs; it answers an unknown PMID with an empty PubmedArticleSet, not with a 404. */
  private fetchRequest(pmids: string[]): UpstreamRequest {
    const url = this.eutilsUrl('/entrez/eutils/efetch.fcgi', { id: pmids.join(','), retmode: 'xml' });
    return { url, headers: { Accept: 'application/xml' } };
  }

  private followSearch(result: unknown): ParseOutcome {
    if (!isRecord(result)) return { items: [] };
    const failure = firstError(result);
    if (failure) throw upstreamError(`PubMed: ${failure}`);
    const ids = isRecord(result.IdList) ? asArray(result.IdList.Id).map((id) => normalizePmid(xmlText(id))) : [];
    const pmids = ids.filter((id): id is string => id !== undefined);
    if (pmids.length === 0) return { items: [] };
    // efetch answers in the order of `id`, which keeps esearch's Best Match order (sort=relevance).
    return { followUp: this.fetchRequest(pmids) };
  }

  /** An E-utilities URL: db, the call's own parameters, then tool, and email and api_key when set. */
  private eutilsUrl(path: string, parameters: Record<string, string>): string {
    const url = this.endpoint(path);
    url.searchParams.set('db', 'pubmed');
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    url.searchParams.set('tool', 'fedsearch');
    const email = this.credential('PUBMED_EMAIL');
    if (email) url.searchParams.set('email', email);
    const apiKey = this.credential('PUBMED_API_KEY');
    if (apiKey) url.searchParams.set('api_key', apiKey);
    return url.toString();
  }
}

/**
 * Drops inline markup inside titles and abstracts before parsing, so each stays one string in reading order. Each
 * element's end is found with indexOf, not with a lazy `[\s\S]*?<\/\1>` in the pattern: from every opening tag whose
 * end never comes, that read on to the end of the body, and a hostile upstream's body of unclosed `<ArticleTitle>`
 * took time by the square of its length. An element with no end has none after any later opening tag either.
 */
function withoutInlineMarkup(response: UpstreamResponse): UpstreamResponse {
  const { body } = response;
  const unclosed = new Set<string>();
  let kept = '';
  let from = 0;
  MARKUP_OPENING.lastIndex = 0;
  for (let opening = MARKUP_OPENING.exec(body); opening; opening = MARKUP_OPENING.exec(body)) {
    const name = opening[1]!;
    if (unclosed.has(name)) continue;
    const innerStart = opening.index + opening[0].length;
    const end = body.indexOf(`</${name}>`, innerStart);
    if (end === -1) {
      unclosed.add(name);
      continue;
    }
    kept += body.slice(from, innerStart) + body.slice(innerStart, end).replace(INLINE_TAG, '');
    from = end;
    MARKUP_OPENING.lastIndex = end;
  }
  return from === 0 ? response : { ...response, body: kept + body.slice(from) };
}

/** The message of an XML error body, or undefined when the body is not XML. */
function xmlErrorText(response: UpstreamResponse): string | undefined {
  try {
    return errorText(parseXmlBody(response));
  } catch {
    return undefined;
  }
}

/** The message of an eSearchResult or eFetchResult error body. */
function errorText(document: XmlNode): string | undefined {
  for (const root of Object.values(document)) {
    const failure = isRecord(root) ? firstError(root) : undefined;
    if (failure) return failure;
  }
  return undefined;
}

function firstError(root: XmlNode): string | undefined {
  return asArray(root.ERROR).map(plainXmlText).find(Boolean);
}

function articleSetItems(set: unknown): ProviderItem[] {
  // An empty <PubmedArticleSet/> parses to "".
  if (!isRecord(set)) return [];
  // A record with neither a PMID nor a DOI is skipped; the others are still the answer.
  const articles = asArray(set.PubmedArticle);
  const books = asArray(set.PubmedBookArticle);
  const items = itemsOf(articles, articleItem);
  return answerItems(articles.length + books.length, itemsOf(books, bookItem, items));
}

function articleItem(article: XmlNode): ProviderItem | undefined {
  const citation = node(article.MedlineCitation);
  const details = node(citation.Article);
  const journal = node(details.Journal);
  const pubDate = dateOf(node(journal.JournalIssue).PubDate);
  const articleDate = asArray(details.ArticleDate).map(dateOf).find(Boolean);
  const ids = articleIds(node(article.PubmedData).ArticleIdList);
  const doiLocation = asArray(details.ELocationID).find((location) => isRecord(location) && location['@_EIdType'] === 'doi');
  return paperItem({
    // PubmedData lists the PMID too: a record whose MedlineCitation lacks it is still the article.
    pmid: normalizePmid(xmlText(citation.PMID)) ?? normalizePmid(ids.pubmed),
    title: plainXmlText(details.ArticleTitle) ?? plainXmlText(details.VernacularTitle),
    abstract: abstractOf(details.Abstract),
    authors: authorsOf(details.AuthorList),
    // The issue date is the citation date; an exact electronic date is more precise when the issue has no day.
    published_at: pubDate && pubDate.length >= 10 ? pubDate : (articleDate ?? pubDate),
    year: yearFrom(pubDate) ?? yearFrom(articleDate),
    venue: plainXmlText(journal.Title) ?? plainXmlText(journal.ISOAbbreviation),
    doi: normalizeDoi(ids.doi) ?? normalizeDoi(xmlText(doiLocation)),
    pmcid: ids.pmc,
  });
}

/** PubMed also indexes books and chapters (e.g. GeneReviews); esearch returns their PMIDs like any other. */
function bookItem(article: XmlNode): ProviderItem | undefined {
  const document = node(article.BookDocument);
  const book = node(document.Book);
  const pubDate = dateOf(book.PubDate);
  const ids = articleIds(document.ArticleIdList ?? node(article.PubmedBookData).ArticleIdList);
  const bookTitle = plainXmlText(book.BookTitle);
  return paperItem({
    pmid: normalizePmid(xmlText(document.PMID)),
    title: plainXmlText(document.ArticleTitle) ?? bookTitle,
    abstract: abstractOf(document.Abstract),
    authors: authorsOf(asArray(document.AuthorList).find((list) => isRecord(list) && list['@_Type'] !== 'editors') ?? book.AuthorList),
    published_at: pubDate,
    year: yearFrom(pubDate),
    venue: plainXmlText(document.ArticleTitle) ? bookTitle : plainXmlText(node(book.Publisher).PublisherName),
    doi: normalizeDoi(ids.doi),
    pmcid: ids.pmc,
  });
}

/** What one record says, before the URL and snippet are derived from it. */
type PaperFields = Omit<ProviderItem, 'title' | 'url' | 'snippet' | 'extra'> & { title?: string; pmcid?: string };

function paperItem(fields: PaperFields): ProviderItem | undefined {
  const url = fields.pmid ? `https://pubmed.ncbi.nlm.nih.gov/${fields.pmid}/` : fields.doi ? doiUrl(fields.doi) : undefined;
  if (!url) return undefined;
  return compact({
    title: fields.title ?? url,
    url,
    snippet: fields.abstract ? snippetOf(fields.abstract) : undefined,
    published_at: fields.published_at,
    authors: fields.authors && fields.authors.length > 0 ? fields.authors : undefined,
    year: fields.year,
    venue: fields.venue,
    abstract: fields.abstract,
    doi: fields.doi,
    pmid: fields.pmid,
    // A PMC id means a free full text exists; its PDF address is not in the record, so none is made up.
    extra: fields.pmcid ? { pmcid: fields.pmcid } : undefined,
  });
}

/**
 * The esearch term that finds one DOI or PMCID. A DOI goes in double quotes: E-utilities reads a term with its query
 * grammar, and a DOI holds its syntax (SICI DOIs such as 10.1002/(sici)1097-4636(199909)… have parentheses and
 * brackets, which unquoted would group and tag words of their own). The grammar has no escape for a `"` inside a
 * phrase, so a DOI with one is not asked (it would end the phrase early and search for something else).
 */
function lookupTerm(identifier: PaperIdentifier): string | undefined {
  if (identifier.type === 'pmcid') {
    const pmcid = normalizePmcid(identifier.value);
    return pmcid ? `${pmcid}[pmcid]` : undefined;
  }
  const doi = identifier.type === 'doi' ? normalizeDoi(identifier.value) : undefined;
  return doi && !doi.includes('"') ? `"${doi}"[doi]` : undefined;
}

/** ArticleId values by IdType (doi, pmc, pubmed, pii, …). */
function articleIds(list: unknown): Record<string, string | undefined> {
  const ids: Record<string, string | undefined> = {};
  for (const id of asArray(node(list).ArticleId)) {
    const type = isRecord(id) ? xmlText(id['@_IdType']) : undefined;
    if (type && !ids[type]) ids[type] = plainXmlText(id);
  }
  return ids;
}

/** Structured abstracts come as several AbstractText elements with a Label each. */
function abstractOf(abstract: unknown): string | undefined {
  const parts = asArray(node(abstract).AbstractText)
    .map((part) => {
      const body = plainXmlText(part);
      const label = isRecord(part) ? plainXmlText(part['@_Label']) : undefined;
      return body && label ? `${label}: ${body}` : body;
    })
    .filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function authorsOf(list: unknown): string[] {
  return asArray(node(list).Author)
    .map((author) => {
      const person = node(author);
      const collective = plainXmlText(person.CollectiveName);
      if (collective) return collective;
      const lastName = plainXmlText(person.LastName);
      const given = plainXmlText(person.ForeName) ?? plainXmlText(person.Initials);
      return lastName && given ? `${given} ${lastName}` : lastName;
    })
    .filter((name): name is string => name !== undefined);
}

/** PubDate/ArticleDate: Year, Month (number or "Jun"), Day, or a free-form MedlineDate ("1998 Dec-1999 Jan"). */
function dateOf(value: unknown): string | undefined {
  const date = node(value);
  const year = plainXmlText(date.Year);
  if (!year) return medlineDate(plainXmlText(date.MedlineDate));
  const month = plainXmlText(date.Month);
  const day = plainXmlText(date.Day);
  const numericMonth = month && /^\d{1,2}$/.test(month) ? month.padStart(2, '0') : undefined;
  if (numericMonth) return isoDate(day ? `${year}-${numericMonth}-${day.padStart(2, '0')}` : `${year}-${numericMonth}`) ?? year;
  return isoDate([year, month, day].filter(Boolean).join(' ')) ?? isoDate(year) ?? stringYear(year);
}

/**
 * MedlineDate, the free text of an issue that spans months or names a season ("2018 Jun-Jul", "1998 Dec-1999
 * Jan", "2000 Spring", "2000 Dec 23-30"): its year and, when one is named, its first month. No day is read: a
 * range's first day would claim a precision the date lacks. (Read whole as a date, "2018 Jun-Jul" gave July 1st
 * at midnight in the server's time zone.)
 */
function medlineDate(value: string | undefined): string | undefined {
  const start = value === undefined ? null : /^(\d{4})(?:\s+([A-Za-z]{3})[a-z]*)?/.exec(value);
  if (!start) return stringYear(value);
  return (start[2] === undefined ? undefined : isoDate(`${start[1]} ${start[2]}`)) ?? start[1];
}

function stringYear(value: string | undefined): string | undefined {
  const year = yearFrom(value);
  return year === undefined ? undefined : String(year);
}

function node(value: unknown): XmlNode {
  return isRecord(value) ? value : {};
}

/**
 * How many PMIDs esearch listed for a page: the ids its efetch asked for, not the records read, since efetch leaves
 * out a record it no longer has and a record without PMID or DOI is skipped, and a page so cut would look like the last.
 */
function fetchedIds(page: PageRead): number {
  const ids = page.response.url === undefined ? null : new URL(page.response.url).searchParams.get('id');
  return ids === null ? page.items.length : ids.split(',').length;
}
