import type { ApiStore } from '../server/store/api-store.js';
import type { AdminClient } from './admin-client.js';
import { asCliError } from './errors.js';
import { isDatabaseUrl } from '../config/store-url.js';

export interface Administration<T> {
  /** No server holds the store: the work done over it, opened under its lock. */
  offline(store: ApiStore): Promise<T>;
  /** A `cr serve` (or `cr mcp stdio --local`) holds it: the same work sent to that server. */
  online(client: AdminClient): Promise<T>;
}

/**
 * Runs one piece of local administration on the store at `storePath`, whichever way it can
 * be reached (docs/commands.md "Local store administration"): opened under its lock when free (a short holder
 * is waited for), else through the server advertised beside it. The errors of both ways come
 * out alike: the extension's refusals become the errors the store itself throws. A database's
 * schema is migrated only with `migrate` (seed, which may make the store).
 */
export async function administer<T>(storePath: string, work: Administration<T>, env: NodeJS.ProcessEnv, opts: { migrate?: boolean } = {}): Promise<T> {
  if (isDatabaseUrl(storePath)) return administerDatabase(storePath, work, env, opts.migrate === true);
  const [{ withStoreLock, lockWaitFromEnv }, { withOpenStore }] = await Promise.all([import('./lock-wait.js'), import('../server/ops/admin/store-ops.js')]);
  try {
    return await withStoreLock(() => withOpenStore(storePath, work.offline), {
      storePath,
      waitMs: lockWaitFromEnv(env),
      onServe: async (ad) => {
        const { adminClientFor } = await import('./admin-client.js');
        return work.online(await adminClientFor(storePath, ad));
      },
    });
  } catch (err) {
    throw await asCliError(await asStoreError(err), storePath);
  }
}

/**
 * A PostgreSQL store has no lock and no one server that holds it: every server and every
 * local command works on the database at once, each write one transaction
 * (docs/shared-sandbox.md). So the work is done here, directly.
 */
async function administerDatabase<T>(url: string, work: Administration<T>, env: NodeJS.ProcessEnv, migrate: boolean): Promise<T> {
  const { openStore, localCommandDatabase } = await import('../server/store/open-store.js');
  try {
    // Only a command that makes a store (seed) migrates the schema; the others check it
    // (docs/shared-sandbox.md "Upgrading").
    const store = await openStore(url, { database: localCommandDatabase(env, migrate) });
    try {
      return await work.offline(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    throw await asCliError(err);
  }
}

/** A refusal of the extension as the error the store would have thrown in this process. */
async function asStoreError(err: unknown): Promise<unknown> {
  const [{ AdminRefusal }, { FixtureError }, { KeyError }] = await Promise.all([
    import('./admin-client.js'),
    import('../server/ops/admin/fixtures.js'),
    import('../server/domain/keys.js'),
  ]);
  if (!(err instanceof AdminRefusal)) return err;
  const b = err.body;
  if (b.code === 'FIXTURE_INVALID' && Array.isArray(b.problems)) return new FixtureError(b.problems as never);
  if (b.code === 'KEY_REQUEST' && typeof b.kind === 'string') return new KeyError(b.kind as never, err.message);
  if (b.code === 'RESET_REQUEST' && typeof b.kind === 'string') {
    const { ResetError } = await import('../server/ops/admin/reset.js');
    return new ResetError(b.kind as never, err.message);
  }
  const { LocalError } = await import('../errors.js');
  const { escapeControls } = await import('../render/escape.js');
  return new LocalError(`the server holding the store answered ${err.status}: ${escapeControls(err.message)}`, 1, { cause: err, code: 'LOCAL_ADMIN_FAILED' });
}
