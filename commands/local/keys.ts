import { Command, Option } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples, storeOption } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';
import { asCliError } from '../../src/local/errors.js';
import { render } from '../../src/render/output.js';
import type { Role } from '../../src/api/schemas/common.js';

async function storePathOf(ctx: Context, flag?: string): Promise<string> {
  const { defaultStorePath } = await import('../../src/server/serve.js');
  return flag ?? defaultStorePath(ctx.env);
}

export const keysCommand = (ctx: Context) => {
  const keys = new Command('keys').description('API keys of the local store');
  keys.addCommand(
    withExamples(
      new Command('create')
        .description('create a key (printed once)')
        .addOption(new Option('--role <role>', 'viewer, editor or admin').choices(['viewer', 'editor', 'admin']).makeOptionMandatory())
        .option('--agency <id>', 'scope the key to an agency')
        .option('--name <name>', 'a label for the key')
        .addOption(storeOption())
        .action((f: { role: Role; agency?: string; name?: string; store?: string }) => create(ctx, f)),
      ['cr local keys create --role editor --website 3f1c…', 'cr local keys create --role viewer --agency 9a0d… --name "read-only CI"'],
    ),
  );
  keys.addCommand(
    withExamples(
      new Command('list').description('list keys (never the key itself)').addOption(storeOption()).action((f: { store?: string }) => list(ctx, f)),
      ['cr local keys list', 'cr local keys list --json | jq -r ".[].id"'],
    ),
  );
  keys.addCommand(
    withExamples(
      new Command('revoke').description('revoke a key by id').argument('<id>').addOption(storeOption()).action((id: string, f: { store?: string }) => revoke(ctx, id, f)),
      ['cr local keys revoke 0b6f2f7e-…'],
    ),
  );
  return keys;
};

async function create(ctx: Context, o: { role: Role; agency?: string; name?: string; store?: string }): Promise<void> {
  const website = ctx.globals.website;
  if (!website === !o.agency) throw new UsageError('Pass exactly one of --website ID or --agency ID');
  const { addApiKey } = await import('../../src/server/keys.js');
  let made;
  try {
    made = await addApiKey(await storePathOf(ctx, o.store), { role: o.role, websiteId: website, agencyId: o.agency, name: o.name });
  } catch (err) {
    throw await asCliError(err);
  }
  const { key_sha256: _hash, ...info } = made.record;
  if (ctx.globals.json) ctx.io.out.write(JSON.stringify({ ...info, key: made.key }, null, 2) + '\n');
  else ctx.io.out.write(`${made.key}\n`);
  ctx.notice(`Created ${o.role} key ${info.id}; the key above is shown once.`);
}

async function list(ctx: Context, o: { store?: string }): Promise<void> {
  const { listKeys } = await import('../../src/server/keys.js');
  let keys;
  try {
    keys = await listKeys(await storePathOf(ctx, o.store));
  } catch (err) {
    throw await asCliError(err);
  }
  await render(ctx.io, { json: ctx.globals.json, data: keys }, {
    rows: keys,
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

async function revoke(ctx: Context, id: string, o: { store?: string }): Promise<void> {
  const { revokeKey } = await import('../../src/server/keys.js');
  let info;
  try {
    info = await revokeKey(await storePathOf(ctx, o.store), id);
  } catch (err) {
    throw await asCliError(err);
  }
  if (ctx.globals.json) ctx.io.out.write(JSON.stringify(info, null, 2) + '\n');
  ctx.notice(`Revoked key ${info.id} (${info.name}) at ${info.revoked_at}`);
}
