import { execa, type ResultPromise } from 'execa';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE, NOW } from '../server/helpers.js';

export { KEYS, IDS, NOW, request } from '../server/helpers.js';

const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli.js');

/** dist/ is built once by test/global-setup.ts before any test file runs; never here. */
export async function ensureBuilt(): Promise<void> {
  if (!existsSync(BUNDLE) || !existsSync(BIN)) throw new Error('dist/bundle is missing: run `npm run build`');
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
