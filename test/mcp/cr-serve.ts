import { execa, type ResultPromise } from 'execa';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE, NOW } from '../server/helpers.js';

export { KEYS, IDS, NOW, request } from '../server/helpers.js';

const BUNDLE = join(ROOT, 'dist', 'bundle', 'cr.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const isFresh = () =>
  existsSync(BUNDLE) && existsSync(BIN) && statSync(BUNDLE).mtimeMs >= Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'commands')));

/**
 * `npm run build` when dist/ is missing or older than the sources. Test files run in parallel
 * workers, so the build runs under a mkdir lock (one build at a time; the others wait and
 * then see a fresh bundle).
 */
export async function ensureBuilt(): Promise<void> {
  if (isFresh()) return;
  const lock = join(ROOT, 'node_modules', '.cache', 'cr-test-build.lock');
  mkdirSync(join(lock, '..'), { recursive: true });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the deadline belongs to a dead run: take it over.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 90_000) rmdirSync(lock);
      } catch {
        /* gone meanwhile */
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for another test build');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!isFresh()) await execa('npm', ['run', 'build'], { cwd: ROOT, timeout: 90_000 });
  } finally {
    rmdirSync(lock);
  }
}

export interface CrServe {
  /** The base URL printed by `cr serve`, ending with /api/v1. */
  baseUrl: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  storePath: string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/**
 * Spawns the built `cr serve` (bin/cr.js) on 127.0.0.1 --port 0 over a fresh copy of the
 * server fixture store, with the business clock fixed at NOW, and parses the URL it prints.
 */
export async function spawnCrServe(extraArgs: string[] = []): Promise<CrServe> {
  const dir = tempDir('cr-mcp-test-');
  const storePath = join(dir, 'store.json');
  copyFileSync(FIXTURE, storePath);
  const child: ResultPromise = execa(process.execPath, [BIN, 'serve', '--store', storePath, '--host', '127.0.0.1', '--port', '0', ...extraArgs], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), CR_NOW: NOW, NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
    buffer: false,
    stdin: 'ignore',
    timeout: 120_000,
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = child.then(() => undefined);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`cr serve printed no URL within 15s: ${err}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/api\/v1)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`cr serve exited before printing its URL: ${err}`));
    });
  });
  let stopping: Promise<void> | undefined;
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    storePath,
    stderr: () => err,
    stop: () =>
      (stopping ??= (async () => {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(t);
      })()),
  };
}
