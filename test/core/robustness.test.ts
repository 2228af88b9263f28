import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, BIN, ROOT } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
import { startTestServer, ok, type TestServer } from '../helpers/http-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...ok({}), delayMs: 10_000 });
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('a broken config file', () => {
  for (const [name, text, pattern] of [
    ['not JSON', '{not json', /is not valid JSON/],
    ['not an object', '[1, 2]', /is not a cr config/],
    ['profiles not a map', '{"profiles": [1]}', /is not a cr config/],
  ] as const) {
    it(`${name}: exit 1 naming the file, file left untouched`, async () => {
      const configDir = tempDir();
      mkdirSync(configDir, { recursive: true });
      const file = join(configDir, 'config.json');
      writeFileSync(file, text, { mode: 0o600 });
      const r = await runCli(['auth', 'status'], { configDir });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).toMatch(/\(BAD_CONFIG\)$/m);
      // login must not overwrite it either
      const l = await runCli(['auth', 'login', '--base-url', 'http://127.0.0.1:9/api/v1', '--with-key', '--no-verify'], { configDir, input: makeKey() });
      expect(l.exitCode).toBe(1);
      expect(readFileSync(file, 'utf8')).toBe(text);
    });
  }
});

describe('Ctrl-C', () => {
  it('SIGINT during a request → exit 130 with an Interrupted error line', async () => {
    const configDir = tempDir();
    const child = execa(process.execPath, [BIN, 'api', '/slow'], {
      cwd: ROOT,
      reject: false,
      extendEnv: false,
      timeout: 15_000,
      stdin: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: configDir, CR_CONFIG_DIR: configDir, CR_API_KEY: makeKey(), CR_BASE_URL: server.baseUrl, NO_COLOR: '1' },
    });
    // Wait until the request reached the server, then interrupt.
    const deadline = Date.now() + 10_000;
    while (server.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(server.requests).toHaveLength(1);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toMatch(/^error: Interrupted \(INTERRUPTED\)$/m);
    expect(String(r.stdout)).toBe('');
  });
});
