import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath, ensureBuilt } from '../helpers/cli.js';
import { runProcessSync, spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * The serving commands of docs/shared-sandbox.md (the block between `<!-- shared-sandbox-serve -->`
 * and `<!-- /shared-sandbox-serve -->`, read from the page so the two cannot drift), run as
 * written with bash: `cr serve --host 0.0.0.0 --allowed-host …` starts, and the URL its
 * --url-file records is one `cr local wait` on the same machine can use.
 *
 * Listening on 0.0.0.0 happens inside a network namespace of its own (`unshare -n`, loopback
 * only), so nothing is exposed beyond this test. The store is a file named by CR_STORE, as the
 * page's CR_STORE names a database: the host's PostgreSQL on 127.0.0.1 is out of the
 * namespace's reach, and what is checked here (the flags and the recorded URL) does not depend
 * on the store.
 */
afterAll(() => cleanupTempDirs());

const isolated = runProcessSync('unshare', ['-n', 'true']).exitCode === 0;

function block(): string {
  const page = readFileSync(join(ROOT, 'docs', 'shared-sandbox.md'), 'utf8');
  const found = /<!-- shared-sandbox-serve -->\n```bash\n([\s\S]*?)```\n<!-- \/shared-sandbox-serve -->/.exec(page);
  if (!found) throw new Error('docs/shared-sandbox.md has no ```bash block between <!-- shared-sandbox-serve --> markers');
  return found[1]!;
}

describe.runIf(isolated)('the serving commands of docs/shared-sandbox.md', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('run as written: the server listens on every address, and --url-file records a URL a client here uses', { timeout: 60_000 }, async () => {
    const commands = block();
    expect(commands).toContain('--host 0.0.0.0');
    const dir = tempDir('cr-shared-doc-');
    // The page's block, then: stop the server it left in the background (its --url-file goes with it).
    const script = `set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null; wait' EXIT\n${commands}`;
    writeFileSync(join(dir, 'doc.sh'), script);
    const env = { PATH: crOnPath(), HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1', CR_STORE: join(dir, 'store.json') };
    const r = await spawnProcess('unshare', ['-n', '--fork', '--kill-child', 'bash', '-c', 'ip link set lo up && bash doc.sh'], { cwd: dir, env, timeoutMs: 50_000 });
    const log = existsSync(join(dir, 'cr-serve.log')) ? readFileSync(join(dir, 'cr-serve.log'), 'utf8') : '';
    expect({ exitCode: r.exitCode, stderr: r.stderr, log }).toMatchObject({ exitCode: 0 });
    // cr serve's own line and cr local wait's: the loopback URL both.
    expect(r.stdout.trim().split('\n')).toEqual(['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010/api/v1']);
    expect(log).toMatch(/listening on http:\/\/127\.0\.0\.1:4010\/api\/v1 \(every address, 0\.0\.0\.0\)/);
    expect(existsSync(join(dir, 'cr-url.txt'))).toBe(false);
  });

  it('without --allowed-host, the same server is refused (exit 2) naming the flag', async () => {
    const serveLine = block()
      .split('\n')
      .find((l) => l.startsWith('cr serve'))!;
    const args = serveLine
      .replace(/ 2> .*$/, '')
      .replace(/--allowed-host \S+ /, '')
      .split(' ')
      .slice(1);
    const dir = tempDir('cr-shared-doc-');
    const r = await spawnProcess('unshare', ['-n', 'cr', ...args], { cwd: dir, env: { PATH: crOnPath(), HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1' }, timeoutMs: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--allowed-host/);
  });
});
