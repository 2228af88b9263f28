import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, spawnBin } from './cli.js';
import { FIXTURE_STORE } from './paths.js';
import { type Child, spawnProcess, type Env } from './process.js';
import { tempDir } from './tmp.js';

/** The business clock of the fixture store (test/server/helpers.ts NOW). */
const NOW = '2025-06-15T12:00:00Z';

/** The built server module in a child of its own, with options `cr serve` has no flag for. */
const SERVE_CHILD = fileURLToPath(new URL('./fixtures/serve-child.mjs', import.meta.url));

/** Options of `startServer` (src/server/serve.ts) the helper script passes on. */
export interface ServerModuleOptions {
  rateLimit?: number;
  log?: boolean;
  /** The store's options: journal fold size, the lock's heartbeat and staleness. */
  storeOptions?: { journalMaxRecords?: number; lockTiming?: { heartbeatMs?: number; staleMs?: number } };
}

export interface ServeOptions {
  /** HOME, and the config folder under it (`<dir>/cfg`); a temp folder when omitted. */
  dir?: string;
  /** The child's variables over the clean ones (`CR_NOW` fixed at the fixture's NOW). */
  env?: Env;
  /** A command that runs the server inside it (`unshare -pf --mount-proc --kill-child`). */
  via?: string[];
  /**
   * Run the built server module (dist/src/server/serve.js) through a helper script instead
   * of the cr under test, with these options; `args` then holds only `--store <path>`.
   */
  module?: ServerModuleOptions;
  /** Serve a fresh copy of the server fixture store in `dir` (adds `--store <copy>`). */
  fixture?: boolean;
  /** How long the server may take to print its URL (default 15 s). */
  readyMs?: number;
}

export interface ServeProcess {
  child: Child;
  pid: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The printed base URL (…/api/v1). */
  baseUrl: string;
  port: number;
  /** The store it serves (`--store`), when given. */
  storePath: string | undefined;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or null) and signal once the process is gone. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  kill: (signal: NodeJS.Signals) => void;
  /** SIGTERM, then SIGKILL after 5 s; resolves with how it ended (idempotent). */
  stop: () => Promise<{ code: number | null; signal: string | null }>;
}

/**
 * The one way tests start a server process: the cr under test runs `cr serve <args>` (plus
 * `--port 0` unless given) with an environment of its own (HOME `dir`, CR_CONFIG_DIR
 * `dir/cfg`, CR_NOW the fixture's), and this resolves once it prints its base URL. It
 * rejects (with `exitCode` and the stderr in the message) when the server exits first.
 * Stop it with `stop()` (or push `s.stop` onto `cleanupsAfterAll()`).
 */
export async function spawnServe(args: string[], o: ServeOptions = {}): Promise<ServeProcess> {
  const dir = o.dir ?? tempDir('cr-serve-');
  if (o.fixture) {
    copyFileSync(FIXTURE_STORE, join(dir, 'store.json'));
    args = ['--store', join(dir, 'store.json'), ...args];
  }
  const env = { CR_CONFIG_DIR: join(dir, 'cfg'), CR_NOW: NOW, ...o.env };
  const storeAt = args.indexOf('--store');
  const storePath = storeAt >= 0 ? args[storeAt + 1] : undefined;
  let child: Child;
  if (o.module) {
    if (storePath === undefined) throw new Error('spawnServe({ module }) needs --store <path>');
    const [file, ...rest] = [...(o.via ?? []), NODE, SERVE_CHILD, storePath, JSON.stringify(o.module)];
    child = spawnProcess(file!, rest, { env: { HOME: dir, NO_COLOR: '1', ...env }, buffer: false, timeoutMs: 120_000 });
  } else {
    const full = ['serve', ...(args.includes('--port') ? [] : ['--port', '0']), ...args];
    child = spawnBin(full, { configDir: dir, env, via: o.via, buffer: false, timeoutMs: 120_000 });
  }
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void child.catch(() => undefined);
  const readyMs = o.readyMs ?? 15_000;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no URL within ${readyMs} ms: ${err}`)), readyMs);
    const check = () => {
      const m = /^(http:\/\/\S+\/api\/v1)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`the server exited ${code} before printing its URL: ${err}`), { exitCode: code, stderr: err }));
    });
  });
  const url = new URL(baseUrl);
  const kill = (signal: NodeJS.Signals) => void child.kill(signal);
  let stopping: Promise<{ code: number | null; signal: string | null }> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) kill('SIGTERM');
      const t = setTimeout(() => kill('SIGKILL'), 5_000);
      const r = await exited;
      clearTimeout(t);
      return r;
    })());
  return {
    child,
    pid: child.pid!,
    origin: url.origin,
    baseUrl,
    port: Number(url.port),
    storePath,
    stdout: () => out,
    stderr: () => err,
    exited,
    kill,
    stop,
  };
}

/** `s.stop()`, for callers that hold a list of servers. */
export const stopServe = (s: ServeProcess) => s.stop();
