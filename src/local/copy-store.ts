import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreData } from '../server/store/schema.js';
import type { PgStore } from '../server/store-pg/pg-store.js';
import { COLLECTION_NAMES } from '../server/store/collections.js';
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

/**
 * Writes a whole store into an empty destination: a new JSON file, made with the records as its
 * first content, or an empty database, loaded in one transaction (a database that holds records
 * refuses the load).
 */
async function writeAll(location: string, data: StoreData, env: NodeJS.ProcessEnv | undefined): Promise<void> {
  const database = isDatabaseUrl(location);
  const where = database ? location : resolve(location);
  if (!database && existsSync(where)) throw new LocalError(`${where} already exists; copy only into a new store file`, 1, { code: 'DESTINATION_NOT_EMPTY' });
  const { openStore } = await import('../server/store/open-store.js');
  const store = await openStore(where, { file: { initial: () => data, lockLabel: 'cr local copy' }, database: { max: 2, env } });
  try {
    if (store.kind === 'postgres') await loadAll(store, data);
  } finally {
    await store.close();
  }
}

/** A database's load (src/server/store-pg/bulk-load.ts), refused into one that holds records. */
async function loadAll(store: PgStore, data: StoreData): Promise<void> {
  const { loadInto, DestinationNotEmptyError } = await import('../server/store-pg/bulk-load.js');
  try {
    await loadInto(store, data);
  } catch (err) {
    if (err instanceof DestinationNotEmptyError) throw new LocalError(`${store.location}: ${err.message}`, 1, { cause: err, code: 'DESTINATION_NOT_EMPTY' });
    throw err;
  }
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
