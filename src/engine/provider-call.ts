import { FedsearchError } from '../domain/errors.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import { boundedItems } from '../domain/result-bounds.js';
import { retryAfterWords } from '../domain/retry-advice.js';
import type { Capability, CapabilityInput, CapabilityOutput } from '../providers/capabilities.js';
import type { Provider, UpstreamTransport } from '../providers/provider.js';
import { runPipeline, type PipelineDependencies, type PipelineLimits, type PipelineResult } from './provider-pipeline.js';
import { redactedError } from './redact.js';

/** How the engine invokes one capability of an adapter, and how many results its answer counts as. */
interface CapabilityCall<C extends Capability> {
  invoke(provider: Provider, input: CapabilityInput<C>, transport: UpstreamTransport, signal: AbortSignal): Promise<CapabilityOutput<C>> | undefined;
  count(output: CapabilityOutput<C>): number;
}

const CAPABILITY_CALLS: { [C in Capability]: CapabilityCall<C> } = {
  // Videos are results too, and bounded as a search's are (gather.ts).
  videoDetails: { invoke: (provider, input, transport, signal) => provider.videoDetails?.(input, transport, signal).then(boundedItems), count: (videos) => videos.length },
  captions: { invoke: (provider, input, transport, signal) => provider.captions?.(input, transport, signal), count: (captions) => (captions ? 1 : 0) },
  scrape: { invoke: (provider, input, transport, signal) => provider.scrape?.(input, transport, signal), count: () => 1 },
  readDocument: { invoke: (provider, input, transport, signal) => provider.readDocument?.(input, transport, signal), count: (source) => (source ? 1 : 0) },
};

/**
 * A provider call that did not answer: a FedsearchError built from its outcome (PROVIDER_SUSPENDED with
 * retry_after_ms, PROVIDER_RATE_LIMITED, PROVIDER_TIMEOUT, PROVIDER_NOT_CONFIGURED, the upstream's own error,
 * …) with the provider's redacted message. The outcome rides along for callers that tell cases apart. Its
 * cause is a redacted copy of the upstream's error: logs write a cause chain's messages and stacks too.
 */
export class ProviderCallFailed extends FedsearchError {
  constructor(
    readonly outcome: ProviderOutcome,
    error: FedsearchError,
  ) {
    super(error.code, error.message, { cause: error.cause, retryAfterMs: error.retryAfterMs, upstreamStatus: error.upstreamStatus, details: error.details });
  }
}

export function serves(provider: Provider, capability: Capability): boolean {
  return typeof provider[capability] === 'function';
}

/**
 * Asks one provider for one capability: a fan-out of one through the provider pipeline, so the call is
 * admitted by the breaker, rate limited, concurrency limited, timed, measured and logged like a search.
 * Resolves with the capability's answer; rejects with ProviderCallFailed.
 */
export async function callCapability<C extends Capability>(
  provider: Provider,
  capability: C,
  input: CapabilityInput<C>,
  limits: PipelineLimits,
  dependencies: PipelineDependencies,
): Promise<CapabilityOutput<C>> {
  if (!serves(provider, capability)) throw new FedsearchError('INTERNAL', `${provider.name} does not serve ${capability}`);
  const call: CapabilityCall<C> = CAPABILITY_CALLS[capability];
  const result = await runPipeline(
    provider,
    {
      name: capability,
      run: (target, transport, signal) => call.invoke(target, input, transport, signal) ?? Promise.reject(new Error(`${target.name} lost ${capability}`)),
      count: call.count,
    },
    limits,
    dependencies,
  );
  if (result.ok) return result.value;
  throw new ProviderCallFailed(result.outcome, failure(result, dependencies.secrets()));
}

/**
 * The error a caller sees for an outcome that is not `ok`: the outcome's code and message, said of the provider.
 * A search reports each provider's outcome under its name; a direct operation's caller has only this message, so it
 * starts with the provider's name too ("youtube: HTTP 403: …").
 */
function failure({ provider, outcome, error }: Extract<PipelineResult<unknown>, { ok: false }>, secrets: readonly string[]): FedsearchError {
  const name = provider.name;
  // Only a redacted copy is carried: the raw error's message may quote an upstream body that echoed a key.
  const cause = redactedError(error, secrets);
  const retryAfterMs = outcome.retry_after_ms;
  switch (outcome.status) {
    case 'not_configured':
      return new FedsearchError('PROVIDER_NOT_CONFIGURED', `${name} is not configured: set ${(outcome.missing ?? []).join(', ')}`);
    case 'skipped':
      return new FedsearchError('PROVIDER_NOT_CONFIGURED', `${name} is ${outcome.message ?? 'skipped'}`);
    case 'suspended':
      return new FedsearchError('PROVIDER_SUSPENDED', `${name} is ${outcome.message ?? 'suspended'}${waitWords(retryAfterMs)}`, { retryAfterMs });
    case 'rate_limited':
      return new FedsearchError('OUTBOUND_RATE_LIMITED', `${saidOf(name, outcome.message ?? outcome.status)}${waitWords(retryAfterMs)}`, { cause, retryAfterMs });
    case 'timeout':
      return new FedsearchError(outcome.code ?? 'PROVIDER_TIMEOUT', saidOf(name, outcome.message ?? outcome.status), { cause, retryAfterMs });
    default: {
      // The upstream's own error, its message already redacted in the outcome; its status and safe details kept.
      const upstream = error instanceof FedsearchError ? error : undefined;
      return new FedsearchError(outcome.code ?? 'PROVIDER_PARSE', saidOf(name, outcome.message ?? 'failed'), {
        cause,
        retryAfterMs,
        upstreamStatus: upstream?.upstreamStatus,
        details: upstream?.details,
      });
    }
  }
}

/**
 * When a held-back provider can be asked again, for the message of a direct call: its caller has no outcome beside it
 * (a search's outcome carries retry_after_ms, which its MCP text words the same way: operations/render.ts).
 */
function waitWords(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined ? '' : `; ${retryAfterWords(retryAfterMs)}`;
}

/**
 * `message` after the provider's name, unless it starts with that name already: a network error names the provider
 * and its host ("youtube_web (www.youtube.com): host not found"), a refused request path names the provider too.
 */
function saidOf(name: string, message: string): string {
  const named = message.slice(0, name.length).toLowerCase() === name.toLowerCase() && /^[\s:(]/.test(message.slice(name.length));
  return named ? message : `${name}: ${message}`;
}
