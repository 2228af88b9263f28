import { execa, type ResultPromise } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

export interface CrServe {
  /** The server's API base, `http://127.0.0.1:PORT/api/v1`. */
  url: string;
  proc: ResultPromise;
  /** Everything the server wrote to stderr so far (its log). */
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * `cr serve` over a store (a postgres:// URL here) as a real process on 127.0.0.1 with an
 * environment of its own, resolved once it has written its URL file.
 */
export async function startCrServe(store: string, env: Record<string, string> = {}, args: string[] = []): Promise<CrServe> {
  const dir = tempDir('cr-pg-serve-');
  const urlFile = join(dir, 'url');
  let log = '';
  const proc = execa(process.execPath, [BIN, 'serve', '--store', store, '--port', '0', '--url-file', urlFile, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CR_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8', ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!existsSync(urlFile) || !readFileSync(urlFile, 'utf8').endsWith('\n')) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`cr serve did not start: ${log}`);
    await sleep(25);
  }
  const url = readFileSync(urlFile, 'utf8').split('\n')[0]!.trim();
  return {
    url,
    proc,
    log: () => log,
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await proc;
    },
  };
}
