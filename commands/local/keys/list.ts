import { Command } from 'commander';
import type { Context } from '../../../src/context.js';
import { withExamples, storeOption } from '../../../src/cli-kit.js';
import { scriptable } from '../../../src/output/flags.js';
import { asCliError } from '../../../src/local/errors.js';
import { storePathOf } from '../../../src/local/store-path.js';
import type { KeyInfo } from '../../../src/server/keys.js';
import { render } from '../../../src/render/output.js';
import { dateColumn, shownTime } from '../../../src/render/dates.js';

export const listCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('list')
        .description('list keys (never the key itself)')
        .addOption(storeOption())
        .action((f: { store?: string }) => list(ctx, f)),
      ['cr local keys list', "cr local keys list --jq '.[] | select(.revoked_at == null) | .id'"],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

/**
 * Reads the store without its writer lock (src/local/read-store.ts): the list works beside
 * a running `cr serve` or `--local`, and on a read-only folder.
 */
export async function list(ctx: Context, o: { store?: string }): Promise<void> {
  const { readStore } = await import('../../../src/local/read-store.js');
  let keys;
  try {
    keys = (await readStore(await storePathOf(ctx.env, o.store))).api_keys.map(({ key_sha256: _hash, ...info }) => info);
  } catch (err) {
    throw await asCliError(err);
  }
  // No server answered: the hint clock is the local one.
  const when = shownTime(ctx.env, ctx.now);
  await render(
    ctx.io,
    { ...ctx.globals, data: keys, items: keys },
    {
      rows: keys,
      id: (k) => String(k.id),
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (k) => String(k.id) },
        { header: 'NAME', field: 'name', value: (k) => String(k.name) },
        { header: 'ROLE', kind: 'code', field: 'role', value: (k) => String(k.role) },
        { header: 'SCOPE', kind: 'code', value: (k) => (k.website_id ? `website ${k.website_id}` : `agency ${k.agency_id}`) },
        { header: 'WEBSITE', kind: 'id', field: 'website_id', value: (k) => (k.website_id ? String(k.website_id) : null), tsvOnly: true },
        { header: 'AGENCY', kind: 'id', field: 'agency_id', value: (k) => (k.agency_id ? String(k.agency_id) : null), tsvOnly: true },
        // Dates as in every table: local time and a hint on a terminal, plain ISO piped.
        { ...dateColumn('CREATED', (k: KeyInfo) => String(k.created_at), when, { time: true, past: true }), field: 'created_at' },
        {
          ...dateColumn('REVOKED', (k: KeyInfo) => (k.revoked_at ? String(k.revoked_at) : null), when, { time: true, past: true }),
          field: 'revoked_at',
        },
      ],
      empty: 'No keys.',
    },
  );
}
