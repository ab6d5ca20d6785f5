import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch, { type Query } from 'minisearch';
import { boundedText } from '../domain/cut-text.js';
import type { SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { LOCAL_LINK_SCHEME, type LocalSource, type ReadDocumentInput } from './capabilities.js';
import { closedTextExcludedTerms } from './excluded-terms.js';
import { markdownDocumentText } from './markdown-text.js';
import { htmlToText, httpUrl, isRecord, isoDate } from './parse-helpers.js';
import { Provider, type ProviderSettings } from './provider.js';

const EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.html', '.htm', '.json', '.jsonl']);
const MAX_FILES = 5000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const SNIPPET_CHARS = 240;
/** A JSON record without a title is titled by its text's start: cut between whole characters, never half an emoji. */
const FALLBACK_TITLE_CHARS = 80;

interface LocalDocument {
  id: number;
  title: string;
  url: string;
  text: string;
  published_at?: string;
  /** The file a whole-file document was read from, to serve its source rather than the flattened text. */
  file?: string;
  /** How the source reads: text/markdown, text/html or text/plain. */
  mediaType: string;
}

interface LocalIndex {
  search: MiniSearch<LocalDocument>;
  documents: Map<number, LocalDocument>;
  /** Documents by their local:/// link, normalised as a URL (a link typed `local:///a b.md` finds `a b.md`, whose link is `local:///a%20b.md`). */
  byLink: Map<string, LocalDocument>;
  /** A digest of each file's path and text as read (contentFingerprint). */
  contents: string;
}

/**
 * The embedded index: a MiniSearch full-text index over a folder of documents (by default the project's
 * own docs/), so the service answers on a fresh machine with no keys and no network.
 */
export class LocalProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'local',
    kind: 'web',
    description: 'Embedded full-text index over LOCAL_INDEX_DIR (.md, .txt, .html, .json, .jsonl).',
    baseUrl: '',
    credentials: [{ env: 'LOCAL_INDEX_DIR', required: false, secret: false, folder: true }],
    weight: 1,
  };
  readonly settings = LocalProvider.settings;
  private index: Promise<LocalIndex> | undefined;

  override async search(query: SearchQuery, _transport: unknown, signal: AbortSignal): Promise<ProviderItem[]> {
    const { search, documents } = await this.loadIndex();
    signal.throwIfAborted();
    const hits = search.search(indexQuery(query.text), { prefix: true, fuzzy: 0.2, boost: { title: 2 }, combineWith: 'OR' });
    return hits.slice(0, query.limit).flatMap((hit) => {
      const document = documents.get(hit.id as number);
      if (!document) return [];
      const item: ProviderItem = {
        title: document.title,
        url: document.url,
        snippet: snippetAround(document.text, hit.terms),
      };
      if (document.published_at) item.published_at = document.published_at;
      return [item];
    });
  }

  /**
   * The document a local:/// link names, or undefined when the index has none by that link. Only links the
   * index made itself are looked up, so a link can never name a file outside LOCAL_INDEX_DIR.
   */
  override async readDocument(input: ReadDocumentInput, _transport: unknown, signal: AbortSignal): Promise<LocalSource | undefined> {
    const { byLink } = await this.loadIndex();
    signal.throwIfAborted();
    const document = byLink.get(normalisedLink(input.link));
    if (!document) return undefined;
    let body = document.text;
    if (document.file) {
      try {
        body = await readFile(document.file, { encoding: 'utf8', signal });
      } catch (error) {
        // Removed since the index was built: the index no longer has it either, as far as a reader can tell.
        if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
        throw error;
      }
    }
    const source: LocalSource = { url: document.url, title: document.title, mediaType: document.mediaType, body };
    if (document.published_at) source.published_at = document.published_at;
    return source;
  }

  /**
   * The index's contents as loaded (built here when no search has built it yet): the files it read, by path and text.
   * Replicas sharing answers key them under it (engine/answer-configuration.ts): two with other files in their
   * folders give other local results. The index is loaded once, so what this names is what searches are answered from.
   */
  override async contentFingerprint(): Promise<string> {
    return (await this.loadIndex()).contents;
  }

  private loadIndex(): Promise<LocalIndex> {
    this.index ??= buildIndex(this.config.credentials.LOCAL_INDEX_DIR ?? 'docs').catch((error: unknown) => {
      // A missing folder should be retried on the next search, not remembered forever.
      this.index = undefined;
      throw error;
    });
    return this.index;
  }
}

