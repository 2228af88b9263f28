import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const timeouts = { testTimeout: 20000, hookTimeout: 20000 };

/**
 * Tests that run the CLI in-process (test/commands) and pure unit tests share their
 * workers' module graph (isolate: false): they hold no module state between files
 * (each file starts its own servers and temp folders), and re-importing commander, the
 * commands, Hono and the store for every file was most of their run time. Everything
 * else (server, reliability, contract, MCP, e2e) keeps a fresh module graph per file.
 */
const SHARED = ['test/commands/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/core/**/*.test.ts'];

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
    // timers) rather than computes, so at least two workers overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { ...timeouts, name: 'in-process', include: SOAK ? SOAK.filter((f) => /^test\/(commands|unit|core)\//.test(f)) : SHARED, isolate: false } },
      {
        test: {
          ...timeouts,
          name: 'commands-pg',
          include: SOAK ? SOAK.filter((f) => STORE.includes(f)) : STORE,
          isolate: false,
          provide: { commandStore: 'postgres' },
        },
      },
      { test: { ...timeouts, name: 'isolated', include: SOAK ?? ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});
