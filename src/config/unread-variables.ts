/**
 * Variables that look like fedsearch's but that it does not read: a typo (`BRAVE_APIKEY`, `CACHE_TTL`) is otherwise
 * ignored without a word, and the operator hunts for why the key or setting has no effect. Only names in our own
 * namespaces are considered (FEDSEARCH_…, or a first word one of our variables starts with: BRAVE_, CACHE_, MCP_,
 * …), and of those only the ones close to a variable we read, or under FEDSEARCH_, so other software's variables
 * in the same environment (GITHUB_SHA in CI, REDIS_PASSWORD of a Redis image) stay quiet. Values are never read
 * into a message: only names are reported.
 */

import { editsWithin } from '../domain/edits-within.js';

/** A variable set but not read, with the known variable it most likely meant. */
export interface UnreadVariable {
  name: string;
  nearest?: string;
}

const OWN_PREFIX = 'FEDSEARCH_';
/** The most edits (a letter added, dropped or changed) between a typo and the name it meant. */
const MAX_EDITS = 2;

/**
 * Service links Kubernetes (and Docker's legacy --link) set for every service, e.g. FEDSEARCH_SERVICE_HOST and
 * FEDSEARCH_PORT=tcp://10.0.0.7:8080 for a service named fedsearch: not the operator's doing, so not a typo.
 */
const SERVICE_LINK_NAME = /_(SERVICE_HOST|SERVICE_PORT(_\w+)?|PORT_\d+_(TCP|UDP|SCTP)(_(ADDR|PORT|PROTO))?)$/;
const SERVICE_LINK_VALUE = /^(tcp|udp|sctp):\/\//;

function isServiceLink(name: string, value: string): boolean {
  return SERVICE_LINK_NAME.test(name) || (name.endsWith('_PORT') && SERVICE_LINK_VALUE.test(value));
}

function firstWord(name: string): string {
  return name.split('_')[0]!;
}

/** How many edits apart two names are, up to MAX_EDITS; MAX_EDITS + 1 for any more (a swap of neighbours is one). */
function editsBetween(a: string, b: string): number {
  for (let edits = 0; edits <= MAX_EDITS; edits += 1) if (editsWithin(a, b, edits)) return edits;
  return MAX_EDITS + 1;
}

/**
 * The known variable `name` most likely meant: one a few edits away, or one it is the start of, cut at a word
 * (CACHE_TTL for CACHE_TTL_SECONDS, BRAVE_TIMEOUT for BRAVE_TIMEOUT_MS). Closest first, then shortest.
 */
function nearestKnown(name: string, known: readonly string[]): string | undefined {
  let best: { variable: string; distance: number } | undefined;
  for (const variable of known) {
    const distance = variable.startsWith(`${name}_`) ? 1 : editsBetween(name, variable);
    if (distance > MAX_EDITS) continue;
    if (!best || distance < best.distance || (distance === best.distance && variable.length < best.variable.length)) best = { variable, distance };
  }
  return best?.variable;
}

/** Every set variable in our namespaces that is not read, each with the known one it most likely meant. */
export function unreadVariables(env: Readonly<Record<string, string | undefined>>, known: ReadonlySet<string>): UnreadVariable[] {
  const knownNames = [...known];
  const ownWords = new Set(knownNames.map(firstWord));
  const unread: UnreadVariable[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || known.has(name) || isServiceLink(name, value)) continue;
    // Variable names are case-sensitive: brave_api_key is not BRAVE_API_KEY, and is compared in capitals.
    const capitals = name.toUpperCase();
    if (capitals.startsWith(OWN_PREFIX)) {
      // FEDSEARCH_PORT meant PORT: the service reads its variables without a prefix.
      const unprefixed = capitals.slice(OWN_PREFIX.length);
      unread.push({ name, nearest: known.has(unprefixed) ? unprefixed : nearestKnown(unprefixed, knownNames) });
      continue;
    }
    if (!ownWords.has(firstWord(capitals))) continue;
    const nearest = known.has(capitals) ? capitals : nearestKnown(capitals, knownNames);
    if (nearest !== undefined) unread.push({ name, nearest });
  }
  return unread.sort((a, b) => a.name.localeCompare(b.name));
}

/** One warning line's message for a variable not read. */
export function unreadVariableMessage({ name, nearest }: UnreadVariable): string {
  const meant = nearest === undefined ? 'fedsearch reads no variable of that name' : `did you mean ${nearest}?`;
  return `${name} is set but fedsearch does not read it (${meant}); see the configuration table in README.md`;
}
