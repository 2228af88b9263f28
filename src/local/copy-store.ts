import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreData } from '../server/store/schema.js';
import { COLLECTION_NAMES } from '../server/store/schema.js';
import { isDatabaseUrl, redactUrl } from '../config/store-url.js';
import { LocalError } from '../errors.js';

export interface CopyResult {
  from: string;
  to: string;
  records: number;
}

/** Every record of a store, read without taking it from a server that may be using it (read-store.ts reads either kind). */
async function readAll(location: string, env: NodeJS.ProcessEnv | undefined): Promise<StoreData> {
  const { readStore } = await import('./read-store.js');
  return readStore(isDatabaseUrl(location) ? location : resolve(location), { env });
}

const count = (data: StoreData) => COLLECTION_NAMES.reduce((n, c) => n + data[c].length, 0);

/** Writes a whole store into an empty destination: a new JSON file, or an empty database. */
async function writeAll(location: string, data: StoreData, env: NodeJS.ProcessEnv | undefined): Promise<void> {
  if (isDatabaseUrl(location)) {
    const [{ PgStore }, { loadInto, DestinationNotEmptyError }] = await Promise.all([
      import('../server/store-pg/pg-store.js'),
      import('../server/store-pg/bulk-load.js'),
    ]);
    const store = await PgStore.open(location, { max: 2, env });
    try {
      await loadInto(store, data);
    } catch (err) {
      if (err instanceof DestinationNotEmptyError) throw new LocalError(`${store.location}: ${err.message}`, 1, { cause: err, code: 'DESTINATION_NOT_EMPTY' });
      throw err;
    } finally {
      await store.close();
    }
    return;
  }
  const path = resolve(location);
  if (existsSync(path)) throw new LocalError(`${path} already exists; copy only into a new store file`, 1, { code: 'DESTINATION_NOT_EMPTY' });
  const { JsonStore } = await import('../server/store/json-store.js');
  const store = await JsonStore.open(path, { initial: () => data, lockLabel: 'cr local copy' });
  await store.close();
}

/**
 * `cr local copy --from SRC --to DST` (docs/shared-sandbox.md): a whole store between a JSON
 * file and PostgreSQL, in either direction, into an empty destination only, so nothing is
 * merged or overwritten. Export of the copy equals export of the source.
 */
export async function copyStore(from: string, to: string, opts: { env?: NodeJS.ProcessEnv } = {}): Promise<CopyResult> {
  const data = await readAll(from, opts.env);
  await writeAll(to, data, opts.env);
  return { from: redact(from), to: redact(to), records: count(data) };
}

const redact = (location: string) => (isDatabaseUrl(location) ? redactUrl(location) : resolve(location));
