import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { asCliError } from '../../src/local/errors.js';
import { storePathOf } from '../../src/local/store-path.js';
import { render } from '../../src/render/output.js';
import type { WebsiteRecord } from '../../src/server/store/schema.js';

/** Said in the help: these list a local store; the hosted API has no such endpoints. */
export const LOCAL_ONLY = 'Reads the local store (works while cr serve holds it). The hosted API has no such endpoint.';

export const websitesCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('websites')
        .description('list the websites a local store holds')
        .addHelpText('after', `\n${LOCAL_ONLY}`)
        .addOption(storeOption())
        .action((f: { store?: string }) => websites(ctx, f)),
      ['cr local websites', 'cr local websites -q | head -1', 'cr local websites --json --store ./ci-store.json'],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

export async function websites(ctx: Context, o: { store?: string }): Promise<void> {
  const { readStore } = await import('../../src/local/read-store.js');
  let rows: WebsiteRecord[];
  try {
    rows = (await readStore(await storePathOf(ctx.env, o.store), { env: ctx.env })).websites;
  } catch (err) {
    throw await asCliError(err);
  }
  await render(
    ctx.io,
    { ...ctx.globals, data: rows, items: rows },
    {
      rows,
      id: (w) => String(w.id),
      columns: [
        { header: 'ID', kind: 'id', value: (w) => String(w.id) },
        { header: 'NAME', name: true, value: (w) => String(w.name) },
        { header: 'DOMAIN', value: (w) => String(w.domain) },
        { header: 'AGENCY', kind: 'id', value: (w) => w.agency_id ?? '' },
      ],
      // The store's own field names (as --json prints them).
      csvColumns: (['id', 'name', 'domain', 'agency_id', 'owner_id'] as const).map((field) => ({
        header: field,
        value: (w: WebsiteRecord) => w[field] ?? null,
      })),
      empty: 'No websites (cr local seed FILE adds some).',
    },
  );
}
