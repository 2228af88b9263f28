import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from '../../src/config/file-lock.js';
import { writeFileAtomic } from '../../src/config/atomic-write.js';
import { runBin } from '../helpers/cli.js';
import { runProcessSync } from '../helpers/process.js';
import { cleanupTempDirs, makeKey, tempDir } from '../helpers/tmp.js';
import { soak } from '../helpers/soak.js';
import { ensureBuilt } from './support.js';

/**
 * The lock of small files (src/config/file-lock.ts) and their atomic write (src/config/atomic-write.ts),
 * docs/reliability.md "Small files": a lock judged stale is the one removed, a process removes
 * only its own lock, and parallel `cr auth login` (real processes) beside a dead process's
 * lock keep every profile.
 */
afterAll(() => cleanupTempDirs());
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const BASE = 'http://127.0.0.1:9/api/v1';

/** The pid of a process that has exited (and been reaped): what a crashed cr leaves in its lock. */
function deadPid(): number {
  const r = runProcessSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout);
}

describe('the small-file lock', () => {
  it('a lock left by a dead process is taken over, and none is left behind', () => {
    const dir = tempDir('cr-flock-');
    const lock = join(dir, 'f.lock');
    writeFileSync(lock, String(deadPid()));
    expect(withFileLock(lock, () => readFileSync(lock, 'utf8'))).toMatch(new RegExp(`^${process.pid} `));
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a lock that is no longer this process’s (taken over while held) is left to its new holder', () => {
    const dir = tempDir('cr-flock-');
    const lock = join(dir, 'f.lock');
    const other = `${process.ppid} another-holder`;
    withFileLock(lock, () => {
      writeFileSync(lock, other);
    });
    expect(readFileSync(lock, 'utf8')).toBe(other);
  });

  it('a takeover guard left by a dead process does not block', () => {
    const dir = tempDir('cr-flock-');
    const lock = join(dir, 'f.lock');
    writeFileSync(lock, String(deadPid()));
    writeFileSync(`${lock}.takeover`, `${deadPid()} left`);
    expect(withFileLock(lock, () => 'ran')).toBe('ran');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the atomic write', () => {
  it('replaces the file whole with the mode asked, and leaves no temp file', () => {
    const dir = tempDir('cr-atomic-');
    const file = join(dir, 'config.json');
    writeFileSync(file, 'old');
    writeFileAtomic(file, 'new text\n', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('new text\n');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('a write that cannot happen (no such folder) throws and leaves nothing', () => {
    const dir = tempDir('cr-atomic-');
    expect(() => writeFileAtomic(join(dir, 'missing', 'f'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('parallel logins beside a dead process’s lock', () => {
  const ROUNDS = soak(10, 40);
  it(
    `ten \`cr auth login --profile pN\` at once keep all ten profiles, ${ROUNDS} rounds`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const dir = join(tempDir('cr-flock-login-'), 'cr');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = join(dir, 'config.json');
        writeFileSync(`${file}.lock`, String(deadPid()), { mode: 0o600 });
        const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
        const runs = await Promise.all(
          names.map((name, i) =>
            runBin(['auth', 'login', '--profile', name, '--base-url', BASE, '--with-key', '--no-verify'], {
              configDir: dir,
              input: `${makeKey('1a2b', `00${i}0`)}\n`,
              env: { CR_CONFIG_DIR: dir, HOME: join(dir, '..') },
            }),
          ),
        );
        for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
        const config = JSON.parse(readFileSync(file, 'utf8'));
        expect(Object.keys(config.profiles).sort(), `round ${round}`).toEqual(names);
        expect(readdirSync(dir), `round ${round}: no lock, guard or temp file left`).toEqual(['config.json']);
      }
    },
    soak(240_000, 900_000),
  );
});
