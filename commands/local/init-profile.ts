import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/errors.js';
import { DEFAULT_LOCAL_URL, LOCAL_PROFILE } from '../../src/local/embedded.js';
import { escapeControls } from '../../src/render/escape.js';
import { sameStore } from './same-store.js';

/** Where `cr local init` saves its key, decided before anything is made. */
export interface ProfilePlan {
  /** `--profile NAME`, else CR_PROFILE, else `local`. */
  name: string;
  /** The store the profile will point at: its absolute path, or its URL without the password. */
  store: string;
  /** True when a profile of that name is there already (its key is replaced). */
  replaces: boolean;
  /** True when there is no active profile yet: this one becomes it (and init says so). */
  makeActive: boolean;
  /** The server the replaced profile pointed at, when it was not the local one: it changes. */
  movedFrom?: string;
}

/**
 * A profile is never replaced in silence (docs/local-server.md "cr local init"): the one named
 * is written when it is absent, or already points at this store (a `--force` re-init of the
 * same store, whose old key died with it), or when `--replace-profile` says so. Otherwise the
 * command stops with exit 2 before the store is made, so nothing is lost: the profile's key
 * still opens the store it was made for.
 */
export async function planProfile(ctx: Context, store: string, replace: boolean): Promise<ProfilePlan> {
  // As auth login and every other command: --profile, then CR_PROFILE (docs/cli-contract.md).
  const name = ctx.globals.profile ?? (ctx.env.CR_PROFILE || undefined) ?? LOCAL_PROFILE;
  const profiles = await ctx.profiles();
  const existing = profiles.get(name);
  const taken = existing !== undefined && (existing.apiKey !== undefined || existing.baseUrl !== undefined);
  const same = taken && existing.store !== undefined && sameStore(existing.store, store) && existing.baseUrl === DEFAULT_LOCAL_URL;
  if (taken && !same && !replace) {
    const where = existing.store ?? existing.baseUrl ?? 'another server';
    throw new UsageError(
      `the profile "${name}" already points at ${escapeControls(where)}; nothing was created`,
      `pass --profile NAME to save this store's key under another name, or --replace-profile to replace "${name}" (its key is lost)`,
    );
  }
  const movedFrom = taken && existing.baseUrl !== undefined && existing.baseUrl !== DEFAULT_LOCAL_URL ? existing.baseUrl : undefined;
  return { name, store, replaces: taken, makeActive: profiles.activeName() === undefined, movedFrom };
}
