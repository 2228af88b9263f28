import type { Store } from '../server/store/store.js';

/**
 * Makes sure a server's store has the admin key its owner administers it with while it runs
 * (`<store>.local-key`, src/local/credential.ts; docs/commands.md "Local store administration"): the one kept
 * beside the store when it still works, else a new admin key, said in a notice. A key the
 * user revoked is not replaced (as --local does), nor is one made in a store without a
 * website to scope it to; local administration then waits for the server to stop.
 */
export async function ensureAdminKey(store: Store, storePath: string, now: Date, notice: (line: string) => void): Promise<void> {
  const [{ credentialState, readCredential, saveCredential, credentialPathOf }, { createStoreKey }] = await Promise.all([
    import('./credential.js'),
    import('../server/admin/store-ops.js'),
  ]);
  const found = credentialState(store.data, readCredential(storePath));
  if (found.state !== 'none') return;
  const website = store.list('websites')[0];
  if (!website) {
    notice(`cr serve: ${storePath} has no website to scope an admin key to; cr local keys/seed wait for the server to stop`);
    return;
  }
  const made = await createStoreKey(store, { role: 'admin', websiteId: website.id, name: 'cr --local', now });
  try {
    saveCredential(storePath, { keyId: String(made.info.id), key: made.key });
  } catch (err) {
    notice(`cr serve: could not keep the store's admin key in ${credentialPathOf(storePath)} (${(err as Error).message})`);
    return;
  }
  notice(`cr serve: made an admin key (id ${String(made.info.id)}) for local administration; kept in ${credentialPathOf(storePath)} (mode 0600)`);
}
