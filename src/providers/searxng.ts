import { parseError, upstreamFailure, upstreamRefusal } from '../domain/errors.js';
import { PAGE_LOOK_AHEAD, type SearchQuery } from '../domain/query.js';
import type { ProviderItem } from '../domain/result.js';
import { answerItems, asArray, httpUrl, isoDate, isRecord, itemsOf, parseJsonBody, text, webItem } from './parse-helpers.js';
import {
  MORE_NOT_READ,
  Provider,
  numberParameter,
  withParameters,
  type PageRead,
  type ParseOutcome,
  type ProviderSettings,
  type UpstreamRequest,
  type UpstreamResponse,
} from './provider.js';

const SAFESEARCH = { off: '0', moderate: '1', strict: '2' } as const;
const HEADERS: Readonly<Record<string, string>> = Object.freeze({ Accept: 'application/json' });
/**
 * SearXNG reads syntax of its own in any word of the query (searx/query.py, RawTextQuery, words split at white space):
 * `!name` searches only the engines a shortcut, an engine's name or a category names, `<N` sets its engines' timeout.
 * A word it reads so is left out of the `query` its JSON answer repeats (webadapter.py: RawTextQuery.getQuery, the words
 * searched for); a `!word` that names nothing it has stays there, and chose nothing: its engines are the instance's
 * own. A word starting with `!!` chooses no engine (ExternalBangParser takes it before BangParser): `!!!1` is a word.
 */
const BANG_WORD = /^![^!]/;
/** `<N`: N seconds below 100, milliseconds from 100 on (`<3`: 3 s, `<850`: 850 ms; searx/query.py, TimeoutParser). */
const TIMEOUT_WORD = /^<(\d+)$/;
const TIMEOUT_IN_MS_FROM = 100;
/**
 * SearXNG's default engine timeout (settings.yml, `outgoing.request_timeout: 3.0`), which its engines are given unless
 * an engine or operator sets another. A chosen timeout cannot lengthen it (searx/search: the smaller of the two is
 * used unless `max_request_timeout` is set): one this long or longer left the engines the time they normally have,
 * and their all timing out is the instance's failure. Only a shorter one is the query's doing.
 */
const ENGINE_TIMEOUT_MS = 3_000;
/**
 * A chosen timeout makes engines time out, and nothing else: an engine refused (`CAPTCHA`, `access denied`, `too many
 * requests`) or broken is the instance's failure whatever the timeout, and counts.
 */
const TIMED_OUT = 'timeout';
/**
 * `!!name` (an external bang) and a lone `!!` (the first result): SearXNG answers them with a redirect to another site
 * whatever the format (searx/webapp.py, `result_container.redirect_url`), never with results, and a redirect from a
 * provider's API counts against its breaker as a setting at fault. A third `!` (`!!!`, `!!!1`) starts no bang name
 * (searx/data/external_bangs.json): SearXNG searches for the word, and so is it sent.
 */
const REDIRECTING_BANG = /(?:^|\s)!!(?!!)/;
/** SearXNG sets no last page; fedsearch reads ten at most (a page holds about 10–30 results). */
const MAX_PAGENO = 10;

/**
 * A self-hosted SearXNG metasearch instance: GET {SEARXNG_URL}/search?q=…&format=json. The instance must
 * allow the JSON format (`search.formats` in settings.yml), or it answers 403.
 * https://docs.searxng.org/dev/search_api.html
 */
export class SearxngProvider extends Provider {
  static readonly settings: ProviderSettings = {
    name: 'searxng',
    kind: 'web',
    description: 'A SearXNG metasearch instance (SEARXNG_URL): results merged from the engines it is set up with.',
    baseUrl: '',
    baseUrlRequired: true,
    credentials: [{ env: 'SEARXNG_URL', required: true, secret: false }],
    filters: ['time_range', 'language', 'safesearch'],
    baseUrlEnv: 'SEARXNG_URL',
    // The query goes to the instance's engines, which read site: (Google, Bing, DuckDuckGo, Brave).
    siteOperator: true,
  };
  readonly settings = SearxngProvider.settings;

  override queryProblem(text: string): string | undefined {
    return REDIRECTING_BANG.test(text) ? 'answers a word starting with !! (an external bang) with a redirect to another site, not with results' : undefined;
  }

