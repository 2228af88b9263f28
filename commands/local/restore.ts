import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples, storeOption } from '../../src/cli-kit.js';
import { asCliError } from '../../src/local/errors.js';
import { writeJson } from '../../src/render/json.js';

export const restoreCommand = (ctx: Context) =>
  withExamples(
    new Command('restore')
      .description('replace the store file with its newest valid backup (or --from FILE); the replaced file is kept as <store>.corrupt-<time>')
      .addOption(storeOption())
      .option('--from <file>', 'restore this file (validated first) instead of the newest backup')
      .action((f: { store?: string; from?: string }) => restore(ctx, f)),
    ['cr local restore', 'cr local restore --store ./store.json --from ./store.json.bak.2'],
  );

async function restore(ctx: Context, o: { store?: string; from?: string }): Promise<void> {
  const [{ defaultStorePath }, { restoreStore }] = await Promise.all([import('../../src/server/serve.js'), import('../../src/server/store/backups.js')]);
  let result;
  try {
    result = await restoreStore(o.store ?? defaultStorePath(ctx.env), { from: o.from });
  } catch (err) {
    throw await asCliError(err);
  }
  if (ctx.globals.json) return writeJson(ctx.io, result);
  ctx.notice(`Restored ${result.storePath} from ${result.restoredFrom}.`);
  if (result.keptAs) ctx.notice(`The replaced file is kept as ${result.keptAs}.`);
  if (result.journal.action === 'set-aside') {
    ctx.notice(
      `The journal held ${result.journal.unsavedGroups ?? 'some'} unsaved group commit(s) made over the replaced file; they are not applied and were set aside as ${result.journal.path}.`,
    );
  } else if (result.journal.action === 'kept') {
    ctx.notice(`The journal continues the restored snapshot; its writes are replayed when the store opens.`);
  }
}
