import { availableParallelism } from 'node:os';
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

export default defineConfig({
  test: {
    // Runs once for the whole run (not per project): builds dist/ when it is stale.
    globalSetup: ['test/global-setup.ts'],
    ...timeouts,
    // vitest's default is one worker less than the cores: one worker on a 2-core machine, so
    // files ran one after another. Much of the suite waits (child processes, sockets,
    // timers) rather than computes, so at least two workers overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { ...timeouts, name: 'in-process', include: SHARED, isolate: false } },
      { test: { ...timeouts, name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});
