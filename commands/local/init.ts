import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { UsageError } from '../../src/errors.js';
import type { Context } from '../../src/context.js';
import { withExamples, storeOption } from '../../src/cli-kit.js';
import { asCliError } from '../../src/local/errors.js';
import { DEFAULT_LOCAL_URL, LOCAL_PROFILE } from '../../src/local/embedded.js';
import { writeJson } from '../../src/render/json.js';
import { isDatabaseUrl, shownStore } from '../../src/store-url.js';

export const initCommand = (ctx: Context) =>
  withExamples(
    new Command('init')
      .description('create a local store and an admin key (printed once, saved as the profile "local")')
      .addOption(storeOption())
      .option('--demo', 'fill the store with demo data')
      .option('--force', 'replace an existing store file')
      .action((f: { store?: string; demo?: boolean; force?: boolean }) => init(ctx, f)),
    ['cr local init --demo', 'cr local init --store ./ci-store.json --force'],
  );

async function init(ctx: Context, o: { store?: string; demo?: boolean; force?: boolean }): Promise<void> {
  const [{ defaultStorePath }, { initStore }, { withStoreLock, lockWaitFromEnv }] = await Promise.all([
    import('../../src/server/serve.js'),
    import('../../src/server/init-store.js'),
    import('../../src/local/lock-wait.js'),
  ]);
  const storePath = o.store ?? defaultStorePath(ctx.env);
  if (isDatabaseUrl(storePath)) {
    const made = await initIntoDatabase(ctx, storePath, o);
    // The URL as made.storePath has it: without its password.
    return report(ctx, o, made.storePath, made);
  }
  // An existing store is a usage matter (exit 2), not a broken one (78): --force answers it.
  // initStore refuses it again, under its own check, if one appears in between.
  if (!o.force && existsSync(storePath)) {
    throw new UsageError(`a store already exists at ${storePath}`, 'pass --force to replace it (its data and keys are lost), or --store PATH for another one');
  }
  let made;
  try {
    made = await withStoreLock(() => initStore(storePath, { demo: Boolean(o.demo), force: Boolean(o.force), clock: { now: () => ctx.now() } }), {
      storePath,
      waitMs: lockWaitFromEnv(ctx.env),
    });
  } catch (err) {
    throw await asCliError(err);
  }
  return report(ctx, o, storePath, made);
}

/** A PostgreSQL store (docs/shared-sandbox.md): filled only when empty, so there is nothing for --force to replace. */
async function initIntoDatabase(ctx: Context, url: string, o: { demo?: boolean; force?: boolean }) {
  if (o.force)
    throw new UsageError('--force replaces a store file; a database is filled only when it is empty', 'drop and create the database, or name an empty one');
  const { initDatabase } = await import('../../src/server/init-store.js');
  try {
    // The context's clock (CR_NOW from its env), as every other command's: the demo's dates and the key's.
    return await initDatabase(url, { demo: Boolean(o.demo), clock: { now: () => ctx.now() }, env: ctx.env });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw await asCliError(err);
  }
}

async function report(
  ctx: Context,
  o: { store?: string; demo?: boolean },
  storePath: string,
  made: { key: string; storePath: string; keyId: string; websiteId: string },
): Promise<void> {
  const profiles = await ctx.profiles();
  profiles.save(LOCAL_PROFILE, { ...profiles.get(LOCAL_PROFILE), baseUrl: DEFAULT_LOCAL_URL, apiKey: made.key }, profiles.activeName() === undefined);
  if (ctx.globals.json) {
    writeJson(ctx.io, { storePath: made.storePath, key: made.key, keyId: made.keyId, websiteId: made.websiteId, profile: LOCAL_PROFILE });
  } else {
    ctx.io.out.write(`${made.key}\n`);
  }
  ctx.notice(`Created ${made.storePath}${o.demo ? ' with demo data' : ''}. The admin key above is shown once; it is saved as the profile "${LOCAL_PROFILE}".`);
  ctx.notice(`Next: cr serve${o.store ? ` --store ${shownStore(storePath)}` : ''}, then cr --profile ${LOCAL_PROFILE} finance summary`);
}
