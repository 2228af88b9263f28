/**
 * Ctrl-C typed on a real terminal (docs/cli-contract.md "At a terminal": any command stops within 0.5 s
 * with exit 130). Needs a real process on a pty: the spinner and the prompt change how the
 * terminal reads keys, which no in-process test can see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
import { runOnPty } from '../helpers/pty.js';

// A server that accepts connections and never answers: the request waits for its timeout.
let server: Server;
const sockets = new Set<Socket>();
let baseUrl: string;
beforeAll(async () => {
  server = createServer((s) => {
    sockets.add(s);
    s.on('data', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
  cleanupTempDirs();
});

/** Types Ctrl-C once the screen shows `shown`; returns the exit code and the screen. */
async function ctrlC(args: string[], env: Record<string, string>, shown: string) {
  const dir = tempDir();
  const run = runOnPty(args, { HOME: dir, CR_CONFIG_DIR: dir, ...env });
  try {
    await run.waitFor(shown);
    run.type('\x03');
    const { exitCode } = await run.done;
    return { exitCode, screen: run.screen() };
  } finally {
    run.kill();
  }
}

describe('Ctrl-C on a terminal', () => {
  it('stops a request under the spinner at once: exit 130, one error line, no retry', async () => {
    // --timeout 20: without the fix the command sat through the attempts and ended with exit 8.
    const r = await ctrlC(['finance', 'summary', '--timeout', '20'], { CR_API_KEY: makeKey(), CR_BASE_URL: baseUrl }, 'GET /api/v1/finance/summary');
    expect(r.exitCode).toBe(130);
    expect(r.screen).toMatch(/error: Interrupted \(INTERRUPTED\)/);
    expect(r.screen).not.toMatch(/INTERNAL|NETWORK_ERROR|at .*\.js:\d+/);
    // The cursor the spinner hid is shown again.
    expect(r.screen.lastIndexOf('\x1b[?25h')).toBeGreaterThan(r.screen.lastIndexOf('\x1b[?25l'));
  });

  it('stops the login prompt: exit 130, no INTERNAL, no stack', async () => {
    const r = await ctrlC(['auth', 'login'], {}, 'Base URL');
    expect(r.exitCode).toBe(130);
    expect(r.screen).toMatch(/error: Interrupted \(INTERRUPTED\)/);
    expect(r.screen).not.toMatch(/INTERNAL|force closed|ExitPromptError/);
  });
});
