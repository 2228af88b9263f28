import { unlinkSync } from 'node:fs';
import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { collect, intArg, storeOption, vocabularyOption, withExamples } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';
import { asCliError } from '../../src/local/errors.js';
import { LOOPBACK_HOSTS, MAX_RATE_LIMIT } from '../../src/api/vocabulary.js';
import { addDatabaseOptions, databaseOpenOptions } from './serve-db-options.js';
import { applyConfigFile } from './serve-config.js';
import { jsonNoticeLine } from '../../src/server/app/log-format.js';
import { escapeControls } from '../../src/bulk/escape.js';

interface ServeOptions {
  store?: string;
  host: string;
  port: number;
  rateLimit?: number;
  allowedHost?: string[];
  faults?: string;
  seed?: number;
  maxStoreMb?: number;
  drainTimeout: number;
  maxConnections: number;
  urlFile?: string;
  /** false with --no-migrate (serve-db-options.ts). */
  migrate?: boolean;
  pool?: number;
  logFormat: 'text' | 'json';
  logLevel: 'info' | 'debug';
  waitForStore: number;
}

/** Seconds, fractions allowed (`--drain-timeout 0.5`). */
const secondsArg =
  (flag: string) =>
  (value: string): number => {
    const n = Number(value.trim());
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number of seconds, got "${value}"`);
    // A timer past 2^31-1 ms fires at once: the deadline would close everything on the spot.
    if (n * 1000 > 2 ** 31 - 1) throw new UsageError(`${flag} must be at most 2147483 seconds, got "${value}"`);
    return n;
  };

export const serveCommand = (ctx: Context) =>
  withExamples(
    addDatabaseOptions(new Command('serve'))
      .description(
        'run the local server (REST, MCP at /api/v1/mcp, OpenAPI at /api/v1/openapi.json; GET /healthz, /readyz and /metrics for balancers and Prometheus, docs/local-server.md)',
      )
      .addOption(storeOption())
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port (0 picks a free one)', intArg('--port', 0), 4010)
      .option('--rate-limit <n>', 'requests per key per hour (default 1000)', intArg('--rate-limit', 1, MAX_RATE_LIMIT))
      .option('--max-store-mb <n>', 'refuse writes (507) past this store size in MiB (default 256)', intArg('--max-store-mb', 1))
      .option('--allowed-host <name>', 'accept this Host/Origin name too (repeatable; required off loopback)', collect)
      .option(
        '--drain-timeout <seconds>',
        'on SIGINT/SIGTERM, wait at most this long for in-flight requests, then close the rest',
        secondsArg('--drain-timeout'),
        10,
      )
      .option(
        '--wait-for-store <seconds>',
        'a PostgreSQL store not up yet: keep trying this long (503 "starting" meanwhile); 0 fails at once',
        secondsArg('--wait-for-store'),
        60,
      )
      .option('--max-connections <n>', 'open connections at most; more are closed at once', intArg('--max-connections', 1), 1024)
      .option(
        '--faults <spec>',
        'inject faults for testing scripts, e.g. "scheduleSocialPost:status=503,rate=0.2;*:latency=50ms"; never on /api/v1/openapi.json, which cr local wait polls (docs/fault-injection.md)',
      )
      .option('--seed <n>', 'seed of the --faults draws (default: random, printed)', intArg('--seed', 0))
      .option('--url-file <file>', 'write the base URL to this file once listening (whole, never half-written); removed on exit')
      .option('--config <file>', 'take the options from this JSON file, keys named like the flags ("rate-limit": 500); flags given here win')
      .addOption(
        vocabularyOption('--log-format <format>', 'standard error: one line per request as text, or every line one JSON object', ['text', 'json']).default(
          'text',
        ),
      )
      .addOption(vocabularyOption('--log-level <level>', 'debug also logs /healthz, /readyz and /metrics requests', ['info', 'debug']).default('info'))
      .action((f: ServeOptions & { config?: string }, cmd: Command) => {
        // With a JSON log (asked here or in the file: the CLI read it first) its notice is a JSON line too.
        const configNotice = (line: string) => (ctx.globals.json ? !ctx.globals.quiet && ctx.io.err.write(`${jsonNoticeLine(line)}\n`) : ctx.notice(line));
        if (f.config !== undefined) applyConfigFile(cmd, f.config, configNotice);
        return serve(ctx, cmd.opts<ServeOptions>());
      }),
    ['cr serve', 'cr serve --store ./ci-store.json --port 0 --url-file url.txt &  cr local wait --url-file url.txt'],
  );

/**
 * The URL a client on this machine connects to: a server listening on every address (0.0.0.0,
 * ::) is reached at loopback, which its Host check always accepts, whatever --allowed-host
 * names (docs/shared-sandbox.md). `http://0.0.0.0:4010` in a --url-file was no address to use:
 * its Host header is no allowed name. Clients on other machines use an --allowed-host name.
 */
export const clientUrlOf = (url: string): string =>
  url.replace(/^http:\/\/(0\.0\.0\.0|\[::\]):/, (_, wild: string) => `http://${wild === '0.0.0.0' ? '127.0.0.1' : '[::1]'}:`);

/** A --host value as an error shows it: escaped, and cut (it may come from a --config file of any content). */
const shownHost = (host: string) => escapeControls(host.length > 64 ? `${host.slice(0, 64)}…` : host);

export async function serve(ctx: Context, o: ServeOptions): Promise<void> {
  if (o.port > 65535) throw new UsageError(`--port must be at most 65535, got ${o.port}`);
  if (!LOOPBACK_HOSTS.has(o.host) && (o.allowedHost ?? []).length === 0) {
    throw new UsageError(
      `Listening on ${shownHost(o.host)} exposes the server beyond this machine`,
      'pass --allowed-host NAME for each host name clients will use',
    );
  }
  // A server that cannot start says so in JSON too: the CLI's error line becomes `{"error", "code", "status"}`.
  if (o.logFormat === 'json') ctx.setGlobals({ json: true });
  ctx.now(); // CR_NOW is read by the context (src/now.ts): a bad one stops here, exit 2
  const [{ startServer, defaultStorePath, handleShutdownSignals }, { announceServe }, { jsonNoticeLine }] = await Promise.all([
    import('../../src/server/serve.js'),
    import('../../src/local/serve-ad.js'),
    import('../../src/server/app/log-format.js'),
  ]);
  // With --log-format json every line of standard error is one JSON object, these notices too.
  const notice =
    o.logFormat === 'json'
      ? (line: string) => {
          if (!ctx.globals.quiet) ctx.io.err.write(`${jsonNoticeLine(line)}\n`);
        }
      : (line: string) => ctx.notice(line);
  // Options a store file does not take are refused before anything is touched (the --url-file's old file included).
  const storePath = o.store ?? defaultStorePath(ctx.env);
  const { isDatabaseUrl: isDatabase } = await import('../../src/config/store-url.js');
  const database = databaseOpenOptions(ctx, o, isDatabase(storePath));
  const faults = o.faults === undefined ? undefined : await faultPlan(notice, o.faults, o.seed);
  // A log reader that goes away (`cr serve 2>&1 | head`) must not stop the server (docs/api-decisions.md §9).
  const { ignoreClosedProcessOutput } = await import('../../src/server/log-text.js');
  ignoreClosedProcessOutput();
  // A file left by an earlier run must not be taken for this server's URL (docs/local-server.md, the CI recipe).
  if (o.urlFile) removeEarlierUrlFile(o.urlFile);
  // The store lost for good (its lock taken over while this server was frozen): drain, then exit 1.
  let lostEarly = false;
  let storeLost = () => {
    lostEarly = true;
  };
  // A signal while a database not up yet is waited for ends the process at once, exit 0.
  const [{ ReadinessGate }, { exitOnSignalWhileWaiting }] = await Promise.all([
    import('../../src/server/app/readiness-gate.js'),
    import('../../src/server/wait-signals.js'),
  ]);
  const readiness = new ReadinessGate();
  const stopWaitSignals = exitOnSignalWhileWaiting(readiness);
  let server;
  try {
    server = await startServer({
      storePath,
      database,
      readiness,
      onStoreLost: () => storeLost(),
      host: o.host,
      port: o.port,
      rateLimit: o.rateLimit,
      allowedHosts: o.allowedHost ?? [],
      faults,
      maxStoreMb: o.maxStoreMb,
      limits: { drainMs: o.drainTimeout * 1000, maxConnections: o.maxConnections },
      waitForStoreS: o.waitForStore,
      clock: { now: () => ctx.now() },
      log: (line) => ctx.io.err.write(line + '\n'),
      logFormat: o.logFormat,
      logLevel: o.logLevel,
      metrics: true,
      lockLabel: 'cr serve',
    });
  } catch (err) {
    // A store file is named in a full disk's message; a database URL is not (it may hold a password).
    throw await asCliError(err, isDatabase(storePath) ? undefined : storePath);
  } finally {
    stopWaitSignals();
  }
  // Signal handlers go in before the URL is written anywhere: a script may send SIGTERM the
  // moment it reads the URL, and without a handler that signal would kill the process outright.
  const url = `${clientUrlOf(server.url)}/api/v1`;
  const running = server;
  let unannounce = () => {};
  const stop = async () => {
    unannounce();
    await running.close();
  };
  handleShutdownSignals({ close: stop }, { onError: (err) => notice(`cr serve: error while stopping: ${(err as Error).message}`) });
  const { exitAfterStoreLoss } = await import('../../src/server/lost-store-exit.js');
  storeLost = () => void exitAfterStoreLoss(server.storePath, stop, notice);
  if (lostEarly) storeLost();
  // `cr local keys/seed` reach this server with the store's admin key: it exists before the URL is out.
  const [{ ensureAdminKey }, { isDatabaseUrl }] = await Promise.all([import('../../src/local/admin-key.js'), import('../../src/config/store-url.js')]);
  // A database is administered directly, by any process that can reach it (docs/shared-sandbox.md): no key file beside it.
  if (!isDatabaseUrl(server.storePath)) await ensureAdminKey(server.operations.store, server.storePath, ctx.now(), notice);
  unannounce = announceServe(server.storePath, url, server.port, o.urlFile);
  // The URL once: on standard output for scripts; the notice names it only when standard
  // output is not the terminal the notice is read on.
  ctx.io.out.write(`${url}\n`);
  const every = url.startsWith(server.url) ? '' : ` (every address, ${o.host})`;
  notice(`cr serve: ${ctx.io.tty.out ? 'listening' : `listening on ${url}`}${every} over ${server.storePath} (Ctrl-C to stop)`);
  // Stay in this action until a signal has drained the server; the handler exits 0.
  await new Promise<never>(() => {});
}

/**
 * Removes the --url-file an earlier run left, before anything starts. One this user cannot
 * remove (another user's file in a sticky folder such as /tmp, a directory) is refused with
 * its reason: the server would otherwise never write its URL there, while a `cr local wait`
 * read the file left in place.
 */
function removeEarlierUrlFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new UsageError(
      `--url-file ${file}: cannot replace what is there (${code ?? (err as Error).message})`,
      'give a path in a folder only you can write, where no other file or folder is in the way',
    );
  }
}

/** Parses --faults (src/server/app/faults.ts); the seed is printed so a run can be repeated. */
async function faultPlan(notice: (line: string) => void, spec: string, seed?: number) {
  const { parseFaults, FaultSpecError } = await import('../../src/server/app/faults.js');
  const chosen = seed ?? Math.floor(Math.random() * 2 ** 31);
  try {
    const plan = parseFaults(spec, chosen);
    notice(`cr serve: injecting faults (${plan.rules.length} rule${plan.rules.length === 1 ? '' : 's'}, --seed ${chosen})`);
    return plan;
  } catch (err) {
    if (err instanceof FaultSpecError) throw new UsageError(`--faults: ${err.message}`, 'see docs/fault-injection.md');
    throw err;
  }
}
