/**
 * search.list's `relevanceLanguage` is "typically an ISO 639-1 two-letter language code", with `zh-Hans` for
 * simplified and `zh-Hant` for traditional Chinese (https://developers.google.com/youtube/v3/docs/search/list).
 * fedsearch takes a region too (`pt-BR`), which that list does not hold.
 */

/** Chinese regions written in traditional characters; the others (CN, SG) use simplified ones. */
const TRADITIONAL_CHINESE_REGIONS: ReadonlySet<string> = new Set(['TW', 'HK', 'MO']);

/** A language code as fedsearch takes it (`en`, `pt-BR`, `zh-TW`) as YouTube documents it (`en`, `pt`, `zh-Hant`). */
export function youtubeRelevanceLanguage(language: string): string {
  const [base = language, region] = language.split('-');
  if (base === 'zh') return region !== undefined && TRADITIONAL_CHINESE_REGIONS.has(region.toUpperCase()) ? 'zh-Hant' : 'zh-Hans';
  return base;
}
