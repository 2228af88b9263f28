import { LocalError, UsageError } from '../errors.js';

/** Exit code of an unusable store file (EX_CONFIG from sysexits.h). */
export const EXIT_BAD_STORE = 78;

/**
 * Maps the server's store errors to CLI errors: an invalid store exits 78, a store held by
 * another server exits 1 with the holder named. Anything else passes through.
 */
export async function asCliError(err: unknown): Promise<unknown> {
  const { StoreError, StoreLockedError } = await import('../server/store.js');
  if (err instanceof StoreError) return new LocalError(err.message, EXIT_BAD_STORE, { cause: err, code: 'STORE_INVALID' });
  if (err instanceof StoreLockedError) return new LocalError(err.message, 1, { cause: err, code: 'STORE_LOCKED' });
  if (err instanceof Error && /^(Unknown (role|website|agency|user)|A key is scoped|No API key with id)/.test(err.message)) return new UsageError(err.message);
  return err;
}
