import { statSync } from 'node:fs';
import { Command } from 'commander';
import { LocalError, UsageError } from '../../src/errors.js';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { asCliError } from '../../src/local/errors.js';
import { DEFAULT_LOCAL_URL } from '../../src/local/embedded.js';
import { writeJson } from '../../src/render/json.js';
import { isDatabaseUrl, redactUrl, shownStore } from '../../src/config/store-url.js';
import { planProfile, type ProfilePlan } from './init-profile.js';
import { realStorePath } from './same-store.js';
import { redactUrlPassword } from '../../src/config/redact.js';
import { escapeControls } from '../../src/render/escape.js';

export const initCommand = (ctx: Context) =>
  withExamples(
    new Command('init')
      .description('create a local store and an admin key (printed once, saved as the profile "local", or --profile NAME)')
      .addOption(storeOption())
      .option('--demo', 'fill the store with demo data')
      .option('--force', 'replace an existing store file')
      .option('--replace-profile', 'replace the profile even when it points at another store (its key is lost)')
      .action((f: InitFlags) => init(ctx, f)),
    ['cr local init --demo', 'cr local init --store ./ci-store.json --force', 'cr --profile ci local init --store ./ci-store.json'],
  );

interface InitFlags {
  store?: string;
  demo?: boolean;
  force?: boolean;
  replaceProfile?: boolean;
}

async function init(ctx: Context, o: InitFlags): Promise<void> {
  const [{ defaultStorePath }, { initStore }, { withStoreLock, lockWaitFromEnv }] = await Promise.all([
    import('../../src/server/serve.js'),
    import('../../src/server/ops/init-store.js'),
    import('../../src/local/lock-wait.js'),
  ]);
  const given = o.store ?? defaultStorePath(ctx.env);
  const database = isDatabaseUrl(given);
  // A file by its real path, as the system opens it: the existence check, the store made and
  // the message all name one file, however it was spelled (`link/../a.json`).
  const storePath = database ? given : realStorePath(given);
  // Checked before the store is made: a refusal leaves nothing behind (no store, no key, no profile change).
  const plan = await planProfile(ctx, database ? redactUrl(storePath) : storePath, Boolean(o.replaceProfile));
  if (database) {
    const made = await initIntoDatabase(ctx, storePath, o);
    // The URL as made.storePath has it: without its password.
    return report(ctx, o, made.storePath, made, plan);
  }
  // An existing store is a usage matter (exit 2), not a broken one (78): --force answers it.
  // initStore refuses it again, under its own check, if one appears in between.
  // A folder is no store: initStore names it (exit 78), --force or not.
  if (!o.force && statSync(storePath, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new UsageError(`a store already exists at ${storePath}`, 'pass --force to replace it (its data and keys are lost), or --store PATH for another one');
  }
  let made;
  try {
    made = await withStoreLock(() => initStore(storePath, { demo: Boolean(o.demo), force: Boolean(o.force), clock: { now: () => ctx.now() } }), {
      storePath,
      waitMs: lockWaitFromEnv(ctx.env),
    });
  } catch (err) {
    throw await asCliError(err, storePath);
  }
  return report(ctx, o, storePath, made, plan);
}

/** A PostgreSQL store (docs/shared-sandbox.md): filled only when empty, so there is nothing for --force to replace. */
async function initIntoDatabase(ctx: Context, url: string, o: { demo?: boolean; force?: boolean }) {
  if (o.force)
    throw new UsageError('--force replaces a store file; a database is filled only when it is empty', 'drop and create the database, or name an empty one');
  const { initDatabase } = await import('../../src/server/ops/init-store.js');
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
  plan: ProfilePlan,
): Promise<void> {
  const profiles = await ctx.profiles();
  const { name } = plan;
  let unsaved: unknown;
  try {
    profiles.save(name, { ...profiles.get(name), baseUrl: DEFAULT_LOCAL_URL, apiKey: made.key, store: plan.store }, plan.makeActive);
  } catch (err) {
    // The store and its key exist now: the key is still printed (it is shown once), then the failure.
    unsaved = err;
  }
  if (ctx.globals.json) {
    writeJson(ctx.io, {
      storePath: made.storePath,
      key: made.key,
      keyId: made.keyId,
      websiteId: made.websiteId,
      profile: name,
      profileReplaced: plan.replaces,
    });
  } else {
    ctx.io.out.write(`${made.key}\n`);
  }
  if (unsaved !== undefined) throw profileNotSaved(unsaved, made.storePath, name);
  const saved = plan.replaces ? `it replaced the key of the profile "${name}"` : `it is saved as the new profile "${name}"`;
  ctx.notice(`Created ${made.storePath}${o.demo ? ' with demo data' : ''}. The admin key above is shown once; ${saved}.`);
  // Commands run with this profile now reach the local server, not the one it named before.
  if (plan.movedFrom) ctx.notice(`The profile "${name}" now points at ${DEFAULT_LOCAL_URL} instead of ${escapeControls(redactUrlPassword(plan.movedFrom))}.`);
  if (plan.makeActive) ctx.notice(`"${name}" is now the active profile (there was none); \`cr profiles use NAME\` changes it.`);
  ctx.notice(`Next: cr serve${o.store ? ` --store ${nextStore(storePath)}` : ''}, then cr --profile ${name} finance summary`);
}

/**
 * The store as the "Next:" line shows it, in a form that works when copied: a database URL
 * without its password (never a literal `***`), which then comes from PGPASSWORD or
 * ~/.pgpass (docs/shared-sandbox.md "Connection settings").
 */
function nextStore(storePath: string): string {
  if (!isDatabaseUrl(storePath)) return shownStore(storePath);
  let u: URL;
  try {
    u = new URL(storePath);
  } catch {
    return shownStore(storePath);
  }
  if (u.password === '' && !u.searchParams.has('password')) return shownStore(storePath);
  u.password = '';
  u.searchParams.delete('password');
  return `${shownStore(u.toString())} (with the password in PGPASSWORD or ~/.pgpass)`;
}

/** The profile could not be written (a full disk, a read-only config folder): the key above is the only copy. */
function profileNotSaved(err: unknown, storePath: string, name: string): LocalError {
  const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
  return new LocalError(
    `Created ${storePath} and its admin key (printed above, shown once), but the profile "${name}" could not be saved (${escapeControls(why)}); keep the key, then \`cr auth login --profile ${name} --base-url ${DEFAULT_LOCAL_URL} --no-verify --with-key\` saves it (the key on standard input)`,
    1,
    { cause: err, code: 'PROFILE_NOT_SAVED' },
  );
}
