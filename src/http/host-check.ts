import type { FastifyInstance } from 'fastify';
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { listFromEnv } from '../config/env-values.js';
import { shownValue } from '../domain/shown-value.js';
import { sendRefusal, type RefusalShapes } from './refusal.js';

/**
 * The DNS-rebinding guard of every route. A page on a domain its owner re-binds to this service's address is
 * same-origin with the service as far as the browser knows (a GET carries no Origin), but its requests still
 * carry the page's own name in `Host`. Rebinding needs a DNS name the attacker controls, so an IP address or
 * `localhost` is always safe; any other name must be listed in ALLOWED_HOSTS, unless API keys are required,
 * which a rebinding page cannot know. As Vite's `server.allowedHosts` and webpack-dev-server's `allowedHosts`.
 */

/** In ALLOWED_HOSTS: any Host at all. */
export const ANY_HOST = '*';

/** One ALLOWED_HOSTS entry: `fedsearch.example.com`, `fedsearch.example.com:8443`, `.example.com`. */
export interface HostEntry {
  /** Lower case; a domain entry without its leading dot. */
  name: string;
  /** `.example.com`: the name and every name under it. */
  withSubdomains: boolean;
  /** Only this port; undefined for any port. */
  port: string | undefined;
}

// RFC 1123 labels, plus the underscore of Docker and Compose service names.
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

function isHostName(name: string): boolean {
  const labels = name.split('.');
  // A last label of digits only is an IPv4 address written wrong, never a name (999.1.1.1).
  return name.length <= 253 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}

export type ParsedHostEntry = { entry: HostEntry; problem?: undefined } | { entry?: undefined; problem: string };

/** An entry as it will be matched, or what is wrong with it. Called at start-up only. */
export function parseHostEntry(raw: string): ParsedHostEntry {
  const text = raw.trim().toLowerCase();
  if (text.includes('://')) return { problem: `"${raw}" is a URL: give its host name only` };
  if (text.startsWith('*.')) return { problem: `"${raw}": write ${text.slice(1)} for a domain and its subdomains` };
  const bracketEnd = text.startsWith('[') ? text.indexOf(']') + 1 : 0;
  if (text.startsWith('[') && bracketEnd === 0) return { problem: `"${raw}" is not a host name` };
  const portStart = text.indexOf(':', bracketEnd);
  const host = portStart < 0 ? text : text.slice(0, portStart);
  const port = portStart < 0 ? undefined : text.slice(portStart + 1);
  if (bracketEnd === 0 && port?.includes(':')) return { problem: `"${raw}": write an IPv6 address in brackets ([::1])` };
  if (port !== undefined && !isPort(port)) return { problem: `"${raw}" has no valid port (1 to 65535)` };
  if (bracketEnd > 0 && bracketEnd === host.length && isIPv6(host.slice(1, -1))) return { entry: { name: host, withSubdomains: false, port } };
  const withSubdomains = host.startsWith('.');
  // `fedsearch.example.com.` is the same name written fully qualified (trailingDotEnd): one trailing dot is dropped.
  const name = withSubdomains ? host.slice(1) : host;
  if (name.length > 1 && name.endsWith('.') && isHostName(name.slice(0, -1))) return { entry: { name: name.slice(0, -1), withSubdomains, port } };
  if (isHostName(name) || (!withSubdomains && isIPv4(name))) return { entry: { name, withSubdomains, port } };
  return { problem: `"${raw}" is not a host name` };
}

