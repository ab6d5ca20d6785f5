import { canonicalFileUrl } from './canonical-url.js';
import type { RankedItem } from './ranked-item.js';

/**
 * Every distinct PDF link a merged paper's members give, in their order (best source first, so the first is the
 * merged record's pdf_url); undefined unless there are two or more. Sources often disagree: a publisher's link is
 * refused or a landing page while a repository's copy is open, and paper_read tries each in turn. Links that
 * name one file (scheme, `www.`, tracking parameters aside: canonicalFileUrl) count once, as the first gave it.
 *
 * This runs for every merged group of a search: nothing is allocated until a second, different link appears, so
 * groups without PDF links (every web result) or with one cost a read of each member's pdf_url.
 */
export function distinctPdfLinks(members: readonly RankedItem[]): string[] | undefined {
  let first: string | undefined;
  let links: string[] | undefined;
  let keys: string[] | undefined;
  for (let index = 0; index < members.length; index += 1) {
    const link = members[index]!.item.pdf_url;
    if (link === undefined || link === first) continue;
    if (first === undefined) {
      first = link;
      continue;
    }
    keys ??= [canonicalFileUrl(first)];
    const key = canonicalFileUrl(link);
    if (keys.includes(key)) continue;
    keys.push(key);
    links ??= [first];
    links.push(link);
  }
  return links;
}
