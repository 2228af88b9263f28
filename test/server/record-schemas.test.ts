import { describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/server/store/schema.js';
import { COLLECTION_NAMES } from '../../src/server/store/collections.js';
import { recordSchemaOf } from '../../src/server/store/record-schemas.js';

/**
 * A store validated whole (src/server/store/validate-store.ts) and one validated a collection at
 * a time (src/server/store/record-schemas.ts, collection-checks.ts) hold each record to the very
 * same schema, and name the collections in the same order (the first bad path of a file).
 */
describe('record schemas, whole and one collection at a time', () => {
  it('each collection loads the schema the whole-store check uses', async () => {
    for (const c of COLLECTION_NAMES) expect(await recordSchemaOf(c), c).toBe(COLLECTIONS[c]);
  });

  it('the collections are named in one order', () => {
    expect(Object.keys(COLLECTIONS)).toEqual(COLLECTION_NAMES);
  });
});
