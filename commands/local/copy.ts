import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { storeArg, withExamples } from '../../src/cli/options.js';
import { asCliError } from '../../src/local/errors.js';
import { writeJson } from '../../src/render/json.js';
import { escapeControls } from '../../src/render/escape.js';

export const copyCommand = (ctx: Context) =>
  withExamples(
    new Command('copy')
      .description('copy a whole store between a JSON file and PostgreSQL (either direction) into an empty destination')
      .requiredOption('--from <store>', 'the store to copy: a store file or a postgres:// URL (read only)', storeArg('--from'))
      .requiredOption('--to <store>', 'where to copy it: a new store file or an empty postgres:// database', storeArg('--to'))
      .action((o: { from: string; to: string }) => copy(ctx, o)),
    [
      'cr local copy --from ~/.local/share/cr/store.json --to postgres://cr@127.0.0.1:5432/cr_sandbox',
      'cr local copy --from postgres://cr@db:5432/cr_sandbox --to ./snapshot.json',
    ],
  );

async function copy(ctx: Context, o: { from: string; to: string }): Promise<void> {
  const { copyStore } = await import('../../src/local/copy-store.js');
  let result;
  try {
    result = await copyStore(o.from, o.to, { env: ctx.env });
  } catch (err) {
    // A full disk is named by the file written whole, the destination (a database URL is never shown: it may hold a password).
    const { isDatabaseUrl } = await import('../../src/config/store-url.js');
    throw await asCliError(err, isDatabaseUrl(o.to) ? undefined : o.to);
  }
  if (ctx.globals.json) return writeJson(ctx.io, result);
  ctx.notice(`Copied ${result.records} records from ${escapeControls(result.from)} to ${escapeControls(result.to)}.`);
}
