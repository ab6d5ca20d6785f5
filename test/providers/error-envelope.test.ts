import { describe, expect, it } from 'vitest';
import {
  ERROR_ENVELOPES,
  describeJsonError,
  describePlainTextError,
  errorEnvelopeMessage,
  type ErrorEnvelope,
} from '../../src/providers/error-envelope.js';
import { response } from '../support/run-provider.js';

const { detail, errorObject, errorString, failureList, message } = ERROR_ENVELOPES;

describe('JSON error envelopes', () => {
  it.each<[string, ErrorEnvelope[], Record<string, unknown>, string]>([
    ['Exa, Semantic Scholar, NCBI: a bare error string', [errorString], { requestId: 'r1', error: 'x-api-key header is invalid' }, 'x-api-key header is invalid'],
    ['Firecrawl: success false with error and details', [errorString, message], { success: false, error: 'Payment Required', details: { creditsRequired: 5 } }, 'Payment Required'],
    ['Algolia: a bare message', [message], { message: 'invalid numeric attribute', status: 400 }, 'invalid numeric attribute'],
    ['OpenAlex: the message before the generic error title', [message, errorString], { error: 'Invalid query parameters error.', message: 'per_pag is not valid.' }, 'per_pag is not valid.'],
    ['GitHub: the message and the first validation error', [message], { message: 'Validation Failed', errors: [{ message: 'q is empty', code: 'invalid' }] }, 'Validation Failed: q is empty'],
    ['GitHub: an error given by its code only', [message], { message: 'Validation Failed', errors: [{ code: 'missing' }] }, 'Validation Failed: missing'],
    ['Google: the reason leads the message', [errorObject], { error: { code: 403, message: 'Quota <b>exceeded</b>.', errors: [{ reason: 'quotaExceeded' }] } }, 'quotaExceeded: Quota exceeded.'],
    ['MediaWiki: info with its code', [errorObject], { error: { code: 'badvalue', info: 'Unrecognized value.', docref: 'See …' } }, 'Unrecognized value. (badvalue)'],
    ['Brave: the detail, not the code', [errorObject], { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The token is invalid.' } }, 'The token is invalid.'],
    ['Brave: the code when there is no detail', [errorObject], { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } }, 'RATE_LIMITED'],
    ['FastAPI (Tavily): detail.error', [detail], { detail: { error: 'Unauthorized: missing or invalid API key.' } }, 'Unauthorized: missing or invalid API key.'],
    ['FastAPI: a detail string', [detail], { detail: 'Not Found' }, 'Not Found'],
    ['Crossref: the first failure', [failureList, message], { status: 'failed', message: [{ type: 'parameter-not-allowed', value: 'bogus', message: 'This route does not support bogus' }] }, 'This route does not support bogus'],
  ])('%s', (_shape, envelopes, body, expected) => {
    expect(errorEnvelopeMessage(body, envelopes)).toBe(expected);
    expect(describeJsonError(response(JSON.stringify(body), 400), envelopes)).toBe(expected);
  });

  it('reads only the envelopes an adapter names: another API\'s error body says nothing', () => {
    expect(errorEnvelopeMessage({ error: 'gateway' }, [errorObject])).toBeUndefined();
    expect(errorEnvelopeMessage({ error: { message: 'nested' } }, [errorString, message])).toBeUndefined();
    expect(errorEnvelopeMessage({ detail: 'Not Found' }, [errorString, errorObject])).toBeUndefined();
  });

  it('finds nothing in a successful body or in a body that is not a JSON object', () => {
    const every = Object.values(ERROR_ENVELOPES);
    expect(errorEnvelopeMessage({ results: [], requestId: 'r1' }, every)).toBeUndefined();
    expect(errorEnvelopeMessage({ status: 'ok', 'message-type': 'work-list', message: { items: [] } }, every)).toBeUndefined();
    for (const body of ['["message"]', '<html><body>Bad gateway</body></html>', '', 'upstream connect error']) {
      expect(describeJsonError(response(body, 502), every), body).toBeUndefined();
    }
  });

  it('keeps a short plain-text error line and leaves pages, JSON and long bodies to the status', () => {
    expect(describePlainTextError(response(' Rate exceeded.\n', 503))).toBe('Rate exceeded.');
    for (const body of ['', '<html>Bad gateway</html>', '{"error": "x"}', 'x'.repeat(201)]) {
      expect(describePlainTextError(response(body, 502)), body).toBeUndefined();
    }
  });
});
