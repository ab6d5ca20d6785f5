import type { IncomingHttpHeaders } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { invalidQuery, type FedsearchError } from '../domain/errors.js';

/** A refusal the error handler answers with its status and this message (http/error-handler.ts maps 415 to UNSUPPORTED_MEDIA_TYPE). */
type StatusError = Error & { statusCode: number };

/** The charset a Content-Type declares, if it is a plain token (it is quoted in the message, so nothing else is). */
const DECLARED_CHARSET = /;\s*charset\s*=\s*"?([\w.:-]{1,40})"?/i;

/**
 * Why a JSON body cannot be read as sent, if it cannot. Node hands the body over as the bytes that arrived, and
 * nothing decompresses them: a gzip body was refused as "not valid JSON", and one labelled br but sent plain was
 * read as if unlabelled. Bytes that are not UTF-8 (JSON's one encoding, RFC 8259; a charset=latin1 "café") became
 * U+FFFD and were searched for as such. Both are refused with what is allowed instead.
 */
export function unreadableBody(headers: IncomingHttpHeaders, body: Buffer): StatusError | FedsearchError | undefined {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    const message = `content-encoding: "${encoding.slice(0, 40)}" is not accepted; allowed: an uncompressed body (no Content-Encoding, or identity)`;
    return Object.assign(new Error(message), { statusCode: 415 });
  }
  if (isUtf8(body)) return undefined;
  const charset = DECLARED_CHARSET.exec(headers['content-type'] ?? '')?.[1];
  const declared = charset === undefined ? '' : ` (it was sent as charset=${charset})`;
  return invalidQuery(`body: not valid UTF-8${declared}; allowed: JSON text in UTF-8, the only encoding JSON has (RFC 8259)`);
}