  override buildRequest(query: SearchQuery): UpstreamRequest {
    // SearXNG has no page-size parameter: one page holds what its engines return (about 10–30).
    const parameters: Record<string, string> = { q: query.text, format: 'json', pageno: '1' };
    const { time_range: timeRange, language, safesearch } = query.filters;
    if (timeRange) parameters.time_range = timeRange;
    if (language) parameters.language = language;
    if (safesearch) parameters.safesearch = SAFESEARCH[safesearch];
    return { url: this.endpointWithParameters('/search', parameters), headers: HEADERS };
  }

  override parseResponse(response: UpstreamResponse, query: SearchQuery): ParseOutcome {
    const body = parseJsonBody(response);
    if (!isRecord(body) || !Array.isArray(body.results)) throw parseError('expected a JSON object with a results list');
    const items = itemsOf(body.results, toItem);
    // Answers and infoboxes are not ranked pages (older versions send answers as bare strings): not items.
    const failed = unresponsiveEngines(body.unresponsive_engines);
    if (items.length === 0 && failed.length > 0) {
      const message = `no results; engines failed: ${failed.map(engineFailure).slice(0, 3).join(', ')}`;
      if (chosenByTheQuery(query.text, body.query, failed)) throw upstreamRefusal(`the query chose the engines or their timeout (!name, <N): ${message}`);
      throw upstreamFailure(message);
    }
    return { items: answerItems(body.results.length, items) };
  }

  /** The next `pageno`; with no page size to compare against, an empty page is the last. */
  override nextPageRequest(query: SearchQuery, page: PageRead): UpstreamRequest | typeof MORE_NOT_READ | undefined {
    if (page.items.length === 0) return undefined;
    // With no page size, a page just short of the look-ahead says nothing about the next: reading one for
    // that item alone would cost every ordinary search a second request. The next page may hold more, though:
    // paging must not read these items as all there is.
    if (page.collected >= query.limit - PAGE_LOOK_AHEAD) return MORE_NOT_READ;
    const pageno = numberParameter(page.request, 'pageno', 1);
    if (pageno >= MAX_PAGENO) return undefined;
    return withParameters(page.request, { pageno: String(pageno + 1) });
  }

  override describeError(response: UpstreamResponse): string | undefined {
    // SearXNG answers a disabled output format with a bare 403 page.
    if (response.status === 403) return 'forbidden: format=json may be disabled on this instance (search.formats in settings.yml)';
    return undefined;
  }
}

/** `[["google", "timeout"], …]`: each engine that failed, with why. */
interface EngineFailure {
  engine: string;
  reason: string | undefined;
}

/** SearXNG's `unresponsive_engines`: `[engine, reason]` pairs. */
function unresponsiveEngines(value: unknown): EngineFailure[] {
  return asArray(value)
    .filter(Array.isArray)
    .map((entry) => {
      const [engine, reason] = entry.map(text);
      return engine === undefined ? undefined : { engine, reason };
    })
    .filter((entry): entry is EngineFailure => entry !== undefined);
}

function engineFailure({ engine, reason }: EngineFailure): string {
  return reason ? `${engine} (${reason})` : engine;
}

/**
 * Whether the query's own syntax chose what failed, as the answer shows SearXNG read it (`searched`: its `query`, the
 * words it searched for): a `!word` it took chose the engines asked (RawTextQuery.specific: only those), or a `<N` it
 * took, shorter than the engines' own timeout, made them all time out. Without the words it searched for, it cannot
 * be told: the failure counts.
 */
function chosenByTheQuery(sent: string, searched: unknown, failed: readonly EngineFailure[]): boolean {
  // Most queries hold neither: no split, no set.
  if (typeof searched !== 'string' || !/[!<]/.test(sent)) return false;
  const kept = new Set(searched.split(/\s+/));
  let chosenTimeoutMs: number | undefined;
  for (const word of sent.split(/\s+/)) {
    if (word === '' || kept.has(word)) continue;
    if (BANG_WORD.test(word)) return true;
    // Each `<N` taken sets the timeout again: the last one is the one used.
    const timeout = TIMEOUT_WORD.exec(word);
    if (timeout) chosenTimeoutMs = timeoutMs(Number(timeout[1]));
  }
  return chosenTimeoutMs !== undefined && chosenTimeoutMs < ENGINE_TIMEOUT_MS && failed.every(({ reason }) => reason?.toLowerCase() === TIMED_OUT);
}

function timeoutMs(value: number): number {
  return value < TIMEOUT_IN_MS_FROM ? value * 1000 : value;
}

function toItem(result: Record<string, unknown>): ProviderItem | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  // publishedDate is null or "" for engines that do not date their results.
  return webItem(text(result.title) ?? url, url, text(result.content), isoDate(result.publishedDate));
}