/** ALLOWED_HOSTS: a comma list of host names (each with an optional :port, a leading dot for subdomains), or *. */
export const allowedHostsVariable = z.string().transform((raw, context): string[] => {
  const entries = listFromEnv(raw);
  const problems = entries.flatMap((entry) => (entry === ANY_HOST ? [] : (parseHostEntry(entry).problem ?? [])));
  if (entries.length === 0) problems.push('no host given (unset it for the default)');
  if (problems.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${problems.join('; ')}; give a comma list of host names, each with an optional :port (fedsearch.example.com, fedsearch.example.com:8443), .example.com for a domain and its subdomains, or * for any host`,
    });
    return z.NEVER;
  }
  return entries.map((entry) => entry.toLowerCase());
});

/**
 * MCP_ALLOWED_HOSTS: a comma list of Host header values, compared as they are: an entry ALLOWED_HOSTS reads
 * (parseHostEntry) without its domain (`.example.com`) and wildcard (`*`) forms. A URL, a
 * leading dot or a wildcard used to be taken and then match no request, so that every MCP request was refused:
 * they are refused at start-up instead, pointing at ALLOWED_HOSTS, which has those forms.
 */
export const allowedMcpHostsVariable = z.string().superRefine((raw, context) => {
  // A trailing dot too, as before ALLOWED_HOSTS took one: the MCP check compares Host as written, where
  // `mcp.example.com.` would admit only a Host with the dot.
  const wrong = listFromEnv(raw).filter((entry) => parseHostEntry(entry).entry?.withSubdomains !== false || /\.(:\d*)?$/.test(entry.trim()));
  if (wrong.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${wrong.map((entry) => `"${entry}"`).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not host[:port] as a Host header carries it (mcp.example.com, mcp.example.com:8443); for a domain and its subdomains (.example.com) or any host (*), use ALLOWED_HOSTS`,
    });
  }
});

const CHAR_A = 65;
const CHAR_Z = 90;
const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_DOT = 46;
const CHAR_COLON = 58;
const CHAR_CLOSE_BRACKET = 93;

/** The char code of a letter in lower case, of anything else as it is. */
function lowerCodeAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= CHAR_A && code <= CHAR_Z ? code + 32 : code;
}

/** Whether text[start, end) is `lower` (itself in lower case), ignoring case, without a substring. */
function regionIs(text: string, start: number, end: number, lower: string): boolean {
  if (end - start !== lower.length) return false;
  for (let index = 0; index < lower.length; index++) {
    if (lowerCodeAt(text, start + index) !== lower.charCodeAt(index)) return false;
  }
  return true;
}

function isDigit(code: number): boolean {
  return code >= CHAR_0 && code <= CHAR_9;
}

/**
 * Where the name in a Host header ends (at its `:port`, or at the end), or -1 when the header is not
 * `name[:port]` at all. Scans characters, so an admitted Host costs no string.
 */
function nameEnd(host: string): number {
  let end = host.length;
  if (host.charCodeAt(0) === 91 /* [ */) {
    end = host.indexOf(']') + 1;
    if (end === 0) return -1;
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) end = colon;
  }
  if (end === 0) return -1;
  if (end === host.length) return end;
  if (host.charCodeAt(end) !== CHAR_COLON || end + 1 === host.length || host.length - end - 1 > 5) return -1;
  for (let index = end + 1; index < host.length; index++) if (!isDigit(host.charCodeAt(index))) return -1;
  return end;
}

/** Four numbers 0–255 joined by dots, as browsers write every IPv4 address. */
function isIPv4Literal(host: string, end: number): boolean {
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let index = 0; index <= end; index++) {
    const code = index === end ? CHAR_DOT : host.charCodeAt(index);
    if (code === CHAR_DOT) {
      if (digits === 0 || value > 255 || ++parts > 4) return false;
      value = 0;
      digits = 0;
    } else if (isDigit(code) && digits < 3) {
      value = value * 10 + code - CHAR_0;
      digits++;
    } else {
      return false;
    }
  }
  return parts === 4;
}

/** `[…]` of hex digits, colons and dots: no DNS name can be written in brackets, so this needs no more checking. */
function isIPv6Literal(host: string, end: number): boolean {
  if (host.charCodeAt(0) !== 91 || host.charCodeAt(end - 1) !== CHAR_CLOSE_BRACKET || end < 4) return false;
  let colons = 0;
  for (let index = 1; index < end - 1; index++) {
    const code = lowerCodeAt(host, index);
    if (code === CHAR_COLON) colons++;
    else if (!isDigit(code) && code !== CHAR_DOT && !(code >= 97 && code <= 102)) return false;
  }
  return colons >= 2;
}

/**
 * Where a name ends without its one trailing dot: `fedsearch.example.com.` is the same name written fully qualified
 * (RFC 1034 3.1), which a browser sends as typed. No rebinding is opened by it for a listed name: whoever controls the
 * name with the dot controls it without. Not for `localhost.` (createHostRule), which browsers may send to DNS.
 */
function trailingDotEnd(host: string, end: number): number {
  return end > 1 && host.charCodeAt(end - 1) === CHAR_DOT ? end - 1 : end;
}

