import { afterAll, beforeAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, type CliResult, type RunCliOptions } from './run-cli.js';
import { cleanupTempDirs, tempDir } from './tmp.js';
import { KEYS, NOW, writeFixtureStore } from './fixture-store.js';
import { storeFrom } from './store-under-test.js';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';

export interface Seen {
  method: string;
  url: string;
  body: string;
}

/**
 * The real local server over the fixture store, on 127.0.0.1:0, behind a tiny counting
 * proxy: the proxy's log tells the tests how many requests a command sent (--all paging,
 * --dry-run sending nothing) without depending on the server's log format. The store is the
 * fixture's JSON file, or a PostgreSQL database loaded with it in the `commands-pg` project
 * (test/helpers/store-under-test.ts).
 */
export interface Harness {
  baseUrl: string;
  serverBaseUrl: string;
  seen: Seen[];
  /** The store the server runs over: a file path or a postgres:// URL. */
  storePath: string;
  /** Runs the CLI in-process against the server with a key (editor by default) and the fixed clock. */
  cr(args: string[], opts?: RunCliOptions & { key?: string | null }): Promise<CliResult>;
  /** The API's data for a GET, fetched with plain fetch (to compare with --json). */
  apiData(path: string, key?: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const dir = tempDir('cr-e2e-');
  const storePath = await storeFrom(writeFixtureStore(dir));
  const server = await startServer({ storePath, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
  const port = server.port;
  const upstream = `http://127.0.0.1:${port}`;
  const seen: Seen[] = [];
  const proxy: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', body });
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type', 'accept', 'user-agent']) if (req.headers[h]) headers[h] = String(req.headers[h]);
      try {
        const r = await fetch(upstream + req.url, { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
        const out: Record<string, string> = {};
        r.headers.forEach((v, k) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
        });
        res.writeHead(r.status, out);
        res.end(Buffer.from(await r.arrayBuffer()));
      } catch {
        res.socket?.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${proxyPort}/api/v1`;
  const serverBaseUrl = `${upstream}/api/v1`;
  return {
    baseUrl,
    serverBaseUrl,
    seen,
    storePath,
    cr(args, opts = {}) {
      const key = opts.key === undefined ? KEYS.editor : opts.key;
      return runCli(args, {
        ...opts,
        env: {
          CR_BASE_URL: baseUrl,
          CR_API_KEY: key ?? undefined,
          CR_NOW: NOW,
          COLUMNS: '120',
          // A terminal gets colour, as it would without NO_COLOR.
          ...(opts.tty ? { NO_COLOR: undefined } : {}),
          ...opts.env,
        },
      });
    },
    async apiData(path, key = KEYS.editor) {
      const r = await fetch(serverBaseUrl + path, { headers: { authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { data: unknown };
      return body.data;
    },
    async close() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.close();
    },
  };
}

/** Every ANSI escape sequence. */
export const ANSI = /\u001b\[[0-9;]*m/;

/**
 * Starts one harness for the test file (beforeAll) and stops it afterwards; the returned
 * object forwards to it once started.
 */
export function useHarness(): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness();
  });
  afterAll(async () => {
    await current?.close();
    cleanupTempDirs();
  });
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!current) throw new Error('the harness is not started yet (use it inside tests)');
      const value = (current as unknown as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
