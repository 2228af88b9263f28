import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { asCliError } from '../../src/local/errors.js';
import { writeJson } from '../../src/render/json.js';
import { UsageError } from '../../src/errors.js';

export const restoreCommand = (ctx: Context) =>
  withExamples(
    new Command('restore')
      .description(
        'replace the store file with its newest valid backup (or --from FILE) and the writes its journals hold after it; the replaced file is kept as <store>.corrupt-<time>',
      )
      .addOption(storeOption())
      .option('--from <file>', 'restore this file (validated first) instead of the newest backup')
      .action((f: { store?: string; from?: string }) => restore(ctx, f)),
    ['cr local restore', 'cr local restore --store ./store.json --from ./store.json.bak.2'],
  );

async function restore(ctx: Context, o: { store?: string; from?: string }): Promise<void> {
  const [{ defaultStorePath }, { restoreStore }] = await Promise.all([import('../../src/server/serve.js'), import('../../src/server/store/restore.js')]);
  const store = o.store ?? defaultStorePath(ctx.env);
  const { isDatabaseUrl } = await import('../../src/config/store-url.js');
  if (isDatabaseUrl(store)) {
    throw new UsageError(
      "cr local restore restores JSON store files; a PostgreSQL store is restored with PostgreSQL's own backups",
      'use pg_dump/pg_restore or your base backups (docs/shared-sandbox.md); cr local copy --from postgres://… --to FILE makes a JSON snapshot',
    );
  }
  let result;
  try {
    result = await restoreStore(store, { from: o.from });
  } catch (err) {
    throw await asCliError(err, store);
  }
  if (ctx.globals.json) return writeJson(ctx.io, result);
  ctx.notice(`Restored ${result.storePath} from ${result.restoredFrom}.`);
  if (result.keptAs) ctx.notice(`The replaced file is kept as ${result.keptAs}.`);
  const from = result.replayed.filter((r) => r.groups > 0).map((r) => `${r.path} (${r.records})`);
  ctx.notice(
    from.length > 0
      ? `Brought back ${result.records} record change(s) acknowledged after the backup, from ${from.join(', ')}; they are replayed when the store opens.`
      : 'No journal held writes made after the backup.',
  );
  if (result.stopped) ctx.notice(`The replay stopped there: ${result.stopped}.`);
  if (result.setAside) ctx.notice(`The store's journal held writes that could not be carried over; it is kept as ${result.setAside}.`);
}
