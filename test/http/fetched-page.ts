import { expect } from 'vitest';
import { callOperation, type RunningService } from '../support/service.js';

/** fetch_url's answer for `url`, which must be a 200; a refusal fails with its path and the body that says why. */
export async function fetchedPage<Page>(service: RunningService, url: string): Promise<Page> {
  const response = await callOperation(service, 'fetch_url', { url });
  const body = (await response.json()) as Page;
  const path = new URL(url).pathname;
  expect({ path, status: response.status }, JSON.stringify(body)).toEqual({ path, status: 200 });
  return body;
}
