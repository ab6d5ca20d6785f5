import { FedsearchError } from '../domain/errors.js';
import { turnedOff } from '../engine/gather.js';
import { extractDocument, pageText } from '../fetch/extract.js';
import { LOCAL_LINK_SCHEME, LocalProvider } from '../providers/local.js';
import type { FetchedPage, FetchInput } from './fetch-operations.js';
import type { OperationContext } from './operation.js';

/** Links returned with a page at most, as for fetched pages. */
const MAX_LINKS = 100;

/** A local:/// link names a document of the embedded index, not anything on a network. */
export function isLocalLink(url: string): boolean {
  return url.slice(0, LOCAL_LINK_SCHEME.length).toLowerCase() === LOCAL_LINK_SCHEME;
}

/**
 * Serves a local:/// search result the way fetch_url serves a page: Markdown with a title, paged by offset.
 * It goes through callProvider like any other provider call (deadline, caller abort, error mapping).
 */
export async function readLocalDocument(input: FetchInput, context: OperationContext): Promise<FetchedPage> {
  const source = await context.search.callProvider(
    'local',
    async (provider, _transport, signal) => {
      // The index lives in the adapter; narrowed by class, never cast, so a renamed adapter fails loudly here.
      if (!(provider instanceof LocalProvider)) throw new FedsearchError('INTERNAL', 'the local provider is not the embedded index');
      const off = turnedOff(provider);
      if (off) throw new FedsearchError('NOT_FOUND', `the embedded index is ${off}, so ${input.url} cannot be read`);
      return provider.readDocument(input.url, signal);
    },
    { timeoutMs: input.timeout_ms, signal: context.signal },
  );
  if (!source) {
    throw new FedsearchError(
      'NOT_FOUND',
      `${input.url} names no document in the embedded index (LOCAL_INDEX_DIR); local:/// links come from search results of the local provider`,
    );
  }
  const extracted = await extractDocument({
    finalUrl: source.url,
    contentType: source.mediaType,
    charset: 'utf-8',
    kind: source.mediaType === 'text/html' ? 'html' : 'text',
    body: Buffer.from(source.body, 'utf8'),
  });
  const page: FetchedPage = {
    url: input.url,
    final_url: source.url,
    engine: 'local',
    title: source.title,
    content_type: source.mediaType,
    links: extracted.links.slice(0, MAX_LINKS),
    ...pageText(extracted.markdown, input.offset, input.max_chars),
  };
  if (extracted.byline) page.byline = extracted.byline;
  const published = source.published_at ?? extracted.published_at;
  if (published) page.published_at = published;
  return page;
}
