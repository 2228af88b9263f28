import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { executedSources } from '../helpers/executed-sources.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { KEYS, startFixtureServer, type TestServer } from '../server/helpers.js';

/**
 * Which modules a run of the built CLI loads, for the three runs start-up is measured on
 * (docs/benchmarks.md): `--version`, a remote read and the same read with `--local`. The real
 * bundle (dist/bundle/cli.js) runs with V8 coverage on, and a module counts as loaded when code of
 * it ran, its module initialiser included (test/helpers/executed-sources.ts, through the bundle's
 * source map): esbuild keeps a lazily imported module's body in an initialiser that runs on its
 * first import, so this sees what a run pays for, not what the bundle holds.
 *
 * The lists below are whole: a module that starts loading on one of these paths (or stops) fails
 * here until its list says so, in the same change. Project files are named from the repository's
 * root, dependencies by package, `cr-…:` the stand-ins of scripts/bundle-plugin.mjs.
 * test/e2e/startup.test.ts says why some must never load.
 */

const LOADS: Record<'version' | 'remote' | 'local', string[]> = {
  version: [],
  remote: [
    'commander',
    'commands/finance/index.ts',
    'commands/finance/summary.ts',
    'commands/serve/log-format-prescan.ts',
    'cr-lazy:node:child_process',
    'src/api/check-json.ts',
    'src/api/generated/response-schemas.ts',
    'src/api/generated/routes.ts',
    'src/api/route-types.ts',
    'src/api/routes.ts',
    'src/api/vocabulary.ts',
    'src/cli.ts',
    'src/cli/context.ts',
    'src/cli/globals.ts',
    'src/cli/groups.ts',
    'src/cli/help-docs.ts',
    'src/cli/options.ts',
    'src/cli/usage.ts',
    'src/config/atomic-write.ts',
    'src/config/credentials.ts',
    'src/config/file-lock.ts',
    'src/config/profiles.ts',
    'src/config/redact.ts',
    'src/config/store-url.ts',
    'src/errors.ts',
    'src/http/build-client.ts',
    'src/http/client.ts',
    'src/http/deadline.ts',
    'src/http/decode-body.ts',
    'src/http/dispatch-errors.ts',
    'src/http/network-errors.ts',
    'src/http/node-dispatcher.ts',
    'src/http/proxy-errors.ts',
    'src/http/proxy-vars.ts',
    'src/http/rate-budget.ts',
    'src/http/read-body.ts',
    'src/http/redirects.ts',
    'src/http/request-headers.ts',
    'src/http/request-params.ts',
    'src/http/retry.ts',
    'src/http/shown.ts',
    'src/http/undici-core.ts',
    'src/http/url.ts',
    'src/http/whole-decoder.ts',
    'src/ids.ts',
    'src/io/activity.ts',
    'src/io/prompt.ts',
    'src/io/spinner.ts',
    'src/io/streams.ts',
    'src/main.ts',
    'src/now.ts',
    'src/output/flags.ts',
    'src/output/script.ts',
    'src/render/block.ts',
    'src/render/cell.ts',
    'src/render/controls.ts',
    'src/render/csv.ts',
    'src/render/dates.ts',
    'src/render/escape.ts',
    'src/render/finance.ts',
    'src/render/format.ts',
    'src/render/json.ts',
    'src/render/jsonl.ts',
    'src/render/output.ts',
    'src/render/quiet.ts',
    'src/render/safe-json.ts',
    'src/startup/installed-docs.ts',
    'src/startup/version.ts',
  ],
  // Of src/api/schemas/, only finance.ts and the common.ts it builds on: the server loads an
  // operation's table entry when it first answers it (src/api/endpoint-modules.ts), and --local
  // validates the store's records a collection at a time, when first used
  // (src/server/store/collection-checks.ts). No seed or key-making code: the store and its key exist.
  local: [
    'commander',
    'commands/finance/index.ts',
    'commands/finance/summary.ts',
    'commands/serve/log-format-prescan.ts',
    'cr-lazy:node:child_process',
    'src/api/check-json.ts',
    'src/api/endpoint-modules.ts',
    'src/api/endpoints/finance.ts',
    'src/api/generated/response-schemas.ts',
    'src/api/generated/routes.ts',
    'src/api/route-types.ts',
    'src/api/routes.ts',
    'src/api/schemas/common.ts',
    'src/api/schemas/finance.ts',
    'src/api/table-entry.ts',
    'src/api/vocabulary.ts',
    'src/cli.ts',
    'src/cli/context.ts',
    'src/cli/globals.ts',
    'src/cli/groups.ts',
    'src/cli/help-docs.ts',
    'src/cli/options.ts',
    'src/cli/usage.ts',
    'src/config/atomic-write.ts',
    'src/config/redact.ts',
    'src/config/store-url.ts',
    'src/errors.ts',
    'src/http/build-client.ts',
    'src/http/client.ts',
    'src/http/deadline.ts',
    'src/http/decode-body.ts',
    'src/http/dispatch-errors.ts',
    'src/http/network-errors.ts',
    'src/http/proxy-vars.ts',
    'src/http/rate-budget.ts',
    'src/http/read-body.ts',
    'src/http/redirects.ts',
    'src/http/request-headers.ts',
    'src/http/request-params.ts',
    'src/http/retry.ts',
    'src/http/shown.ts',
    'src/http/undici-core.ts',
    'src/http/url.ts',
    'src/http/whole-decoder.ts',
    'src/ids.ts',
    'src/io/activity.ts',
    'src/io/prompt.ts',
    'src/io/spinner.ts',
    'src/io/streams.ts',
    'src/local/credential.ts',
    'src/local/embedded.ts',
    'src/local/errors.ts',
    'src/local/in-process-dispatcher.ts',
    'src/local/lock-wait.ts',
    'src/local/serve-ad.ts',
    'src/local/url-file.ts',
    'src/main.ts',
    'src/now.ts',
    'src/output/flags.ts',
    'src/output/script.ts',
    'src/render/block.ts',
    'src/render/cell.ts',
    'src/render/controls.ts',
    'src/render/csv.ts',
    'src/render/dates.ts',
    'src/render/escape.ts',
    'src/render/finance.ts',
    'src/render/format.ts',
    'src/render/json.ts',
    'src/render/jsonl.ts',
    'src/render/output.ts',
    'src/render/quiet.ts',
    'src/render/safe-json.ts',
    'src/server/app/body.ts',
    'src/server/app/date-header.ts',
    'src/server/app/extra-routes.ts',
    'src/server/app/host-check.ts',
    'src/server/app/operations.ts',
    'src/server/app/pipeline.ts',
    'src/server/app/probe-paths.ts',
    'src/server/app/probe-routes.ts',
    'src/server/app/rate-limit.ts',
    'src/server/app/readiness-gate.ts',
    'src/server/app/request-id.ts',
    'src/server/app/router.ts',
    'src/server/app/table-route.ts',
    'src/server/app/unavailable.ts',
    'src/server/app/url-reading.ts',
    'src/server/domain/auth.ts',
    'src/server/domain/clock.ts',
    'src/server/domain/compute/finance.ts',
    'src/server/domain/compute/memo.ts',
    'src/server/domain/compute/pick.ts',
    'src/server/domain/compute/serialized.ts',
    'src/server/domain/errors.ts',
    'src/server/domain/handlers.ts',
    'src/server/json.ts',
    'src/server/log-text.ts',
    'src/server/memory.ts',
    'src/server/open-for-serving.ts',
    'src/server/store/api-store.ts',
    'src/server/store/backups.ts',
    'src/server/store/batch.ts',
    'src/server/store/collection-checks.ts',
    'src/server/store/collections.ts',
    'src/server/store/commit-options.ts',
    'src/server/store/commit.ts',
    'src/server/store/copy-records.ts',
    'src/server/store/data-reads.ts',
    'src/server/store/errors.ts',
    'src/server/store/fold.ts',
    'src/server/store/fs-layer.ts',
    'src/server/store/indented-size.ts',
    'src/server/store/intake.ts',
    'src/server/store/journal-file.ts',
    'src/server/store/journal-scan.ts',
    'src/server/store/journal.ts',
    'src/server/store/json-readiness.ts',
    'src/server/store/json-store.ts',
    'src/server/store/lock-check.ts',
    'src/server/store/lock-liveness.ts',
    'src/server/store/lock.ts',
    'src/server/store/open-store.ts',
    'src/server/store/rate-windows.ts',
    'src/server/store/readiness.ts',
    'src/server/store/record-schemas.ts',
    'src/server/store/records/access.ts',
    'src/server/store/records/finance.ts',
    'src/server/store/replay.ts',
    'src/server/store/snapshot.ts',
    'src/server/store/store-path.ts',
    'src/server/store/store.ts',
    'src/server/transport/in-process.ts',
    'src/startup/installed-docs.ts',
    'src/startup/version.ts',
    'zod',
  ],
};

