// Makes the two V8 code caches of the CLI bundle (src/startup/run-bundle.ts picks one per run, and
// CR_CODE_CACHE_OUT makes a run write what it compiled):
//   dist/bundle/cli.js.cache        a run as the benchmark and a typical script do:
//                                   `cr finance summary --json` against a local server over demo data;
//   dist/bundle/cli.js.local.cache  a run as a newcomer does first: `cr finance summary --local --json`,
//                                   the embedded server on a store it creates.
// Each is trained from no cache, so it holds its own path only (see run-bundle.ts for why two).
// Everything runs on 127.0.0.1 in a temporary folder that is removed afterwards. A failure here
// only costs start-up time, so it warns instead of failing the build.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CACHE = 'dist/bundle/cli.js.cache';
const LOCAL_CACHE = 'dist/bundle/cli.js.local.cache';
const dir = mkdtempSync(join(tmpdir(), 'cr-code-cache-'));
try {
  const { initStore } = await import('../dist/src/server/ops/init-store.js');
  const { startServer } = await import('../dist/src/server/serve.js');
  const storePath = join(dir, 'store.json');
  const { key } = await initStore(storePath, { demo: true });
  const server = await startServer({ storePath, host: '127.0.0.1', port: 0, log: false });
  // Without NODE_OPTIONS: the caches are for runs without Node options (src/startup/code-cache-file.ts),
  // and V8 rejects a cache made under other flags.
  const { NODE_OPTIONS, ...buildEnv } = process.env;
  const env = { ...buildEnv, CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: key, CR_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
  try {
    const remote = ['bin/cr.js', 'finance', 'summary', '--json'];
    // --local over a store of its own in the temporary folder; the first run creates it (demo
    // data, a key), which is not the path to train on, so it runs once untimed beforehand.
    const local = ['bin/cr.js', 'finance', 'summary', '--local', '--json'];
    const { CR_BASE_URL, CR_API_KEY, ...rest } = env;
    const localEnv = { ...rest, CR_STORE: join(dir, 'local', 'store.json') };
    await run(process.execPath, local, { env: localEnv, timeout: 60_000 });
    await run(process.execPath, remote, { env: { ...env, CR_CODE_CACHE_OUT: CACHE }, timeout: 60_000 });
    await run(process.execPath, local, { env: { ...localEnv, CR_CODE_CACHE_OUT: LOCAL_CACHE }, timeout: 60_000 });
    for (const [args, e, file] of [
      [remote, env, CACHE],
      [local, localEnv, LOCAL_CACHE],
    ]) {
      const check = await run(process.execPath, args, { env: { ...e, CR_STARTUP_DEBUG: '1' }, timeout: 60_000 });
      if (!check.stderr.includes(`code cache accepted (${join(process.cwd(), file)})`)) throw new Error(`the new cache is not used: ${check.stderr.trim()}`);
    }
  } finally {
    await server.close();
  }
} catch (err) {
  for (const file of [CACHE, LOCAL_CACHE]) if (existsSync(file)) rmSync(file);
  console.warn(`warning: no V8 code cache for the CLI (start-up will be slower): ${err instanceof Error ? err.message : err}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
