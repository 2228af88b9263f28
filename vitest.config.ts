import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    // Runs once for the whole run (not per project): builds dist/ when it is stale.
    globalSetup: ['test/global-setup.ts', 'test/pg-setup.ts'],
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
