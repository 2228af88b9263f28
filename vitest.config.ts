import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const timeouts = { testTimeout: 20000, hookTimeout: 20000 };

/**
 * Test files share their worker's module graph (isolate: false): each file starts its own
 * servers, processes and temp folders and keeps no module state another file could see
 * (test/README.md "Rules"), and re-importing commander, the commands, Hono, zod, the MCP SDK
 * and the store for every file was about a third of the suite's time. The files below keep
 * a fresh module graph: they measure or inspect the process they run in.
 */
const ISOLATED = [
  // The memory of this process (RSS after GC) and its prototypes, under hostile requests.
  'test/reliability/hostile-input.test.ts',
];

/**
 * `npm run test:soak` (CR_SOAK=1) runs only the files with repeat loops or load sizes (those
 * that import test/helpers/soak.ts), at their full sizes; `npm test` runs every file with
 * the small ones (test/README.md "Soak sizes").
 */
function soakFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return soakFiles(p);
    return e.name.endsWith('.test.ts') && readFileSync(p, 'utf8').includes("/helpers/soak.js'") ? [p] : [];
  });
}
const SOAK = process.env.CR_SOAK === '1' ? soakFiles() : undefined;

/**
 * The command tests whose servers run over a store (the harness, or a store from
 * test/helpers/store-under-test.ts) run a second time over PostgreSQL, in the `commands-pg`
 * project (docs/shared-sandbox.md "Running the tests on PostgreSQL"); the others talk to a
 * scripted server or none, and would only repeat themselves.
 */
function storeFiles(dir = 'test/commands'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return storeFiles(p);
    return e.name.endsWith('.test.ts') && /\/helpers\/(harness|store-under-test)\.js'|startBulkServer/.test(readFileSync(p, 'utf8')) ? [p] : [];
  });
}
const STORE = storeFiles();

/**
 * The files that take longest, longest first (vitest's JSON reporter, test/README.md "Where the
 * time goes"). vitest orders the files it has timed before by their last duration, but a clean
 * clone has no such record and it falls back to the largest file first: then a short file of
 * slow tests (a server's signals, a PostgreSQL restart) could start in the last seconds and
 * keep the run going alone. These start first, in this order; the rest follow in vitest's.
 */
const SLOWEST = [
  'test/store-pg/finance-cache.test.ts',
  'test/e2e/local-parallel.test.ts',
  'test/store-pg/durability.test.ts',
  'test/e2e/startup-cache.test.ts',
  'test/reliability/key-leaks.test.ts',
  'test/e2e/startup.test.ts',
  'test/bulk/faults.test.ts',
  'test/server/process.test.ts',
  'test/contract/openapi-lint.test.ts',
  'test/reliability/backups.test.ts',
  'test/e2e/jsonl-memory.test.ts',
  'test/reliability/config-safety.test.ts',
  'test/commands/posts/schedule-from-limits.test.ts',
  'test/contract/contract.test.ts',
  'test/reliability/lock-freeze.test.ts',
  'test/store/contract.test.ts',
  'test/commands/posts/schedule-from.test.ts',
  'test/commands/local/seed-export.test.ts',
  'test/reliability/store-flood.test.ts',
  'test/e2e/pty-widths.test.ts',
  'test/e2e/pty-render.test.ts',
  'test/commands/cli/jq.test.ts',
  'test/server/decisions.test.ts',
  'test/contract/generated-client.test.ts',
  'test/reliability/rate-limit.test.ts',
  'test/architecture/doc-paths.test.ts',
  'test/reliability/lock-namespaces.test.ts',
  'test/store-pg/servers.test.ts',
];

/**
 * The projects stay in one block each (a worker moves to the next file only within its project;
 * between projects it is ended and a new one loads every module again): the isolated file first,
 * as it gets a worker of its own anyway, then `commands-pg`, then `shared`. In each, SLOWEST first.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const block = (f: TestSpecification) => ['isolated', 'commands-pg'].indexOf(f.project.name) + 1 || 3;
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(relative(f.project.config.root, f.moduleId));
      return i === -1 ? SLOWEST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => block(a.f) - block(b.f) || rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    // Runs once for the whole run (not per project): builds dist/ when it is stale.
    globalSetup: ['test/global-setup.ts', 'test/pg-setup.ts'],
    sequence: { sequencer: SlowestFirst },
    ...timeouts,
    // vitest's default is one worker less than the cores: one worker on a 2-core machine, so
    // files ran one after another. Much of the suite waits (child processes, sockets,
    // timers) rather than computes: with two workers more than the cores the suite used 1.5 of
    // this machine's 2 cores (the whole run 80 s, against 91 s with one more than the cores and
    // 77 s with three more, same quiet machine, 2026-11-26; test/README.md).
    maxWorkers: availableParallelism() + 2,
    projects: [
      { test: { ...timeouts, name: 'shared', include: SOAK ?? ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      {
        test: {
          ...timeouts,
          name: 'commands-pg',
          include: SOAK ? SOAK.filter((f) => STORE.includes(f)) : STORE,
          isolate: false,
          provide: { commandStore: 'postgres' },
        },
      },
      { test: { ...timeouts, name: 'isolated', include: SOAK ? SOAK.filter((f) => ISOLATED.includes(f)) : ISOLATED } },
    ],
  },
});
