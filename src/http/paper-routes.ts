import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clientKeyOf } from '../domain/client-key.js';
import { FedsearchError } from '../domain/errors.js';
import { QUERY_STRING } from '../domain/validation.js';
import type { OperationContext } from '../operations/operation.js';
import { downloadPaper } from '../operations/paper-download.js';
import { checkIdOrUrl } from '../operations/paper-operations.js';
import { contentDisposition } from './download-file-name.js';
import { refuseFetchLoop } from './fetch-loop.js';
import { clientGoneSignal } from './request-signal.js';
import { errorResponses } from './response-schemas.js';
import { documented } from './zod-schemas.js';

const downloadQuery = z
  .strictObject({
    id: z.string().trim().min(1).max(300).optional().describe('DOI, arXiv id, PMID, PMCID or Semantic Scholar id.'),
    url: z.string().trim().url().optional().describe('A PDF URL, instead of an identifier.'),
  })
  .superRefine(checkIdOrUrl);

/** `GET /v1/papers/download`: the paper's PDF itself (the paper_read operation returns its text instead). */
export function registerPaperRoutes(app: FastifyInstance, context: Omit<OperationContext, 'signal' | 'logger'>): void {
  app.get(
    '/v1/papers/download',
    {
      schema: {
        operationId: 'download_paper',
        tags: ['operations'],
        summary: "Download a paper's PDF by identifier (each open-access link its sources gave, then arXiv) or by URL",
        querystring: documented(downloadQuery, QUERY_STRING),
        // The PDF's media type for the 200 alone: `produces` set it for every answer, the JSON errors too.
        response: {
          200: {
            description: 'The PDF, as an attachment.',
            headers: {
              'Content-Disposition': {
                type: 'string',
                description: `attachment; filename="<identifier or file name>.pdf" in ASCII, with filename*=UTF-8''<the name percent-encoded> when it has other letters`,
              },
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(400, 401, 403, 404, 413, 415, 429, 500, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      refuseFetchLoop(request.headers['user-agent']);
      const input = request.query as z.output<typeof downloadQuery>;
      const { document, tried } = await downloadPaper(input, {
        ...context,
        signal: clientGoneSignal(reply),
        logger: request.log,
        caller: clientKeyOf(request),
      });
      if (document.kind !== 'pdf') {
        throw new FedsearchError(
          'FETCH_UNSUPPORTED_TYPE',
          `no location of the paper answered with a PDF (tried ${tried.join(', ')}): ${document.finalUrl} answered ${document.contentType}; use paper_read for its text`,
        );
      }
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(input.id, document.finalUrl))
        .send(document.body);
    },
  );
}
