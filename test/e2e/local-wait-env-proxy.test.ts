import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BIN, NODE } from '../helpers/paths.js';
import { spawnProcess } from '../helpers/process.js';
import { runBin } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { startServer } from '../../src/server/serve.js';

/**
 * Node 24+ sends fetch (and http.globalAgent) through HTTP_PROXY when NODE_USE_ENV_PROXY=1;
 * cr's loopback requests to a local server never go through a proxy
 * (src/local/loopback-request.ts). Runs on CR_TEST_NODE when it is Node 24 or later (.ci/run
 * runs test/e2e with 24 and 26), else on the Node 24 scripts/node-lines.sh cached, else skips.
 */
afterAll(() => cleanupTempDirs());

async function nodeMajor(node: string): Promise<number> {
  const r = await spawnProcess(node, ['--version']);
  return Number(/^v(\d+)/.exec(String(r.stdout))?.[1] ?? 0);
}

const cached = join(homedir(), '.cache', 'cr-node-lines', 'node-24', 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
const NODE_24 = (await nodeMajor(NODE)) >= 24 ? NODE : existsSync(cached) ? cached : undefined;

const ENV_PROXY = { NODE_USE_ENV_PROXY: '1', HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' };

describe.skipIf(NODE_24 === undefined)('loopback requests with NODE_USE_ENV_PROXY=1 and HTTP_PROXY at a dead port', () => {
  it('cr local wait --url-file still finds the server', async () => {
    const dir = tempDir();
    const server = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
    try {
      const file = join(dir, 'url.txt');
      writeFileSync(file, `${server.url}/api/v1\n`);
      const r = await spawnProcess(NODE_24!, [BIN, 'local', 'wait', '--url-file', file, '--timeout', '3'], {
        env: { HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1', ...ENV_PROXY },
        timeoutMs: 20_000,
      });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout).trim()).toBe(`${server.url}/api/v1`);
    } finally {
      await server.close();
    }
  });

  it('cr local reset goes to the cr serve holding the store (the admin client)', async () => {
    const cfg = tempDir();
    const store = join(cfg, 'store.json');
    expect((await runBin(['local', 'init', '--demo', '--store', store], { configDir: cfg })).exitCode).toBe(0);
    // A --local run keeps the store's admin key beside it, which the admin client sends.
    expect((await runBin(['--local', 'finance', 'summary', '--json'], { configDir: cfg, env: { CR_STORE: store } })).exitCode).toBe(0);
    const server = await spawnServe(['--store', store], { dir: cfg, env: { CR_CONFIG_DIR: cfg } });
    try {
      const r = await spawnProcess(NODE_24!, [BIN, 'local', 'reset', '--all-data', '--yes', '--store', store], {
        env: { HOME: cfg, CR_CONFIG_DIR: cfg, NO_COLOR: '1', ...ENV_PROXY },
        timeoutMs: 20_000,
      });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(`${r.stdout}${r.stderr}`).toContain('removed');
    } finally {
      await server.stop();
    }
  });
});
