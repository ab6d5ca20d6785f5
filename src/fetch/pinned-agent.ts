import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { FedsearchError } from '../domain/errors.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Why a per-hop Agent with a pinned `connect.lookup` rather than a validating lookup on a shared Agent:
 * the pinned lookup answers only with the addresses checked a moment ago, so there is no second DNS query
 * for a rebinding attacker to answer differently, and the refusal (with its reason) happens before any
 * socket is opened. The URL keeps its hostname, so TLS still sends SNI and verifies the certificate for
 * that name. A fresh Agent per hop costs connection reuse, which arbitrary-URL fetching hardly has anyway.
 */
function pinnedLookup(hostname: string, addresses: readonly ResolvedAddress[]): LookupFunction {
  return (requested, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => family === undefined || entry.family === family);
    const first = usable[0];
    if (requested !== hostname || first === undefined) {
      const error = Object.assign(new Error(`no checked address for ${requested}`), { code: 'ENOTFOUND' });
      callback(error, '', 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

export function createPinnedAgent(hostname: string, addresses: readonly ResolvedAddress[]): Agent {
  return new Agent({ connect: { lookup: pinnedLookup(hostname, addresses) }, connections: 1 });
}

const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stalled',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

/** Maps a transport failure to FETCH_FAILED naming the cause; an abort passes through for the caller to classify. */
export function networkFailure(error: unknown, url: URL, signal: AbortSignal): unknown {
  if (signal.aborted) return error;
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CAUSES) {
      return new FedsearchError('FETCH_FAILED', `could not fetch ${url.href}: ${NETWORK_CAUSES[code]}`, { cause: error });
    }
    current = (current as { cause?: unknown }).cause;
  }
  return new FedsearchError('FETCH_FAILED', `could not fetch ${url.href}: request failed`, { cause: error });
}

