import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { collect, intArg, storeOption, withExamples } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';
import { asCliError } from '../../src/local/errors.js';

interface ServeOptions {
  store?: string;
  host: string;
  port: number;
  rateLimit?: number;
  allowedHost: string[];
  drainTimeout: number;
  maxConnections: number;
}

/** Seconds, fractions allowed (`--drain-timeout 0.5`). */
const secondsArg = (flag: string) => (value: string): number => {
  const n = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number of seconds, got "${value}"`);
  return n;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(
      new Command('serve')
        .description('run the local server (REST, MCP at /api/v1/mcp, OpenAPI at /api/v1/openapi.json)')
        .addOption(storeOption())
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--port <port>', 'port (0 picks a free one)', intArg('--port', 0), 4010)
        .option('--rate-limit <n>', 'requests per key per hour (default 1000)', intArg('--rate-limit', 1))
        .option('--allowed-host <name>', 'accept this Host/Origin name too (repeatable; required off loopback)', collect, [])
        .option('--drain-timeout <seconds>', 'on SIGINT/SIGTERM, wait at most this long for in-flight requests, then close the rest', secondsArg('--drain-timeout'), 10)
        .option('--max-connections <n>', 'open connections at most; more are closed at once', intArg('--max-connections', 1), 1024)
        .action((f: ServeOptions) => serve(ctx, f)),
      ['cr serve', 'cr serve --store ./fixtures/store.json --port 0 --rate-limit 5'],
    ),
  );
}

async function serve(ctx: Context, o: ServeOptions): Promise<void> {
  if (o.port > 65535) throw new UsageError(`--port must be at most 65535, got ${o.port}`);
  if (!LOOPBACK.has(o.host) && o.allowedHost.length === 0) {
    throw new UsageError(`Listening on ${o.host} exposes the server beyond this machine`, 'pass --allowed-host NAME for each host name clients will use');
  }
  const { startServer, defaultStorePath, handleShutdownSignals } = await import('../../src/server/serve.js');
  let server;
  try {
    server = await startServer({
      storePath: o.store ?? defaultStorePath(ctx.env),
      host: o.host,
      port: o.port,
      rateLimit: o.rateLimit,
      allowedHosts: o.allowedHost,
      limits: { drainMs: o.drainTimeout * 1000, maxConnections: o.maxConnections },
      log: (line) => ctx.io.err.write(line + '\n'),
    });
  } catch (err) {
    throw await asCliError(err);
  }
  // Signal handlers go in before the URL is printed: a script may send SIGTERM the moment
  // it reads the URL, and without a handler that signal would kill the process outright.
  handleShutdownSignals(server, { onError: (err) => ctx.notice(`cr serve: error while stopping: ${(err as Error).message}`) });
  ctx.io.out.write(`${server.url}/api/v1\n`);
  ctx.notice(`cr serve: listening on ${server.url}/api/v1 over ${server.storePath} (Ctrl-C to stop)`);
  // Stay in this action until a signal has drained the server; the handler exits 0.
  await new Promise<never>(() => {});
}
