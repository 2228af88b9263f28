import { UUID_PATTERN } from './api/vocabulary.js';
import { UsageError } from './errors.js';

/** An id in the API's uuid format, checked before anything is sent (docs/cli-contract.md §5: exit 2). */
export function checkUuid(what: string, value: string): string {
  if (!UUID_PATTERN.test(value)) throw new UsageError(`${what} must be a uuid (e.g. 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91), got "${value}"`);
  return value;
}