/**
 * The text as a MiniSearch query: its words, less the documents that hold an excluded term (excluded-terms.ts). The
 * tokenizer drops the `-`, so `-vision` was one more word to match and ranked documents about vision first. An
 * excluded term is matched exactly (no prefix, no fuzziness: `-vision` keeps "revision"), a phrase by all its words.
 */
function indexQuery(text: string): Query {
  // Read closed: a NOT that opens a group (`a (NOT x)`) excludes, where x was a word to find.
  const terms = closedTextExcludedTerms(text);
  if (terms.excluded.length === 0) return terms.rest;
  const excluded = terms.excluded.map((term): Query => ({ queries: [term], combineWith: 'AND', prefix: false, fuzzy: false }));
  // The words kept are alternatives, as in a search without an excluded term. A bare string here would take its
  // parent's AND_NOT for its own words: `git commit -rebase` would ask for git but not commit.
  return { combineWith: 'AND_NOT', queries: [{ queries: [terms.rest], combineWith: 'OR' }, ...excluded] };
}

/**
 * Where words break, in documents and in searches alike: MiniSearch's own breaks (`[\n\r\p{Z}\p{P}]`) and every other
 * white space, as the rest of the service reads white space. MiniSearch's own took a tab (or a U+FEFF) for part of a
 * word: `caching<tab>redis` found nothing, where `caching redis` found both words, and the answer cache, which keys
 * the words spacing aside (cached-answer.ts), served the one answer for the other.
 */
const WORD_BREAKS = /[\s\p{Z}\p{P}]+/u;

function words(text: string): string[] {
  return text.split(WORD_BREAKS);
}

/** Reads one file of the index's folder; a parameter so that a test can make one fail as root cannot. */
export type FileReader = (file: string) => Promise<string>;

const readText: FileReader = (file) => readFile(file, 'utf8');

export async function buildIndex(folder: string, read: FileReader = readText): Promise<LocalIndex> {
  const root = path.resolve(folder);
  const files = await listFiles(root);
  const documents = new Map<number, LocalDocument>();
  const byLink = new Map<string, LocalDocument>();
  const contents = createHash('sha256');
  for (const file of files) {
    let raw: string;
    try {
      raw = await read(file);
    } catch {
      // A file the process may not read (its permissions, removed since listed) is left out, not the whole index.
      continue;
    }
    const relative = path.relative(root, file).split(path.sep).join('/');
    // Each length first, so that no two lists of files run together into one text.
    contents.update(`${relative.length}:${relative}${raw.length}:`).update(raw);
    for (const fields of documentsFrom(raw, relative, file)) {
      const document: LocalDocument = { ...fields, id: documents.size + 1 };
      documents.set(document.id, document);
      const link = normalisedLink(document.url);
      if (link.startsWith(LOCAL_LINK_SCHEME) && !byLink.has(link)) byLink.set(link, document);
    }
  }
  const search = new MiniSearch<LocalDocument>({ fields: ['title', 'text'], idField: 'id', tokenize: words });
  search.addAll([...documents.values()]);
  return { search, documents, byLink, contents: contents.digest('base64url') };
}

function normalisedLink(link: string): string {
  try {
    return new URL(link).href;
  } catch {
    return link;
  }
}

async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [root];
  while (pending.length > 0 && found.length < MAX_FILES) {
    const folder = pending.pop()!;
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
        if ((await stat(full)).size <= MAX_FILE_BYTES) found.push(full);
      }
    }
  }
  return found.slice(0, MAX_FILES);
}

