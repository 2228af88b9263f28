import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BIN, NODE } from '../helpers/paths.js';
import { spawnProcess } from '../helpers/process.js';
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

describe.skipIf(NODE_24 === undefined)('loopback requests with NODE_USE_ENV_PROXY=1 and HTTP_PROXY at a dead port', () => {
  it('cr local wait --url-file still finds the server', async () => {
    const dir = tempDir();
    const server = await startServer({ storePath: join(dir, 'store.json'), port: 0, log: false });
    try {
      const file = join(dir, 'url.txt');
      writeFileSync(file, `${server.url}/api/v1\n`);
      const r = await spawnProcess(NODE_24!, [BIN, 'local', 'wait', '--url-file', file, '--timeout', '3'], {
        env: { HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1', NODE_USE_ENV_PROXY: '1', HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' },
        timeoutMs: 20_000,
      });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout).trim()).toBe(`${server.url}/api/v1`);
    } finally {
      await server.close();
    }
  });
});
