// Makes dist/bundle/cli.js.cache: runs the built CLI once, as the benchmark and a typical
// script do (`cr finance summary --json` against a local server over demo data), and keeps
// the bytecode V8 compiled for it (src/launch.ts, CR_CODE_CACHE_OUT). Everything runs on
// 127.0.0.1 in a temporary folder that is removed afterwards. A failure here only costs
// start-up time, so it warns instead of failing the build.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CACHE = 'dist/bundle/cli.js.cache';
const dir = mkdtempSync(join(tmpdir(), 'cr-code-cache-'));
try {
  const { initStore } = await import('../dist/src/server/init-store.js');
  const { startServer } = await import('../dist/src/server/serve.js');
  const storePath = join(dir, 'store.json');
  const { key } = await initStore(storePath, { demo: true });
  const server = await startServer({ storePath, host: '127.0.0.1', port: 0, log: false });
  const env = { ...process.env, CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: key, CR_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
  try {
    await run(process.execPath, ['bin/cr.js', 'finance', 'summary', '--json'], { env: { ...env, CR_CODE_CACHE_OUT: CACHE }, timeout: 60_000 });
    const check = await run(process.execPath, ['bin/cr.js', 'finance', 'summary', '--json'], { env: { ...env, CR_STARTUP_DEBUG: '1' }, timeout: 60_000 });
    if (!check.stderr.includes('code cache accepted')) throw new Error(`the new cache is not used: ${check.stderr.trim()}`);
  } finally {
    await server.close();
  }
} catch (err) {
  if (existsSync(CACHE)) rmSync(CACHE);
  console.warn(`warning: no V8 code cache for the CLI (start-up will be slower): ${err instanceof Error ? err.message : err}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
