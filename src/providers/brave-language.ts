/**
 * Brave's `search_lang` codes (Web Search API, "codes" page): lower case, `jp` for Japanese, scripts for Chinese,
 * and only three regional variants. Brave answers any other value with a 422, so a caller's `pt-BR` or `ja` must be
 * spelled its way.
 */
const SEARCH_LANGUAGES: ReadonlySet<string> = new Set([
  'ar', 'eu', 'bn', 'bg', 'ca', 'zh-hans', 'zh-hant', 'hr', 'cs', 'da', 'nl', 'en', 'en-gb', 'et', 'fi', 'fr', 'gl',
  'de', 'el', 'gu', 'he', 'hi', 'hu', 'is', 'it', 'jp', 'kn', 'ko', 'lv', 'lt', 'ms', 'ml', 'mr', 'nb', 'pl', 'pt-br',
  'pt-pt', 'pa', 'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'vi',
]);

/** ISO 639-1 codes Brave spells otherwise. */
const BRAVE_SPELLING: Readonly<Record<string, string>> = { ja: 'jp', no: 'nb', zh: 'zh-hans', pt: 'pt-pt' };

/** Chinese regions written in traditional characters; the others (CN, SG) use simplified ones. */
const TRADITIONAL_CHINESE_REGIONS: ReadonlySet<string> = new Set(['tw', 'hk', 'mo']);

/**
 * A language code as fedsearch takes it (`en`, `pt-BR`) in Brave's spelling: the regional variant Brave has, else the
 * language itself. A language Brave does not list is sent as it is, lower-cased: Brave then reports its own error
 * rather than fedsearch quietly searching every language.
 */
export function braveSearchLanguage(language: string): string {
  const code = language.toLowerCase();
  if (SEARCH_LANGUAGES.has(code)) return code;
  const [base = code, region] = code.split('-');
  if (base === 'zh') return region !== undefined && TRADITIONAL_CHINESE_REGIONS.has(region) ? 'zh-hant' : 'zh-hans';
  return BRAVE_SPELLING[base] ?? base;
}
