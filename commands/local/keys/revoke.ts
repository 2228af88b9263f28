import { Command } from 'commander';
import type { Context } from '../../../src/cli/context.js';
import { withExamples, storeOption } from '../../../src/cli/options.js';
import type { KeyInfo } from '../../../src/server/domain/keys.js';
import { storePathOf } from '../../../src/local/store-path.js';
import { writeJson } from '../../../src/render/json.js';
import { escapeControls } from '../../../src/render/escape.js';

export const revokeCommand = (ctx: Context) =>
  withExamples(
    new Command('revoke')
      .description('revoke a key by id')
      .argument('<id>')
      .addOption(storeOption())
      .action((id: string, f: { store?: string }) => revoke(ctx, id, f)),
    ['cr local keys revoke 0b6f2f7e-4c1a-4e8d-9b2f-5a7c3e1d6f08'],
  );

export async function revoke(ctx: Context, id: string, o: { store?: string }): Promise<void> {
  const [{ administer }, { revokeStoreKey }] = await Promise.all([
    import('../../../src/local/administer.js'),
    import('../../../src/server/ops/admin/store-ops.js'),
  ]);
  const storePath = await storePathOf(ctx.env, o.store);
  // Works beside a running server too: then the server revokes it (src/local/administer.ts).
  const info = await administer(
    storePath,
    {
      offline: (store) => revokeStoreKey(store, id, new Date()),
      online: (client) => client.call<KeyInfo>('POST', `/keys/${encodeURIComponent(id)}/revoke`),
    },
    ctx.env,
  );
  if (ctx.globals.json) writeJson(ctx.io, info);
  // The name came from the store: escaped like every stored text (docs/cli-contract.md "At a terminal").
  ctx.notice(escapeControls(`Revoked key ${info.id} (${info.name}) at ${info.revoked_at}`));
}
