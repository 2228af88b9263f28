import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, crOnPath } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { soak } from '../helpers/soak.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * The CI recipe of docs/local-server.md (the fenced block after `<!-- ci-recipe -->`), run as written with
 * bash, several times in a row (once in `npm test`, 20 times in `npm run test:soak`): `cr serve` in the background, then commands against it, must not
 * race (docs/cli-contract.md "Local mode in CI"). Real processes: the race is between two of them. Each run
 * has its own folder, config and store; its trap stops its server before bash exits.
 */
afterAll(() => cleanupTempDirs());

const RUNS = soak(1, 20);

function recipe(): string {
  const page = readFileSync(join(ROOT, 'docs', 'local-server.md'), 'utf8');
  const block = /<!-- ci-recipe -->\n```bash\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/local-server.md has no ```bash block after <!-- ci-recipe -->');
  return block[1]!;
}

describe('the CI recipe of docs/local-server.md', () => {
  it(`runs as written, ${RUNS === 1 ? 'once' : `${RUNS} times in a row`}, exiting 0 with its server stopped`, { timeout: soak(60_000, 240_000) }, async () => {
    const script = recipe();
    expect(script).toContain('cr serve');
    // `cr` on PATH: the cr under test, as an installed package would put it there.
    const PATH = crOnPath();
    for (let run = 1; run <= RUNS; run++) {
      const dir = tempDir('cr-recipe-');
      writeFileSync(join(dir, 'recipe.sh'), script);
      const r = await spawnProcess('bash', ['recipe.sh'], { cwd: dir, env: { PATH, HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1' }, timeoutMs: 60_000 });
      const log = existsSync(join(dir, 'cr-serve.log')) ? readFileSync(join(dir, 'cr-serve.log'), 'utf8') : '';
      expect({ run, exitCode: r.exitCode, stderr: r.stderr, log }).toMatchObject({ run, exitCode: 0 });
      // The command ran against the background server, and the trap stopped it cleanly.
      expect(log).toMatch(/GET \/api\/v1\/finance\/summary 200/);
      expect(existsSync(join(dir, 'cr-url.txt'))).toBe(false);
      expect(existsSync(join(dir, 'ci-store.json.lock'))).toBe(false);
    }
  });
});
