import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples, storeOption } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { readAllBytes } from '../../src/io/streams.js';
import { storePathOf } from '../../src/local/store-path.js';
import { writeJson } from '../../src/render/json.js';
import { escapeControls } from '../../src/render/escape.js';
import type { SeedCounts } from '../../src/server/ops/admin/store-ops.js';
import { isDatabaseUrl, shownStore } from '../../src/config/store-url.js';

interface SeedOptions {
  store?: string;
  schema?: boolean;
}

export const seedCommand = (ctx: Context) =>
  withExamples(
    new Command('seed')
      .description('load fixtures (docs/fixtures.md) into a local store: upsert by id, all or nothing; works while cr serve holds the store')
      .argument('[file]', 'fixture file (JSON), or - for standard input')
      .option('--schema', 'print the JSON Schema of the fixture format and exit')
      .addOption(storeOption())
      .action((file: string | undefined, f: SeedOptions) => seed(ctx, file, f)),
    [
      'cr local seed fixtures.json --store ./ci-store.json',
      'cr local export --only websites | cr local seed - --store ./other.json',
      'cr local seed --schema > fixtures.schema.json',
    ],
  );

/** `websites 2 added, social_posts 300 added 1 replaced` */
const countsText = (counts: SeedCounts) =>
  Object.entries(counts)
    .map(([c, n]) => `${c} ${n!.added} added${n!.replaced ? `, ${n!.replaced} replaced` : ''}`)
    .join('; ') || 'nothing';

export async function seed(ctx: Context, file: string | undefined, o: SeedOptions): Promise<void> {
  if (o.schema) {
    const { fixtureJsonSchema } = await import('../../src/server/ops/admin/fixtures.js');
    writeJson(ctx.io, fixtureJsonSchema());
    return;
  }
  if (file === undefined) throw new UsageError('Name the fixture file (or - for standard input)', 'the format: cr local seed --schema, docs/fixtures.md');
  const name = escapeControls(file === '-' ? '<stdin>' : file);
  const { MAX_SEED_BYTES } = await import('../../src/server/ops/admin/fixtures.js');
  let bytes: Buffer | undefined;
  try {
    // The server holding a store takes no more (src/server/app/admin-routes.ts): the same limit offline.
    if (file === '-') bytes = await readAllBytes(ctx.io.stdin, MAX_SEED_BYTES);
    else if ((await stat(file)).size <= MAX_SEED_BYTES) bytes = await readFile(file);
  } catch (err) {
    throw new UsageError(`Cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!bytes || bytes.length > MAX_SEED_BYTES) {
    throw new UsageError(
      `${name}: $: larger than ${MAX_SEED_BYTES / 1024 / 1024} MiB, the most a seed takes; split it into several files; nothing was written`,
    );
  }
  let text: string;
  try {
    // UTF-8 or nothing: a byte that is not would be stored as U+FFFD, changing the data
    // without a word. A leading byte order mark (editors on Windows write one) is dropped,
    // as bulk plans drop it (src/bulk/read-plan.ts).
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${name}: $: not valid UTF-8 (the fixture format is JSON in UTF-8); nothing was written`);
  }
  const [{ administer }, { seedStore }, { FixtureError, planSeed }, { safeJsonParse }] = await Promise.all([
    import('../../src/local/administer.js'),
    import('../../src/server/ops/admin/store-ops.js'),
    import('../../src/server/ops/admin/fixtures.js'),
    import('../../src/server/json.js'),
  ]);
  let doc: unknown;
  try {
    doc = safeJsonParse(text);
  } catch (err) {
    const { withLineAndColumn } = await import('./json-position.js');
    throw new UsageError(`${name}: $: not valid JSON (${escapeControls(withLineAndColumn((err as Error).message, text))}); nothing was written`);
  }
  const storePath = await storePathOf(ctx.env, o.store);
  let counts: SeedCounts;
  try {
    // A store file that does not exist yet is made only for fixtures that hold up on their own.
    // A database URL is no file: its records are checked against when it is opened (seedStore).
    if (!isDatabaseUrl(storePath) && !existsSync(storePath)) planSeed(doc, { has: () => false, list: () => [], get: () => undefined });
    counts = await administer(
      storePath,
      {
        offline: (store) => seedStore(store, doc),
        online: (client) => client.call<SeedCounts>('POST', '/seed', text),
      },
      ctx.env,
      // Seeding may make the store, so it may bring a database's schema up to date.
      { migrate: true },
    );
  } catch (err) {
    if (!(err instanceof FixtureError)) throw err;
    // Every problem at once, then exit 2 with nothing written (the cause first: src/server/ops/admin/fixtures.ts).
    const { reportFixtureProblems } = await import('./seed-report.js');
    throw reportFixtureProblems(ctx, file, err.problems);
  }
  if (ctx.globals.json) writeJson(ctx.io, counts);
  ctx.notice(`Seeded ${escapeControls(shownStore(storePath))} from ${name}: ${countsText(counts)}.`);
}
