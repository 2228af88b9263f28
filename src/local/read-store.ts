import { readFile } from 'node:fs/promises';
import { StoreError } from '../server/store/errors.js';
import { parseStoreBuffer } from '../server/store/validate-store.js';
import { journalPathOf, snapshotId } from '../server/store/journal.js';
import { replayJournal } from '../server/store/replay.js';
import { nodeFs } from '../server/store/fs-layer.js';
import type { StoreData } from '../server/store/schema.js';
import { isDatabaseUrl } from '../config/store-url.js';

const readOrUndefined = (path: string) =>
  readFile(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new StoreError(path, `cannot read (${err.code ?? err.message})`, { cause: err });
  });

/**
 * The store as its last acknowledged write left it, read without the writer lock and
 * without writing anything: the snapshot plus the journal's groups after it, a torn last
 * line ignored (as the writer does, docs/api-decisions.md §7). For what only reads (`cr local keys
 * list`, --local's look at its key): it works beside a running `cr serve` or `--local`, and
 * on a read-only folder. A fold in between the two reads (the journal names a newer
 * snapshot) is met by reading both again.
 */
export async function readStore(path: string, opts: { env?: NodeJS.ProcessEnv } = {}): Promise<StoreData> {
  // A PostgreSQL store (docs/shared-sandbox.md) is read in one transaction's view: its own last commit.
  if (isDatabaseUrl(path)) {
    const { openStore, localCommandDatabase } = await import('../server/store/open-store.js');
    const store = await openStore(path, { database: localCommandDatabase(opts.env) });
    try {
      return (await store.snapshot()) as StoreData;
    } finally {
      await store.close();
    }
  }
  for (let attempt = 1; ; attempt++) {
    const bytes = await readOrUndefined(path);
    if (!bytes) throw new StoreError(path, 'no store here (cr local init creates one)');
    const data = parseStoreBuffer(path, bytes);
    const journalPath = journalPathOf(path);
    const replay = await replayJournal(nodeFs, journalPath, data, snapshotId(bytes));
    if (replay.state !== 'foreign' || replay.unsaved === 0) return data;
    if (attempt >= 5)
      throw new StoreError(journalPath, `holds writes made after another version of ${path}; run a local command that opens the store to check it`);
  }
}