let srv: TestServer;
beforeAll(async () => {
  srv = await startFixtureServer();
});
afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

/** A source as the lists name it: a project file from the root, a dependency by its package. */
function moduleName(source: string): string {
  const path = source.replace(/^(\.\.\/)+/, '');
  const dep = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return dep ? dep[1]! : path;
}

async function loadsOf(args: string[], env: Record<string, string>): Promise<string[]> {
  const dir = tempDir('cr-loads-');
  const r = await runBin(args, { env: { ...env, NODE_V8_COVERAGE: dir } });
  expect(r.exitCode, r.stderr).toBe(0);
  return [...new Set([...executedSources(dir)].map(moduleName))].sort();
}

describe('the modules each start-up path loads', () => {
  it('`cr --version`: the launcher alone, no module of the bundle', async () => {
    expect(await loadsOf(['--version'], {})).toEqual(LOADS.version);
  });

  it('`cr finance summary --json` against a server', async () => {
    const loaded = await loadsOf(['finance', 'summary', '--json'], { CR_API_KEY: KEYS.viewerW1, CR_BASE_URL: `${srv.url}/api/v1` });
    expect(loaded).toEqual(LOADS.remote);
  });

  it('`cr finance summary --local --json`, on a store made by an earlier run', async () => {
    const home = tempDir('cr-loads-home-');
    const env = { HOME: home, CR_STORE: `${home}/store.json` };
    await loadsOf(['finance', 'summary', '--local', '--json'], env);
    const loaded = await loadsOf(['finance', 'summary', '--local', '--json'], env);
    // A JSON-file store: nothing of bulk scheduling or of the PostgreSQL store, and of the API's
    // and the store's schemas only the finance summary's and the key check's.
    expect(loaded.filter((m) => /^src\/(bulk|server\/store-pg)\//.test(m))).toEqual([]);
    expect(loaded.filter((m) => /^src\/(api\/schemas|api\/endpoints|server\/store\/records)\//.test(m))).toEqual([
      'src/api/endpoints/finance.ts',
      'src/api/schemas/common.ts',
      'src/api/schemas/finance.ts',
      'src/server/store/records/access.ts',
      'src/server/store/records/finance.ts',
    ]);
    expect(loaded).toEqual(LOADS.local);
  });
});
