import { mkdtemp, copyFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../src/server/serve.js';
import type { RunningServer, StartServerOptions } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { nodeFs, type StoreFs } from '../../src/server/store/fs-layer.js';

export const FIXTURE = fileURLToPath(new URL('./fixtures/store.json', import.meta.url));
/** The fixture's "now": today is 2025-06-15. */
export const NOW = '2025-06-15T12:00:00Z';

/** Plain keys of the fixture (test-only; the store holds their sha256). */
export const KEYS = {
  adminW1: 'cr_' + 'a'.repeat(40),
  editorW1: 'cr_' + 'e'.repeat(40),
  viewerW1: 'cr_' + 'b'.repeat(40),
  editorAgency: 'cr_' + 'c'.repeat(40),
  viewerAgency: 'cr_' + 'd'.repeat(40),
  editorW3: 'cr_' + 'f'.repeat(40),
  revoked: 'cr_' + '0'.repeat(40),
  unknown: 'cr_' + '1'.repeat(40),
} as const;

const uuid = (p: string, n: number) => `${p}-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const IDS = {
  U1: uuid('aaaaaaaa', 1),
  U2: uuid('aaaaaaaa', 2),
  A1: uuid('a9e0c000', 1),
  W1: uuid('b0000000', 1),
  W2: uuid('b0000000', 2),
  W3: uuid('b0000000', 3),
  postDraft: uuid('c0000000', 1),
  postScheduled: uuid('c0000000', 2),
  postPublished: uuid('c0000000', 3),
  postFailed: uuid('c0000000', 4),
  postPublishing: uuid('c0000000', 5),
  postDraftW2: uuid('c0000000', 6),
  postDraftW3: uuid('c0000000', 7),
  unknownPost: uuid('c0000000', 99),
  keyEditorW1: uuid('cccccccc', 2),
} as const;

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'cr-server-test-'));
}

/** A copy of the fixture store in a fresh temp folder. */
/**
 * A fixture store whose first file read waits until `release()`: a server opening it stays in
 * its opening window (src/server/app/opening-answer.ts) for as long as the test needs.
 */
export async function heldFixtureStore(): Promise<{ path: string; cleanup: () => Promise<void>; fs: StoreFs; release: () => void }> {
  const { path, cleanup } = await fixtureStore();
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  let reads = 0;
  const fs: StoreFs = { ...nodeFs, readFile: async (p) => (reads++ === 0 ? opened.then(() => nodeFs.readFile(p)) : nodeFs.readFile(p)) };
  return { path, cleanup, fs, release };
}

export async function fixtureStore(content?: string): Promise<{ dir: string; path: string; cleanup: () => Promise<void> }> {
  const dir = await tempDir();
  const path = join(dir, 'store.json');
  if (content === undefined) await copyFile(FIXTURE, path);
  else await writeFile(path, content);
  return { dir, path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface ReqOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

/** Reads a node:http response whole: status, headers, text and the JSON body when it is JSON. */
export function readResponse(res: IncomingMessage): Promise<Res> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
    });
    res.on('error', reject);
  });
}

/** A raw HTTP request (node:http, so Host and chunked bodies are under the test's control). */
export function request(baseUrl: string, method: string, path: string, o: ReqOptions = {}): Promise<Res> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let payload: Buffer | undefined;
  if (o.rawBody !== undefined) payload = Buffer.isBuffer(o.rawBody) ? o.rawBody : Buffer.from(o.rawBody);
  else if (o.body !== undefined) payload = Buffer.from(JSON.stringify(o.body));
  if (payload) {
    headers['content-type'] ??= 'application/json';
    if (!o.chunked) headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => readResponse(res).then(resolve, reject));
    req.on('error', reject);
    if (payload && o.chunked) {
      const size = 64 * 1024;
      for (let i = 0; i < payload.length; i += size) req.write(payload.subarray(i, i + size));
      req.end();
    } else req.end(payload);
  });
}

export interface TestServer extends RunningServer {
  path: string;
  dir: string;
  req: (method: string, path: string, o?: ReqOptions) => Promise<Res>;
  stop: () => Promise<void>;
}

/** Starts the real server over a fixture copy on 127.0.0.1:0 with the clock fixed at NOW. */
export async function startFixtureServer(opts: Partial<StartServerOptions> & { storePath?: string } = {}): Promise<TestServer> {
  let cleanup = async () => {};
  let path = opts.storePath;
  if (!path) {
    const s = await fixtureStore();
    path = s.path;
    cleanup = s.cleanup;
  }
  const server = await startServer({ port: 0, log: false, clock: fixedClock(NOW), onInternalError: () => {}, ...opts, storePath: path });
  return {
    ...server,
    path,
    dir: join(path, '..'),
    req: (method, p, o) => request(server.url, method, p, o),
    stop: async () => {
      await server.close();
      await cleanup();
    },
  };
}
