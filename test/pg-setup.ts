import { spawnProcess } from './helpers/process.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * The PostgreSQL server the PostgreSQL-store tests run on (docs/shared-sandbox.md): the one
 * CR_TEST_PG_URL names (`.ci/run` starts one), else a fresh cluster of Debian's server that
 * this run starts in a temporary folder and stops at the end (scripts/pg-cluster.sh). Each
 * test file makes databases of its own on it (test/helpers/postgres.ts); those named with this
 * run's prefix (the command tests' stores and their templates) are dropped at the end.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'pg-cluster.sh');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runPrefix = `cr_run_${randomBytes(4).toString('hex')}_`;
  project.provide('pgRunPrefix', runPrefix);
  const given = process.env.CR_TEST_PG_URL;
  if (given) {
    project.provide('pgUrl', given);
    return () => dropRunDatabases(given, runPrefix);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cr-pg-'));
  // The cluster runs as the postgres user (scripts/pg-cluster.sh), which must reach its folder.
  chmodSync(dir, 0o755);
  const started = await spawnProcess('bash', [SCRIPT, 'start', join(dir, 'cluster')], { env: { HOME: dir }, timeoutMs: 120_000 });
  if (started.exitCode !== 0) throw new Error(`scripts/pg-cluster.sh start failed: ${started.stderr}`);
  project.provide('pgUrl', String(started.stdout).trim());
  return async () => {
    await spawnProcess('bash', [SCRIPT, 'stop', join(dir, 'cluster')], { env: { HOME: dir }, timeoutMs: 60_000 });
  };
}

/**
 * A server the run did not start outlives it: leave none of the run's databases on it. Each
 * DROP DATABASE waits for a checkpoint of its own; sent all at once (one connection each, the
 * pool opens them as needed) they share one: about a second for the run's fifty databases
 * here, where one after another took half a minute.
 */
async function dropRunDatabases(url: string, prefix: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 50, onnotice: () => undefined });
  try {
    const rows = await sql`SELECT datname FROM pg_database WHERE starts_with(datname, ${prefix})`;
    await Promise.all(rows.map(({ datname }) => sql.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)));
  } finally {
    await sql.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    pgRunPrefix: string;
  }
}
