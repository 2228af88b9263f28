import { Command } from 'commander';
import type { Context } from '../../../src/cli/context.js';
import { withExamples, storeOption } from '../../../src/cli/options.js';
import { scriptable } from '../../../src/output/flags.js';
import { asCliError } from '../../../src/local/errors.js';
import { storePathOf } from '../../../src/local/store-path.js';
import type { KeyInfo } from '../../../src/server/domain/keys.js';
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
    keys = (await readStore(await storePathOf(ctx.env, o.store), { env: ctx.env })).api_keys.map(({ key_sha256: _hash, ...info }) => info);
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
        { header: 'ID', kind: 'id', value: (k) => String(k.id) },
        { header: 'NAME', name: true, value: (k) => String(k.name) },
        { header: 'ROLE', kind: 'code', value: (k) => String(k.role) },
        // What the key may address: a website, or every website of its agency. The word and the
        // id in two columns: an id is shown whole or left out with the other ids, never cut
        // (docs/output.md "Tables").
        { header: 'SCOPE', kind: 'code', value: (k) => (k.website_id ? 'website' : 'agency') },
        { header: 'SCOPE ID', kind: 'id', value: (k) => String(k.website_id ?? k.agency_id) },
        // Dates as in every table: local time and a hint on a terminal, plain ISO piped.
        dateColumn('CREATED', (k: KeyInfo) => String(k.created_at), when, { time: true, past: true }),
        dateColumn('REVOKED', (k: KeyInfo) => (k.revoked_at ? String(k.revoked_at) : null), when, { time: true, past: true }),
      ],
      // The store's own field names (as --json prints them).
      csvColumns: (['id', 'name', 'role', 'website_id', 'agency_id', 'created_at', 'revoked_at'] as const).map((field) => ({
        header: field,
        value: (k: KeyInfo) => (k[field] === undefined || k[field] === null ? null : String(k[field])),
      })),
      empty: 'No keys.',
    },
  );
}
