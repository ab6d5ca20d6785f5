import type { FastifyBaseLogger as Logger } from 'fastify';
import type { z } from 'zod';
import type { AppConfig } from '../config.js';
import type { ProviderOutcome } from '../domain/outcome.js';
import type { PaperLookup } from '../engine/paper-lookup.js';
import type { CallOptions, SearchService } from '../engine/search-service.js';
import type { HostResolver } from '../fetch/fetch-target.js';
import type { ReadCache } from '../fetch/read-cache.js';

/** What an operation may use: the one search service, the configuration, and the caller's signal. */
export interface OperationContext {
  search: SearchService;
  config: AppConfig;
  operations: () => readonly Operation[];
  signal: AbortSignal;
  logger: Logger;
  /**
   * performance.now() time the caller's request arrived, when known (REST: http/request-arrival.ts): searches
   * count their deadlines from it, so a wait before the operation ran (the rate limiter on a slow Redis) is included.
   */
  receivedAt?: number;
  /**
   * Who asks, as the per-client rate limit counts callers (domain/client-key.ts): searches pass it on
   * (SearchRequest.caller), and so do lookups and single-provider calls (callOptions).
   */
  caller?: string;
  /**
   * How the caller's surface describes an operation, where list_operations lists them: MCP's tool description, with
   * the rule of when its tool call fails (mcp/tools.ts toolDescription), so that the list reads as the tools an agent
   * chooses by. Unset (REST), the operation's own description, as OpenAPI gives it.
   */
  describeOperation?: (operation: Operation) => string;
  /** Set when the caller shows progress (an MCP tools/call with a progressToken); searches report to it. */
  progress?: SearchProgress;
  /**
   * Set by an operation whose steps may name one paper more than once (auto_research runs paper_details and
   * paper_read of one id at once): each lookup kept by identifier and deadline, so the providers are asked once.
   */
  paperLookups?: Map<string, Promise<PaperLookup>>;
  /** Documents fetch_url and paper_read read, kept whole for their next pages; none kept when unset. */
  reads?: ReadCache;
  /**
   * Replaces the system resolver where fetch_url and paper_read check an address (tests: names with answers of
   * their own); every address it gives is checked like any other. Unset, the system resolver answers.
   */
  resolveHost?: HostResolver;
}

/**
 * A provider call made for an operation: under the caller's deadline and signal, logged on its logger, and counted for
 * its caller under an outbound rate limit as its searches are (a lookup by identifier, a video's details, a scrape).
 */
export function callOptions(context: OperationContext, timeoutMs: number | undefined): CallOptions {
  return { timeoutMs, signal: context.signal, logger: context.logger, caller: context.caller };
}

/** What a search tells a caller that shows progress; one operation may run several searches. */
export interface SearchProgress {
  /** A search is about to ask this many providers. */
  asking(providers: number): void;
  /** One of them finished (a cached answer reports all of its providers at once). */
  finished(outcome: ProviderOutcome): void;
}

/**
 * A capability declared once. REST (`POST /v1/ops/<name>`), its OpenAPI entry (parameters, example and
 * answer) and the MCP tools are all
 * derived from this declaration, so a new operation appears everywhere without new wiring.
 */
export interface Operation<Schema extends z.ZodObject = z.ZodObject, Output = unknown> {
  name: string;
  /** One line for tool lists; the first sentence is what a model reads when choosing. */
  description: string;
  input: Schema;
  example: z.input<Schema>;
  /**
   * What a successful call answers: the 200 schema of its route in the OpenAPI document. Its type must fit
   * what run() returns, so the schema cannot drift from the code without a type error.
   */
  output: z.ZodType<NoInfer<Output>>;
  run(input: z.output<Schema>, context: OperationContext): Promise<Output>;
  /** A compact text rendering for a model to read (MCP `content`); the JSON goes to structuredContent. */
  render(output: Output, input: z.output<Schema>): string;
  /**
   * Set by operations whose answer can hold nothing because nothing they asked answered (searches: every provider
   * failed or was not asked): for such an answer, the one line that says so, and MCP marks the tool result isError
   * (its text and JSON stay whole), so that an agent reacts to a failure rather than reading it as "no results".
   * Undefined for any other answer. REST is not affected: a search answers 200 with what each provider did.
   * `context` gives the operations, for one made of others (auto_research asks each step's own operation).
   * An operation that sets it tells what failed in its answer and throws no upstream error: its route documents no
   * 502 or 504 (http/operation-errors.ts).
   */
  failure?(output: Output, context: OperationContext): string | undefined;
  /**
   * `failure`'s rule in one sentence, added to the MCP tool's description (agents choose tools by it): "Fails only
   * when no provider answered." Not part of `description`, which OpenAPI shows too: over REST such an answer is a 200.
   */
  failureRule?: string;
  /**
   * Set when it answers from the service's own state and asks nothing outside it (the provider and operation
   * catalogues): MCP's openWorldHint is then false. Every other operation reaches providers or pages on the web.
   */
  closedWorld?: true;
  /**
   * Set by an operation that looks up one thing the caller names, which may not exist: when it answers NOT_FOUND
   * (404), in a few words ("the video has no captions"), which its route's documented 404 gives. Without it, the
   * route documents no 404: a search that finds nothing answers 200 with no results.
   */
  notFound?: string;
}

/**
 * An answer as a model reads it: its text, and, for an answer that is a failure (see `failure`), the line that says
 * so, put first. MCP gives a tool call this; auto_research gives each of its sections the same.
 */
export function answerText(operation: Operation, output: unknown, input: z.output<z.ZodObject>, context: OperationContext): { text: string; failure?: string } {
  const text = operation.render(output, input);
  const failure = operation.failure?.(output, context);
  return failure === undefined ? { text } : { text: `${failure}\n\n${text}`, failure };
}

/** Keeps the schema's types flowing into run() and render() while storing operations in one list. */
export function defineOperation<Schema extends z.ZodObject, Output>(operation: Operation<Schema, Output>): Operation {
  return operation as unknown as Operation;
}
