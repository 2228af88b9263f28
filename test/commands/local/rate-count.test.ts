import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initStore } from '../../../src/server/ops/init-store.js';
import { startServer } from '../../../src/server/serve.js';
import { rateLimitFileOf } from '../../../src/server/app/rate-limit.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): --local works on store files only (docs/shared-sandbox.md).

/**
 * What counts against a key's hourly limit (docs/api-decisions.md §3): every authenticated
 * request, including those then refused for scope, validation, media type or a lookup; nothing
 * refused before the key is read (a foreign Origin, an unknown path, a method the path does not
 * have, a key the server does not know). `--local` answers in-process through the same pipeline
 * as `cr serve` over HTTP, so the same request leaves the same count in the sidecar beside the
 * store (`<store>.ratelimit.json`): each case runs both ways and compares.
 */
const UNKNOWN_POST = '3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91';

interface Side {
  store: string;
  keyId: () => string;
  run: (args: string[]) => Promise<{ exitCode: number; stderr: string }>;
}

/** The key's count in the sidecar (0 when none was written). */
function counted(side: Side): number {
  const file = rateLimitFileOf(side.store);
  if (!existsSync(file)) return 0;
  const windows = (JSON.parse(readFileSync(file, 'utf8')) as { windows: Record<string, { count: number }> }).windows;
  return windows[side.keyId()]?.count ?? 0;
}

let local: Side;
let served: Side;
let otherWebsite: string;
let servedKey: string;

beforeAll(async () => {
  const localDir = tempDir('cr-rate-count-local-');
  const localStore = join(localDir, 'store.json');
  const made = await initStore(localStore, { demo: true });
  const websites = (JSON.parse(readFileSync(localStore, 'utf8')) as { websites: { id: string }[] }).websites;
  otherWebsite = websites.find((w) => w.id !== made.websiteId)!.id;
  const localEnv = { HOME: localDir, CR_STORE: localStore };
  local = {
    store: localStore,
    // --local's own key (src/local/credential.ts), made by its first run.
    keyId: () => (JSON.parse(readFileSync(`${localStore}.local-key`, 'utf8')) as { keyId: string }).keyId,
    run: (args) => runCli([...args, '--local'], { configDir: localDir, env: localEnv }),
  };
  expect((await local.run(['finance', 'summary'])).exitCode).toBe(0);

  const servedDir = tempDir('cr-rate-count-serve-');
  const servedStore = join(servedDir, 'store.json');
  const init = await initStore(servedStore, { demo: true });
  servedKey = init.key;
  served = {
    store: servedStore,
    keyId: () => init.keyId,
    // A server per request: its counts reach the sidecar when it stops (and at most a second later while it runs).
    run: async (args) => {
      const server = await startServer({ storePath: servedStore, host: '127.0.0.1', port: 0, log: false });
      try {
        return await runCli(args, { configDir: servedDir, env: { CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: servedKey } });
      } finally {
        await server.close();
      }
    },
  };
});
afterAll(() => cleanupTempDirs());

const CASES: { what: string; args: () => string[]; exit: number; counts: boolean }[] = [
  { what: 'a post the key cannot find (404 after the key)', args: () => ['posts', 'schedule', UNKNOWN_POST, '--at', '+1d'], exit: 5, counts: true },
  { what: 'a website outside the key (403, scope)', args: () => ['learnings', 'list', '--website', otherWebsite], exit: 4, counts: true },
  { what: 'a query out of range (400, validation)', args: () => ['api', '/content/nurture-sequences', '-F', 'limit=999'], exit: 6, counts: true },
  {
    what: 'a body that is not JSON (415)',
    args: () => ['api', `/social/posts/${UNKNOWN_POST}/schedule`, '-X', 'POST', '-H', 'Content-Type: text/plain', '-F', 'scheduled_at=x'],
    exit: 6,
    counts: true,
  },
  { what: 'a path no route has (404 before the key)', args: () => ['api', '/nope'], exit: 5, counts: false },
  { what: 'a method the path does not have (405)', args: () => ['api', '/finance/summary', '-X', 'DELETE'], exit: 1, counts: false },
  { what: 'a foreign Origin (403 before the key)', args: () => ['api', '/finance/summary', '-H', 'Origin: http://evil.example'], exit: 4, counts: false },
];

describe('what counts against the hourly limit: --local as cr serve', () => {
  for (const c of CASES) {
    it(`${c.what}: ${c.counts ? 'counts once' : 'counts nothing'}, the same under --local and cr serve`, async () => {
      for (const side of [local, served]) {
        const name = side === local ? '--local' : 'cr serve';
        const before = counted(side);
        const r = await side.run(c.args());
        expect(r.exitCode, `${name}: ${r.stderr}`).toBe(c.exit);
        expect(counted(side) - before, name).toBe(c.counts ? 1 : 0);
      }
    });
  }

  it('an unknown key counts against nobody (cr serve, 401); --local with its key revoked sends nothing (exit 3)', async () => {
    const before = counted(served);
    const server = await startServer({ storePath: served.store, host: '127.0.0.1', port: 0, log: false });
    try {
      const r = await runCli(['finance', 'summary'], { env: { CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: `cr_${'0'.repeat(40)}` } });
      expect(r.exitCode).toBe(3);
    } finally {
      await server.close();
    }
    expect(counted(served)).toBe(before);
    const sidecar = JSON.parse(readFileSync(rateLimitFileOf(served.store), 'utf8')) as { windows: Record<string, unknown> };
    expect(Object.keys(sidecar.windows)).toEqual([served.keyId()]);

    const keyId = local.keyId();
    const localBefore = counted(local);
    expect((await runCli(['local', 'keys', 'revoke', keyId, '--store', local.store], { env: { HOME: tempDir('cr-rate-count-home-') } })).exitCode).toBe(0);
    const refused = await local.run(['finance', 'summary']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain('LOCAL_KEY_REVOKED');
    expect(counted(local)).toBe(localBefore);
  });
});
