import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { type Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { ensureBuilt } from '../mcp/cr-serve.js';
import { seededRandom } from '../../src/server/faults.js';

export { ensureBuilt, BIN, ROOT };

export const DURABILITY_CHILD = fileURLToPath(new URL('./fixtures/durability-serve-child.mjs', import.meta.url));

export interface Child {
  child: ResultPromise;
  url: string;
  pid: number;
  stderr: () => string;
}

/** Spawns the built server (fixture child) over `storePath`; resolves once it listens. */
export async function spawnStoreServer(storePath: string, maxRecords?: number): Promise<Child> {
  const child = execa(process.execPath, [DURABILITY_CHILD, storePath, ...(maxRecords ? [String(maxRecords)] : [])], {
    env: { CR_NOW: '2025-06-15T12:00:00Z' },
    reject: false,
    buffer: false,
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const info = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  return { child, ...info, stderr: () => err };
}

/** Spawns `cr serve` (bin/cr.js) over `storePath` on 127.0.0.1:0; `ready` resolves with the URL it prints. */
export function spawnCrServe(storePath: string, dir: string) {
  const child = execa(process.execPath, [BIN, 'serve', '--store', storePath, '--host', '127.0.0.1', '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), CR_NOW: '2025-06-15T12:00:00Z', NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
    buffer: false,
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/\S+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(Object.assign(new Error(`cr serve exited ${code}: ${err}`), { exitCode: code, stderr: err })));
  });
  ready.catch(() => undefined);
  return { child, ready, stderr: () => err };
}

/** Runs bin/cr.js with a clean environment; never rejects. */
export function runCr(args: string[], dir: string, timeout = 10_000) {
  return execa(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg'), CR_NOW: '2025-06-15T12:00:00Z', NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
    timeout,
  });
}

export interface PostResult {
  status: number;
  json?: any;
  error?: string;
}

/** A keep-alive JSON POST through `agent`; network errors resolve as status 0. */
export function post(agent: Agent, url: string, path: string, key: string, body: unknown): Promise<PostResult> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const req = httpRequest(
      new URL(path, url),
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(payload.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', (e) => resolve({ status: 0, error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end(payload);
  });
}

/** Runs `n` tasks with at most `limit` in flight. */
export async function bounded<T>(n: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** A small seeded PRNG (mulberry32, the one `cr serve --faults` uses), so a failing run can be replayed from its seed. */
export const rng = seededRandom;

/** A content listener record as the store holds it, for tests that write to a Store directly. */
export const listenerRecord = (id: string) => ({
  id,
  websiteId: 'w',
  name: id,
  sourceType: 'x',
  queryConfig: { handle: id },
  pollInterval: '24h',
  nextPollAt: null,
  lastPolledAt: null,
  lastItemCount: 0,
  enabled: true,
  createdAt: 't',
  updatedAt: 't',
});
