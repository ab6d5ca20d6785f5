/**
 * The undici dispatchers of both ways out: one shared pool for provider calls, one pinned Agent per hop of a
 * page fetch.
 */
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';

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

/** The Agent of one fetch hop: it connects only to the addresses the address policy checked for this host. */
export function createPinnedAgent(hostname: string, addresses: readonly ResolvedAddress[]): Agent {
  return new Agent({ connect: { lookup: pinnedLookup(hostname, addresses) }, connections: 1 });
}

/**
 * One keep-alive connection pool shared by every provider: sockets are reused across searches. The pool sets
 * no cap of its own: each provider's concurrency limit (engine/concurrency-limit.ts) already bounds what it
 * has in flight, so the sockets to an origin never outnumber the limits of the providers behind it. A pool
 * cap below their sum only binds when providers share an origin, and then queues requests inside the pool,
 * out of the pipeline's sight: the benchmark's four providers on one mock origin spent most of their time
 * there (docs/benchmarks.md).
 */
export function createUpstreamAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
}
