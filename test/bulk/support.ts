import { isDatabaseUrl } from '../../src/config/store-url.js';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureStore, KEYS, NOW, SITE } from '../helpers/fixture-store.js';
import { runBin, type BinResult } from '../helpers/cli.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { storeFrom } from '../helpers/store-under-test.js';
import type { RealClock } from '../../src/server/domain/clock.js';
import type { FaultPlan } from '../../src/server/app/faults.js';

export { KEYS, NOW, SITE };

/** Post ids 1..n, valid uuids that sort in file order. */
export const postId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
/** A post that is published: scheduling it is a 409 (exit 6). */
export const PUBLISHED = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
/** A second editor key of the same site, so a test can tell two runs' requests apart in the log (`key=k-editor-2`). */
export const EDITOR_2 = `cr_${'d'.repeat(40)}`;
/** Within the fixture's future (the fixed clock is NOW). */
export const AT = '2026-12-01T09:00:00Z';

/** The command-test fixture store with `n` draft posts (and one published one). */
export function writeBulkStore(dir: string, n: number): string {
  const store: Omit<ReturnType<typeof fixtureStore>, 'social_posts'> & { social_posts: unknown[] } = fixtureStore();
  const editor = store.api_keys.find((k) => k.id === 'k-editor')!;
  store.api_keys.push({ ...editor, id: 'k-editor-2', name: 'editor 2', key_sha256: createHash('sha256').update(EDITOR_2).digest('hex') });
  const ts = '2026-01-01T00:00:00.000Z';
  store.social_posts = [
    ...Array.from({ length: n }, (_, i) => ({ id: postId(i + 1), websiteId: SITE, status: 'draft', content: `post ${i + 1}`, scheduledAt: null, createdAt: ts, updatedAt: ts })),
    { id: PUBLISHED, websiteId: SITE, status: 'published', content: 'old', scheduledAt: ts, createdAt: ts, updatedAt: ts },
  ];
  const path = join(dir, 'store.json');
  writeFileSync(path, JSON.stringify(store));
  return path;
}

/** A CSV plan of posts 1..n (or the given ids), all at `at`. */
export function csvPlan(dir: string, ids: string[], at = AT, name = 'plan.csv'): string {
  const path = join(dir, name);
  writeFileSync(path, ['id,at', ...ids.map((id) => `${id},${at}`)].join('\n') + '\n');
  return path;
}

export const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => postId(from + i));

export interface BulkServer {
  baseUrl: string;
  /** Schedule requests that reached the app (faulted ones never do; logged with cause=injected_fault): post id and status. */
  requests(): { id: string; status: number }[];
  /** Every log line of the server (requests and applied faults). */
  log: string[];
  /** Ages the rate windows by `ms` where the server's clock does not decide them (PostgreSQL). */
  ageWindows(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real local server, in-process on 127.0.0.1:0 over a store of `n` drafts. The
 * server's own request log counts what it saw; `realClock` moves its rate window.
 */
export async function startBulkServer(n: number, opts: { rateLimit?: number; realClock?: RealClock; faults?: FaultPlan; onLog?: (line: string) => void } = {}): Promise<BulkServer> {
  const dir = tempDir('cr-bulk-srv-');
  // The JSON file, or in the `commands-pg` project a database loaded with it (test/helpers/store-under-test.ts).
  const storePath = await storeFrom(writeBulkStore(dir, n));
  const { startServer } = await import('../../src/server/serve.js');
  const { fixedClock } = await import('../../src/server/domain/clock.js');
  const log: string[] = [];
  const server = await startServer({
    storePath,
    host: '127.0.0.1',
    port: 0,
    rateLimit: opts.rateLimit ?? 100_000,
    clock: fixedClock(NOW),
    realClock: opts.realClock,
    faults: opts.faults,
    log: (line) => void (log.push(line), opts.onLog?.(line)),
  });
  return {
    baseUrl: `${server.url}/api/v1`,
    log,
    requests: () =>
      log.flatMap((l) => {
        const m = / POST \/api\/v1\/social\/posts\/([^/]+)\/schedule (\d{3}) /.exec(l);
        return m && !l.includes('cause=injected_fault') ? [{ id: m[1]!, status: Number(m[2]) }] : [];
      }),
    // A file store counts on the server's clock, which the caller moves (`realClock`); a
    // PostgreSQL store on the database's own (batched.ts DB_NOW): there the windows move back.
    ageWindows: async (ms: number) => {
      if (!isDatabaseUrl(storePath)) return;
      const { default: postgres } = await import('postgres');
      const sql = postgres(storePath, { max: 1, onnotice: () => undefined });
      try {
        await sql`UPDATE cr_rate_windows SET window_start = window_start - ${ms}`;
      } finally {
        await sql.end();
      }
    },
    close: () => server.close(),
  };
}

export const cliEnv = (baseUrl: string, extra: Record<string, string | undefined> = {}) => ({ CR_BASE_URL: baseUrl, CR_API_KEY: KEYS.editor, CR_NOW: NOW, COLUMNS: '120', ...extra });

/**
 * The CLI in-process against the server (test/helpers/run-cli.ts; clean env, fixed business
 * clock). CI=1 unless the test says otherwise: the progress bar draws on the process's own
 * stderr (src/bulk/progress.ts), which here is the test worker's.
 */
export const cliAt = (baseUrl: string, args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliResult> =>
  runCli(args, { input: opts.input, env: cliEnv(baseUrl, { CI: '1', ...opts.env }) });

/** bin/cr.js against the server (clean env, fixed business clock): for what needs a process (signals, SIGKILL, its exit). */
export const crAt = (baseUrl: string, args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<BinResult> =>
  runBin(args, { ...opts, env: cliEnv(baseUrl, opts.env) });

/** The JSON lines of a --json run's stdout. */
export const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
