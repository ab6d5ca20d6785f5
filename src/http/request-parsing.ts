import type { FastifyError, FastifyInstance } from 'fastify';
import { invalidQuery } from '../domain/errors.js';
import { unreadableBody } from './body-encoding.js';

/** A run of %XX escapes, or a % that does not start one. */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+|%/g;

/** The first malformed escape of a query-string part: a lone %, or %XX bytes that do not spell UTF-8. */
function badEscape(part: string): string | undefined {
  for (const match of part.matchAll(ESCAPES)) {
    if (match[0] === '%') return `"%" not followed by two hex digits`;
    try {
      decodeURIComponent(match[0]);
    } catch {
      return `"${match[0].slice(0, 40)}" is not UTF-8`;
    }
  }
  return undefined;
}

function decodesWhole(search: string): boolean {
  try {
    decodeURIComponent(search);
    return true;
  } catch {
    return false;
  }
}

function leniently(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * Names the first query-string parameter whose percent-encoding is invalid. Fastify's parser leaves such
 * escapes as they are ("%E0%A4%A" arrives as those eight characters), which would search for the escape
 * text itself; after decoding, that cannot be told apart from a correctly encoded "%", so it is checked raw.
 */
export function findInvalidPercentEncoding(search: string): { field: string; problem: string } | undefined {
  // A query string that decodes whole has no bad escape in any part: a multi-byte sequence cannot run across
  // the literal "&" or "=" between two parts. Only one that fails is taken apart to name the parameter.
  if (decodesWhole(search)) return undefined;
  for (const pair of search.split('&')) {
    const [name = '', ...rest] = pair.split('=');
    const problem = badEscape(name) ?? badEscape(rest.join('='));
    if (problem) return { field: leniently(name) || '(query string)', problem };
  }
  return undefined;
}

/** Fastify's JSON parser, as configured (`onProtoPoisoning: 'error'` by default), with errors that say why. */
function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    const unreadable = unreadableBody(request.headers, bytes as Buffer);
    if (unreadable) {
      done(unreadable, undefined);
      return;
    }
    const body = (bytes as Buffer).toString('utf8');
    parseJson(request, body, (error: Error | null, value?: unknown) => {
      if ((error as FastifyError | null)?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isPlainJson(body)) {
        // Fastify gives one error for bad syntax and for a refused key; a body JSON.parse accepts was refused.
        done(
          invalidQuery(
            'body: refused, it holds a "__proto__" or "constructor.prototype" key, which could alter the prototype of objects (prototype pollution); ' +
              'allowed: a JSON object without those keys',
          ),
          undefined,
        );
        return;
      }
      // Fastify gives a request without a body a null body too, which the schemas read as {}: this null was sent.
      if (!error && value === null) {
        done(invalidQuery('body: null is not an object; allowed: a JSON object ({} when no parameter is needed)'), undefined);
        return;
      }
      done(error, value);
    });
  });
}

function isPlainJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * What arrives before any schema sees it: query strings must be valid percent-encoded UTF-8 (a 400 naming
 * the parameter otherwise), a body must be application/json, uncompressed (a 415 otherwise) and UTF-8 (a 400
 * otherwise), and a JSON body refused for a
 * prototype-pollution key is called that, not "not valid JSON".
 */
export function registerRequestParsing(app: FastifyInstance): void {
  registerJsonParser(app);
  // Every body the API reads is JSON. Fastify's text/plain parser handed a body sent without its content-type
  // (curl -d, fetch with a string) to the schema as a string: "body: ... is not an object" for valid JSON.
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', (request, _reply, done) => {
    const queryStart = request.url.indexOf('?');
    // No query string, or one without a single escape: nothing to check (most requests).
    if (queryStart < 0 || !request.url.includes('%', queryStart)) {
      done();
      return;
    }
    const invalid = findInvalidPercentEncoding(request.url.slice(queryStart + 1));
    if (!invalid) {
      done();
      return;
    }
    done(
      invalidQuery(`${invalid.field}: invalid percent-encoding, ${invalid.problem}; allowed: UTF-8 text with each byte written %XX (é is %C3%A9)`, [
        { field: invalid.field, message: `invalid percent-encoding, ${invalid.problem}` },
      ]),
    );
  });
}
