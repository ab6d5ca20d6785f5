import { Ajv } from 'ajv';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { RunningService } from './service.js';

/** A JSON pointer token: "/v1/search/web" as "~1v1~1search~1web". */
const token = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where an answer belongs in the document: the method and the path as the document lists it (no query string). */
export interface DocumentedRoute {
  method: 'GET' | 'POST';
  route: string;
}

/** What to send: a path with its query string, a body, and headers (Host among them, which fetch would not send). */
export interface Sent {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request and its whole answer, body as text. `cutBody` announces the body's length plus one and sends the
 * body without its last byte: a client whose body stops arriving, answered before the request is complete.
 */
export function send(origin: string, call: Sent, { cutBody = false } = {}): Promise<Answer> {
  const url = new URL(call.path, origin);
  const headers: Record<string, string> = { ...(call.body === undefined ? {} : { 'content-type': call.contentType ?? 'application/json' }), ...call.headers };
  if (cutBody) headers['content-length'] = String(Buffer.byteLength(call.body ?? '') + 1);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: call.method, headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('latin1');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => {
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body });
        if (cutBody) outgoing.destroy();
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    if (cutBody) outgoing.write(call.body ?? '');
    else outgoing.end(call.body);
  });
}

/** Headers a generated client reads: what the service's own hooks send, and the download's and stream's. */
const CLIENT_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'www-authenticate',
  'content-disposition',
  'cache-control',
];

interface DocumentedHeader {
  required?: boolean;
  schema: Record<string, unknown>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { headers?: Record<string, DocumentedHeader> };
}

/**
 * Checks real answers against an OpenAPI document: the status must be documented for the route, under the media
 * type the answer was sent as (or with no content, for an answer without a body), the JSON must fit the schema
 * documented there (Ajv reads the document itself, $refs and all), and every header a client reads must be
 * documented with a schema its value fits. This is the contract a client generated from the document relies on,
 * checked by a validator that is not zod.
 */
export class DocumentCheck {
  // A PDF's body is documented as format: binary, which says how to read it, not what to check.
  private readonly ajv = new Ajv({ strict: false, allErrors: true, formats: { binary: true } });

  constructor(readonly document: OpenApiDocument) {
    // OpenAPI 3.0 schemas carry keywords JSON Schema does not know (nullable is Ajv's own option, example is not).
    this.ajv.addSchema(document, 'openapi');
  }

  /** Every route of the document, as `GET /healthz`. */
  routes(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  }

  expectFits(call: DocumentedRoute, answer: Answer): void {
    const responsePointer = this.responsePointer(call, answer.status);
    const documented = this.ajv.getSchema(responsePointer)?.schema as { content?: Record<string, unknown>; headers?: Record<string, DocumentedHeader | { $ref: string }> } | undefined;
    expect(documented, `${answer.status} is documented for ${call.method} ${call.route}`).toBeDefined();
    this.expectBodyFits(call, answer, responsePointer, documented?.content);
    this.expectHeadersFit(call, answer, documented?.headers ?? {});
  }

  /**
   * Where the document answers this status for the route, as a client generated from it looks: the status itself, else
   * its class ("4XX"), else `default` (OpenAPI 3.0, Responses Object); a response given by reference, where it points.
   */
  private responsePointer(call: DocumentedRoute, status: number): string {
    const responses = this.document.paths[call.route]?.[call.method.toLowerCase()]?.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses) ?? String(status);
    const response = responses[key] as { $ref?: string } | undefined;
    if (typeof response?.$ref === 'string') return `openapi${response.$ref}`;
    return `openapi#/paths/${token(call.route)}/${call.method.toLowerCase()}/responses/${key}`;
  }

  private expectBodyFits(call: DocumentedRoute, answer: Answer, responsePointer: string, content: Record<string, unknown> | undefined): void {
    if (answer.body === '') {
      // A client generated from the document tries to parse whatever content it promises.
      expect(content, `${answer.status} of ${call.method} ${call.route} has no body, and is documented with none`).toBeUndefined();
      return;
    }
    const mediaType = String(answer.headers['content-type'] ?? '').split(';')[0] ?? '';
    const validate = this.ajv.getSchema(`${responsePointer}/content/${token(mediaType)}/schema`);
    expect(validate, `${answer.status} of ${call.method} ${call.route} is documented as ${mediaType}`).toBeDefined();
    if (mediaType !== 'application/json') return;
    validate?.(JSON.parse(answer.body));
    expect(validate?.errors ?? []).toEqual([]);
  }

  private expectHeadersFit(call: DocumentedRoute, answer: Answer, headers: Record<string, DocumentedHeader | { $ref: string }>): void {
    const documented = new Map(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), this.resolved(header)]));
    const where = `${answer.status} of ${call.method} ${call.route}`;
    for (const name of CLIENT_HEADERS) {
      const value = answer.headers[name];
      if (value === undefined) continue;
      const header = documented.get(name);
      expect(header, `${where} sends ${name}, and documents it`).toBeDefined();
      const text = String(value);
      const validate = this.ajv.compile(header?.schema ?? {});
      validate(header?.schema.type === 'integer' && /^\d+$/.test(text) ? Number(text) : text);
      expect(validate.errors ?? [], `${where}: ${name}: ${text}`).toEqual([]);
    }
    for (const [name, header] of documented) {
      if (header.required) expect(answer.headers[name], `${where} documents ${name} as always sent`).toBeDefined();
    }
  }

  private resolved(header: DocumentedHeader | { $ref: string }): DocumentedHeader {
    if (!('$ref' in header)) return header;
    const name = header.$ref.replace('#/components/headers/', '');
    const target = this.document.components.headers?.[name];
    expect(target, header.$ref).toBeDefined();
    return target as DocumentedHeader;
  }
}

/** The document GET /openapi.json serves (openapi.test.ts holds them equal), read without a request the service might shed. */
export function documentOf(service: RunningService): DocumentCheck {
  return new DocumentCheck(JSON.parse(JSON.stringify(service.app.swagger())) as OpenApiDocument);
}
