/**
 * Which Wikipedia edition a search in a language asks. Each language has its own wiki at `https://<code>.wikipedia.org`
 * (https://meta.wikimedia.org/wiki/List_of_Wikipedias), with the same Action API path. Only a base URL that is itself
 * such an edition is switched to another: the operator chose Wikipedia, and the host is built from two lower-case
 * letters alone, so no caller text reaches it otherwise. Any other base URL (a private MediaWiki) is never changed.
 */

/** A Wikipedia language edition's host: two letters, then wikipedia.org. */
const EDITION_HOST = /^([a-z]{2})\.wikipedia\.org$/;

/**
 * The Wikipedias with a two-letter code (https://meta.wikimedia.org/wiki/List_of_Wikipedias; closed ones are still
 * read). A search is sent only to one of them: `qq.wikipedia.org` is no wiki, and each edition asked has a circuit
 * breaker of its own (WikipediaProvider.upstreamHost), so made-up codes would each send errors and make a breaker.
 * ISO 639-1 codes without a Wikipedia (ae, lu, nd, nr, oj) are left out; a language left out wrongly is only skipped.
 */
const EDITIONS: ReadonlySet<string> = new Set(
  `aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv
  dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie
  ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lv mg
  mh mi mk ml mn mr ms mt my na ne ng nl nn no nv ny oc om or os pa pi pl ps pt qu rm rn ro ru rw sa
  sc sd se sg sh si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug
  uk ur uz ve vi vo wa wo xh yi yo za zh zu`.split(/\s+/),
);

/**
 * The wiki of a language whose code is not its own: Norwegian Bokmål (`nb`) is at no.wikipedia.org, and the codes
 * ISO 639 withdrew, which Java's Locale still writes (`iw`, `in`, `ji`), name the wikis of their current ones.
 */
const EDITION_OF_LANGUAGE: Readonly<Record<string, string>> = { nb: 'no', iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro' };

/**
 * The edition code for a language tag: its language subtag, lower case (`pt-BR` → `pt`, `zh-Hans` → `zh`);
 * undefined when Wikipedia has no edition in it.
 */
export function wikipediaEditionCode(language: string): string | undefined {
  const primary = languageSubtag(language);
  const code = EDITION_OF_LANGUAGE[primary] ?? primary;
  return EDITIONS.has(code) ? code : undefined;
}

/** A language tag's language, lower case, without its region or script (`pt-BR` → `pt`). */
export function languageSubtag(language: string): string {
  return language.split('-', 1)[0]!.toLowerCase();
}

/** The language of a base URL that is a Wikipedia edition (`https://en.wikipedia.org` → `en`); undefined for any other. */
export function wikipediaEditionOf(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  // https on its default port, at the root: an edition as Wikimedia serves it, not a proxy or mirror in front of one.
  if (url.protocol !== 'https:' || url.port !== '' || url.pathname !== '/' || url.username !== '' || url.password !== '') return undefined;
  return EDITION_HOST.exec(url.hostname)?.[1];
}

/** The origin of the edition in `language` (`https://de.wikipedia.org`); undefined when Wikipedia has none in it. */
export function wikipediaEditionOrigin(language: string): string | undefined {
  const code = wikipediaEditionCode(language);
  return code === undefined ? undefined : `https://${code}.wikipedia.org`;
}
