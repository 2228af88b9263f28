import { Command } from 'commander';
import type { Context } from '../../../src/context.js';
import { withExamples, storeOption } from '../../../src/cli-kit.js';
import { scriptable } from '../../../src/output/flags.js';
import { asCliError } from '../../../src/local/errors.js';
import { storePathOf } from '../../../src/local/store-path.js';
import { render } from '../../../src/render/output.js';

export const listCommand = (ctx: Context) =>
  scriptable(withExamples(
    new Command('list').description('list keys (never the key itself)').addOption(storeOption()).action((f: { store?: string }) => list(ctx, f)),
    ['cr local keys list', "cr local keys list --jq '.[] | select(.revoked_at == null) | .id'"]), { jq: true, csv: true, jsonl: true, quiet: true });

export async function list(ctx: Context, o: { store?: string }): Promise<void> {
  const { listKeys } = await import('../../../src/server/keys.js');
  let keys;
  try {
    keys = await listKeys(await storePathOf(ctx.env, o.store));
  } catch (err) {
    throw await asCliError(err);
  }
  await render(ctx.io, { ...ctx.globals, data: keys, items: keys }, {
    rows: keys,
    id: (k) => String(k.id),
    columns: [
      { header: 'ID', value: (k) => String(k.id) },
      { header: 'NAME', value: (k) => String(k.name) },
      { header: 'ROLE', value: (k) => String(k.role) },
      { header: 'SCOPE', value: (k) => (k.website_id ? `website ${k.website_id}` : `agency ${k.agency_id}`) },
      { header: 'CREATED', value: (k) => String(k.created_at) },
      { header: 'REVOKED', value: (k) => (k.revoked_at ? String(k.revoked_at) : '') },
    ],
    empty: 'No keys.',
  });
}
