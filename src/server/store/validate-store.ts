import { COLLECTIONS, StoreFile } from './schema.js';
import { COLLECTION_NAMES } from './collections.js';
import type { StoreData } from './collections.js';
import { describeIssue, storeBytesObject, storeDataOf, storeTextObject } from './snapshot.js';
import { StoreError } from './errors.js';

/**
 * A whole store file validated at once, every collection's records with the schemas of
 * schema.ts (docs/store-format.md "Rules"): what `cr serve` does at start, and a restore, a
 * backup's check, a read without the lock. StoreError names the file and the first bad path,
 * and how many more there are; collection-checks.ts gives the same error when it finds a bad
 * record of the collection it checks.
 */

/**
 * Validates record by record: zod returns a copy of what it parses, and one copy of a
 * whole large store at once doubles the memory a load needs (and RSS keeps it). Only when
 * something is wrong does the whole-file parse run, for its exact message.
 */
function recordsValid(raw: Record<string, unknown>): boolean {
  if (raw.version !== 1) return false;
  for (const c of COLLECTION_NAMES) {
    const list = raw[c];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return false;
    const schema = COLLECTIONS[c];
    for (const record of list) if (!schema.safeParse(record).success) return false;
  }
  return true;
}

export function validateStoreObject(storePath: string, raw: unknown): StoreData {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new StoreError(storePath, 'expected a JSON object with "version": 1');
  const result = recordsValid(raw as Record<string, unknown>) ? { success: true as const } : StoreFile.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0]!;
    const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
    throw new StoreError(storePath, describeIssue(first, raw) + more);
  }
  return storeDataOf(raw as Record<string, unknown>);
}

/** Validates the text of a store file; throws StoreError naming the file and the bad path. */
export function parseStoreText(storePath: string, text: string): StoreData {
  return validateStoreObject(storePath, storeTextObject(storePath, text));
}

/**
 * Validates the bytes of a store file: empty, NUL-filled, truncated, unparsable, a broken
 * seal (snapshot.ts) or an invalid record → StoreError naming the file and the problem.
 */
export function parseStoreBuffer(storePath: string, bytes: Buffer): StoreData {
  return validateStoreObject(storePath, storeBytesObject(storePath, bytes));
}
