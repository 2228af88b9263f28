import { Command } from 'commander';
import type { Context } from '../../../src/cli/context.js';
import { withExamples, storeOption, vocabularyOption } from '../../../src/cli/options.js';
import { UsageError } from '../../../src/errors.js';
import { ROLES, type Role } from '../../../src/api/vocabulary.js';
import type { KeyInfo } from '../../../src/server/domain/keys.js';
import { storePathOf } from '../../../src/local/store-path.js';
import { writeJson } from '../../../src/render/json.js';

interface CreateOptions {
  role: Role;
  agency?: string;
  name?: string;
  store?: string;
  forLocal?: boolean;
}

export const createCommand = (ctx: Context) =>
  withExamples(
    new Command('create')
      .description('create a key (printed once)')
      .addOption(vocabularyOption('--role <role>', "the key's role", ROLES).makeOptionMandatory())
      .option('--agency <id>', 'scope the key to an agency')
      .option('--name <name>', 'a label for the key')
      .option('--for-local', 'make it the key --local uses for this store (kept beside the store, not printed)')
      .addOption(storeOption())
      .action((f: CreateOptions) => create(ctx, f)),
    [
      'cr local keys create --role editor --website 3f1c9b2e-5a47-4d8c-b6e1-7a0f2c9d8e31',
      'cr local keys create --role viewer --agency 9a0d4c7f-2e18-4b5a-8f3d-6c1e9b7a2d54 --name "read-only CI"',
    ],
  );

export async function create(ctx: Context, o: CreateOptions): Promise<void> {
  const website = ctx.globals.website;
  if (!website === !o.agency) throw new UsageError('Pass exactly one of --website ID or --agency ID');
  const [{ administer }, { createStoreKey }] = await Promise.all([
    import('../../../src/local/administer.js'),
    import('../../../src/server/ops/admin/store-ops.js'),
  ]);
  const storePath = await storePathOf(ctx.env, o.store);
  const { isDatabaseUrl } = await import('../../../src/config/store-url.js');
  if (o.forLocal && isDatabaseUrl(storePath)) {
    throw new UsageError(
      '--for-local keeps the key beside a store file; a postgres:// store has no folder',
      'create the key without --for-local and give it to --local as CR_API_KEY',
    );
  }
  const name = o.name ?? (o.forLocal ? 'cr --local' : undefined);
  // Works beside a running server too: then the server makes the key (src/local/administer.ts).
  const made = await administer<{ key: string; info: KeyInfo }>(
    storePath,
    {
      offline: (store) => createStoreKey(store, { role: o.role, websiteId: website, agencyId: o.agency, name }),
      online: async (client) => {
        const { key, ...info } = await client.call<KeyInfo & { key: string }>('POST', '/keys', {
          role: o.role,
          website_id: website,
          agency_id: o.agency,
          name,
        });
        return { key, info };
      },
    },
    ctx.env,
  );
  const { info } = made;
  if (o.forLocal) {
    // --local's own key (src/local/credential.ts): kept beside the store, so never printed.
    const { saveCredential, credentialPathOf } = await import('../../../src/local/credential.js');
    saveCredential(storePath, { keyId: String(info.id), key: made.key });
    if (ctx.globals.json) writeJson(ctx.io, info);
    ctx.notice(`Created ${o.role} key ${info.id} for --local; kept in ${credentialPathOf(storePath)} (mode 0600).`);
    return;
  }
  if (ctx.globals.json) writeJson(ctx.io, { ...info, key: made.key });
  else ctx.io.out.write(`${made.key}\n`);
  ctx.notice(`Created ${o.role} key ${info.id}; the key above is shown once.`);
}
