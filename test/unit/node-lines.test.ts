import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/**
 * scripts/node-lines.sh installs the supported Node lines from the npm registry for .ci/run
 * (CONTRIBUTING.md, "How cr starts"). A registry it cannot reach (here a closed port on
 * 127.0.0.1, npm told not to retry) must fail the script with a line of its own naming the
 * package, and leave nothing in the cache folder for the next run to trip over.
 */
describe('scripts/node-lines.sh without a registry', () => {
  it('fails naming the package and the registry, and leaves no half-made folder', async () => {
    const home = tempDir('cr-home-');
    const cache = join(home, 'lines');
    const err = await spawnProcess(join(ROOT, 'scripts', 'node-lines.sh'), ['24'], {
      env: {
        HOME: home,
        CR_NODE_CACHE: cache,
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_fetch_retries: '0',
        npm_config_cache: join(home, 'npm-cache'),
        npm_config_userconfig: join(home, 'npmrc'),
      },
      timeoutMs: 60_000,
    });
    expect(err.exitCode).toBe(1);
    expect(err.stderr).toMatch(/^scripts\/node-lines\.sh: could not install node-linux-(x64|arm64)@24 from http:\/\/127\.0\.0\.1:9\//m);
    expect(readdirSync(cache)).toEqual([]);
  });
});
