import { boundedText } from '../domain/cut-text.js';
import { FedsearchError } from '../domain/errors.js';
import { ProviderCallFailed } from '../engine/provider-call.js';
import { DOCUMENT_BOUNDS } from '../fetch/document-bounds.js';
import { extractDocument, pageText } from '../fetch/extract.js';
import { LOCAL_LINK_SCHEME, type LocalSource } from '../providers/capabilities.js';
import { MAX_LINKS, type FetchedPage, type FetchInput } from './fetched-page.js';
import { callOptions, type OperationContext } from './operation.js';

/** A local:/// link names a document of the embedded index, not anything on a network. */
export function isLocalLink(url: string): boolean {
  return url.slice(0, LOCAL_LINK_SCHEME.length).toLowerCase() === LOCAL_LINK_SCHEME;
}

/**
 * Serves a local:/// search result the way fetch_url serves a page: Markdown with a title, paged by offset.
 * It is a provider call like any other (the pipeline's deadline, caller abort, outcome and error mapping).
 */
export async function readLocalDocument(input: FetchInput, context: OperationContext): Promise<FetchedPage> {
  const source = await readSource(input, context);
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
    // The index's own title, bounded as a fetched page's is (fetch/document-bounds.ts).
    title: boundedText(source.title, DOCUMENT_BOUNDS.title),
    content_type: source.mediaType,
    links: extracted.links.slice(0, MAX_LINKS),
    ...pageText(extracted.markdown, input.offset, input.max_chars),
  };
  if (extracted.byline) page.byline = extracted.byline;
  const published = source.published_at ?? extracted.published_at;
  if (published) page.published_at = published;
  return page;
}

async function readSource(input: FetchInput, context: OperationContext): Promise<LocalSource | undefined> {
  try {
    return await context.search.call('local', 'readDocument', { link: input.url }, callOptions(context, input.timeout_ms));
  } catch (error) {
    // Turned off (LOCAL_WEIGHT=0): the index serves nothing, so the link names nothing that can be read.
    if (error instanceof ProviderCallFailed && error.outcome.status === 'skipped') {
      throw new FedsearchError('NOT_FOUND', `the embedded index is ${error.outcome.message}, so ${input.url} cannot be read`);
    }
    throw error;
  }
}
