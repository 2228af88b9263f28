import type { ApiStore } from '../server/store/api-store.js';

/**
 * Makes sure a server's store has the admin key its owner administers it with while it runs
 * (`<store>.local-key`, src/local/credential.ts; docs/commands.md "Local store administration"): the one kept
 * beside the store when it still works, else a new admin key, said in a notice. A key the
 * user revoked is not replaced (as --local does), nor is one made in a store without a
 * website to scope it to; local administration then waits for the server to stop.
 */
export async function ensureAdminKey(store: ApiStore, storePath: string, now: Date, notice: (line: string) => void): Promise<void> {
  const [{ credentialState, readCredential, saveCredential, credentialPathOf }, { createStoreKey }] = await Promise.all([
    import('./credential.js'),
    import('../server/ops/admin/store-ops.js'),
  ]);
  const found = await credentialState((id) => store.apiKey(id), readCredential(storePath));
  if (found.state !== 'none') return;
  const website = await store.firstWebsite();
  if (!website) {
    notice(
      `cr serve: ${storePath} has no website to scope an admin key to; cr local keys and seed cannot go through this server (seed the store before starting it)`,
    );
    return;
  }
  // A store or folder that cannot take the key (read-only, full) costs only this convenience: the server still serves.
  try {
    const made = await createStoreKey(store, { role: 'admin', websiteId: website.id, name: 'cr --local', now });
    saveCredential(storePath, { keyId: String(made.info.id), key: made.key });
    notice(`cr serve: made an admin key (id ${String(made.info.id)}) for local administration; kept in ${credentialPathOf(storePath)} (mode 0600)`);
  } catch (err) {
    notice(`cr serve: could not make the store's admin key for local administration (${(err as Error).message})`);
  }
}
