import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FedsearchError } from '../../src/domain/errors.js';
import { callTool } from '../../src/mcp/tool-calls.js';
import { buildTools } from '../../src/mcp/tools.js';
import { defineOperation, type Operation, type OperationContext } from '../../src/operations/operation.js';

function probe(run: (input: { n: number }, context: OperationContext) => Promise<unknown>, render = (output: unknown) => JSON.stringify(output)): Operation {
  return defineOperation({
    name: 'probe',
    description: 'A test operation.',
    input: z.strictObject({ n: z.number().int().min(1) }),
    example: { n: 1 },
    output: z.unknown(),
    run,
    render,
  });
}

function contextWith() {
  const logger = { info: vi.fn(), error: vi.fn() };
  const context = { signal: new AbortController().signal, logger: logger as unknown as FastifyBaseLogger } as OperationContext;
  return { context, logger };
}

async function call(operation: Operation, params: unknown) {
  const { context, logger } = contextWith();
  const [binding] = buildTools([operation], 'compact');
  const { result, operation: ran } = await callTool(binding!, { operation: 'probe', params }, context);
  return { result, ran, logger, context };
}

describe('MCP tool calls', () => {
  it('hands the operation the caller\'s signal and logger', async () => {
    let seen: OperationContext | undefined;
    const { result, context } = await call(
      probe(async (input, operationContext) => {
        seen = operationContext;
        return { doubled: input.n * 2 };
      }),
      { n: 2 },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: '{"doubled":4}' }], structuredContent: { doubled: 4 } });
    expect(seen!.signal).toBe(context.signal);
    expect(seen!.logger).toBe(context.logger);
  });

  it('hides unexpected errors behind a generic sentence and logs them', async () => {
    for (const error of [new Error('boom at /srv/secret/path'), new FedsearchError('INTERNAL', 'invariant broken at /srv/secret/path')]) {
      const { result, logger } = await call(
        probe(async () => {
          throw error;
        }),
        { n: 1 },
      );
      expect(result).toEqual({ content: [{ type: 'text', text: 'probe failed with an internal error; see the server log' }], isError: true });
      expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ err: error }), 'MCP tool call failed');
    }
  });

  it('keeps the message of our own upstream errors, as REST does', async () => {
    const { result, logger } = await call(
      probe(async () => {
        throw new FedsearchError('PROVIDER_NOT_CONFIGURED', 'youtube is not configured: set YOUTUBE_API_KEY');
      }),
      { n: 1 },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'youtube is not configured: set YOUTUBE_API_KEY' }], isError: true });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('answers a call its client cancelled without logging an error', async () => {
    const controller = new AbortController();
    const { context, logger } = contextWith();
    const [binding] = buildTools(
      [
        probe(async () => {
          controller.abort(new Error('the client closed the connection'));
          throw controller.signal.reason;
        }),
      ],
      'compact',
    );
    const { result } = await callTool(binding!, { operation: 'probe', params: { n: 1 } }, { ...context, signal: controller.signal });
    expect(result).toEqual({ content: [{ type: 'text', text: 'probe was cancelled' }], isError: true });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('keeps the message of a client error', async () => {
    const { result, ran } = await call(
      probe(async () => {
        throw new FedsearchError('NOT_FOUND', 'no provider knows doi 10.1/x');
      }),
      { n: 1 },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'no provider knows doi 10.1/x' }], isError: true });
    // The operation that ran, failing or not, is named for the tool call's metrics.
    expect(ran).toBe('probe');
  });

  it('bounds the text to 20,000 characters and wraps a non-object output for structuredContent', async () => {
    const { result } = await call(
      probe(
        async () => ['a', 'b'],
        () => 'x'.repeat(50_000),
      ),
      { n: 1 },
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text).toMatch(/\(cut to keep this answer short\)$/);
    expect(result.structuredContent).toEqual({ result: ['a', 'b'] });
  });

  it('bounds the text without splitting a character written as two UTF-16 units', async () => {
    // The bound keeps 19,960 characters: the 19,960th and 19,961st are the two halves of one emoji.
    const { result } = await call(
      probe(
        async () => ({}),
        () => `${'x'.repeat(19_959)}\u{1F600}${'y'.repeat(100)}`,
      ),
      { n: 1 },
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text).toBe(`${'x'.repeat(19_959)}\n(cut to keep this answer short)`);
  });

  it('rejects params that are not an object', async () => {
    const { result, ran } = await call(probe(async () => ({})), 'n=1');
    expect(result.isError).toBe(true);
    // Refused before it ran: no operation is named.
    expect(ran).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toBe('params: not an object; allowed: an object of probe\'s parameters\nParameters of probe(n: integer)\nExample: {"operation":"probe","params":{"n":1}}');
  });
});