/** `localhost` and `*.localhost` always mean this machine (RFC 6761); browsers never ask DNS for them. */
function isLocalhost(host: string, end: number): boolean {
  return regionIs(host, 0, end, 'localhost') || (end > '.localhost'.length && regionIs(host, end - '.localhost'.length, end, '.localhost'));
}

/** `end`: where the name ends (without its trailing dot); `portStart`: where its `:port` begins (or the end). */
function matchesEntry(host: string, end: number, portStart: number, entry: HostEntry): boolean {
  if (entry.port !== undefined && !regionIs(host, portStart + 1, host.length, entry.port)) return false;
  if (regionIs(host, 0, end, entry.name)) return true;
  // `.example.com` admits `a.example.com`: the name must end in the entry with a dot before it (not `evilexample.com`).
  const dot = end - entry.name.length - 1;
  return entry.withSubdomains && dot > 0 && host.charCodeAt(dot) === CHAR_DOT && regionIs(host, dot + 1, end, entry.name);
}

/** Whether a Host header names a host this service answers. */
export type HostRule = (host: string | undefined) => boolean;

/**
 * The rule for ALLOWED_HOSTS as configured, worked out once: undefined (every Host admitted) for `*`, or when
 * it is unset and API keys are required; otherwise IP addresses, localhost and the listed hosts.
 */
export function createHostRule(allowedHosts: readonly string[] | undefined, keysRequired: boolean): HostRule | undefined {
  if (allowedHosts === undefined ? keysRequired : allowedHosts.includes(ANY_HOST)) return undefined;
  // Every entry was checked at start-up (allowedHostsVariable): none has a problem left to skip.
  const entries = (allowedHosts ?? []).flatMap((raw) => parseHostEntry(raw).entry ?? []);
  return (host) => {
    if (host === undefined) return false;
    const end = nameEnd(host);
    if (end < 0) return false;
    if (isIPv4Literal(host, end) || isIPv6Literal(host, end)) return true;
    // `localhost` as written only: a browser that does not resolve `localhost.` itself asks DNS for it (glibc finds no
    // trailing-dot name in /etc/hosts: `getent hosts localhost.` fails), where a hostile resolver can answer and rebind it.
    if (isLocalhost(host, end)) return true;
    const name = trailingDotEnd(host, end);
    for (const entry of entries) if (matchesEntry(host, name, end, entry)) return true;
    return false;
  };
}

export interface HostCheckOptions {
  /** ALLOWED_HOSTS, or undefined when unset. */
  allowedHosts: readonly string[] | undefined;
  keysRequired: boolean;
  /** By route pattern (`/mcp`): routes that answer a refused Host in their own error shape. */
  refusalShapes?: RefusalShapes;
}

/** What to do about it, for the refusal's message: the list exists and lacks the host, or there is none. */
function remedy(allowedHosts: readonly string[] | undefined): string {
  const example = 'a comma list such as fedsearch.example.com or .example.com';
  return allowedHosts === undefined
    ? `a service without API keys answers only IP addresses and localhost; to reach it by a name, set ALLOWED_HOSTS (${example}) or require API keys`
    : `add it to ALLOWED_HOSTS (${example}), or set ALLOWED_HOSTS=* to admit any host`;
}

/**
 * Refuses, with 403 HOST_NOT_ALLOWED, every request whose Host header the rule does not admit; registered
 * before access control and the routes. The Host header as received is checked, never X-Forwarded-Host, which
 * a same-origin page may set itself. No hook at all when every Host is admitted.
 */
export function registerHostCheck(app: FastifyInstance, options: HostCheckOptions): void {
  const admits = createHostRule(options.allowedHosts, options.keysRequired);
  if (!admits) return;
  const remedyText = remedy(options.allowedHosts);
  // A callback hook, not an async one: it runs on every request and needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const host = request.raw.headers.host;
    if (admits(host)) return done();
    const named = host === undefined ? undefined : shownValue(host);
    const message = named === undefined ? `a request without a Host header is not allowed: ${remedyText}` : `host ${JSON.stringify(named)} is not allowed: ${remedyText}`;
    request.log.warn({ host: named }, 'request refused: host not allowed');
    // Answered here and done() not called: the request goes no further.
    void sendRefusal(request, reply, { status: 403, code: 'HOST_NOT_ALLOWED', message }, options.refusalShapes);
  });
}
