import { listOperations, listProviders } from './catalog-operations.js';
import type { Operation } from './operation.js';
import { paperSearch, webSearch } from './search-operations.js';

/** Every operation, in the order tools and docs list them. */
export const OPERATIONS: readonly Operation[] = [webSearch, paperSearch, listProviders, listOperations];

export function findOperation(name: string): Operation | undefined {
  return OPERATIONS.find((operation) => operation.name === name);
}
