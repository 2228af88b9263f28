import { type Agent, request as httpRequest } from 'node:http';
import { BIN, ROOT, ensureBuilt, runBin } from '../helpers/cli.js';
import { type ServerModuleOptions, spawnServe } from '../helpers/serve.js';
import { seededRandom } from '../../src/server/app/faults.js';

export { ensureBuilt, BIN, ROOT, runBin, spawnServe };

/** The built server module for durability runs: no rate limit to speak of, no request log. */
export const durableServer = (journalMaxRecords?: number): ServerModuleOptions => ({
  rateLimit: 1e9,
  log: false,
  storeOptions: journalMaxRecords ? { journalMaxRecords } : undefined,
});

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