type DocumentFields = Omit<LocalDocument, 'id'>;

/** A whole file (Markdown, HTML, text) is one document served from its source; JSON gives one per record. */
function documentsFrom(raw: string, relative: string, file: string): DocumentFields[] {
  // Each part of the path percent-encoded: `a b.md` and `a%20b.md` are two files, so two links.
  const fileUrl = `local:///${relative.split('/').map(encodeURIComponent).join('/')}`;
  switch (path.extname(file).toLowerCase()) {
    case '.json':
      return jsonDocuments(parseJson(raw), fileUrl);
    case '.jsonl':
      return raw.split('\n').flatMap((line, index) => jsonDocuments(parseJson(line), `${fileUrl}#${index + 1}`));
    case '.html':
    case '.htm': {
      const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(raw)?.[1];
      const body = raw.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ');
      return [{ title: title ? htmlToText(title) : relative, url: fileUrl, text: htmlToText(body), file, mediaType: 'text/html' }];
    }
    case '.md':
    case '.markdown': {
      const heading = /^#\s+(.+)$/m.exec(raw);
      const title = heading === null ? relative : markdownDocumentText(heading[1]!) || relative;
      // The heading is the title, indexed and shown as such: left in the text, every snippet near the top repeated it.
      const body = heading === null ? raw : `${raw.slice(0, heading.index)}${raw.slice(heading.index + heading[0].length)}`;
      return [{ title, url: fileUrl, text: markdownDocumentText(body), file, mediaType: 'text/markdown' }];
    }
    default:
      return [{ title: relative, url: fileUrl, text: raw.replace(/\s+/g, ' ').trim(), file, mediaType: 'text/plain' }];
  }
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON documents: one object or an array of them, with title and text/content/body/snippet, and url when it has one. */
function jsonDocuments(value: unknown, fallbackUrl: string): DocumentFields[] {
  const records = Array.isArray(value) ? value : [value];
  return records.filter(isRecord).flatMap((record, index) => {
    const body = [record.text, record.content, record.body, record.snippet, record.description].find(
      (field): field is string => typeof field === 'string' && field.trim() !== '',
    );
    const title = typeof record.title === 'string' && record.title.trim() !== '' ? record.title.trim() : undefined;
    if (!title && !body) return [];
    const document: DocumentFields = {
      title: title ?? boundedText(body!, FALLBACK_TITLE_CHARS),
      url: httpUrl(record.url) ?? (records.length > 1 ? `${fallbackUrl}#${index + 1}` : fallbackUrl),
      text: body ? htmlToText(body) : '',
      mediaType: 'text/plain',
    };
    const published = isoDate(record.published_at ?? record.date);
    if (published) document.published_at = published;
    return [document];
  });
}

/**
 * A window of the text around the first matched term, so the snippet shows why it matched. The window holds whole
 * words: one that would begin or end inside a word ("…RL can be changed", "the fragme…") gives up that word's part,
 * unless the word is the match itself or the only word there is.
 */
export function snippetAround(text: string, terms: string[]): string | undefined {
  if (text === '') return undefined;
  const lower = text.toLowerCase();
  const position = terms.map((term) => lower.indexOf(term.toLowerCase())).filter((index) => index >= 0).sort((a, b) => a - b)[0] ?? 0;
  let start = Math.max(0, position - SNIPPET_CHARS / 3);
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (start > 0 && !isSpace(text, start - 1)) {
    const nextSpace = text.slice(start, position).search(/\s/);
    if (nextSpace >= 0) start += nextSpace + 1;
  }
  if (end < text.length && !isSpace(text, end)) {
    const lastSpace = text.slice(position, end).search(/\s\S*$/);
    if (lastSpace > 0) end = position + lastSpace;
  }
  const window = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${window}${end < text.length ? '…' : ''}`;
}

function isSpace(text: string, index: number): boolean {
  return /\s/.test(text.charAt(index));
}
