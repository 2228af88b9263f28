import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Context } from '../cli/context.js';
import { refusedKeyAdvice, requireUsable } from '../config/credentials.js';
import { userAgent } from '../startup/version.js';
import { Bridge } from './bridge.js';
import { LineLimit, MAX_LINE_BYTES } from './line-limit.js';
import { oneLine } from './log.js';
import { upstreamFetch } from './upstream-fetch.js';

/** Where the bridge sends: the profile's (or the embedded server's) `/mcp`, and with which key. */
async function endpointOf(ctx: Context): Promise<{ url: URL; key: string; profile?: string; keyAdvice?: string; close: () => Promise<void> }> {
  if (ctx.globals.local) {
    const { startEmbedded } = await import('../local/embedded.js');
    const local = await startEmbedded(ctx, { listen: true });
    return { url: new URL(`${local.baseUrl.replace(/\/+$/, '')}/mcp`), key: local.key, close: local.close };
  }
  const creds = requireUsable(await ctx.credentials());
  return {
    url: new URL(`${creds.baseUrl.replace(/\/+$/, '')}/mcp`),
    key: creds.key,
    profile: creds.profile,
    keyAdvice: refusedKeyAdvice(creds),
    close: async () => undefined,
  };
}

/** How long requests still under way when the agent closes stdin are waited for (the CLI's request timeout). */
const DRAIN_AFTER_STDIN_MS = 30_000;

/**
 * Runs the stdio bridge until the agent closes standard input or the process gets SIGTERM
 * or SIGINT, then resolves (the command exits 0). Standard output carries JSON-RPC
 * messages only; everything else goes to standard error through ctx.io.err.
 */
export async function runStdioBridge(
  ctx: Context,
  streams: { stdin: NodeJS.ReadableStream & { pause(): unknown }; stdout: NodeJS.WritableStream } = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const endpoint = await endpointOf(ctx);
  const log = (line: string) => ctx.io.err.write(line + '\n');
  // Lines over the limit are dropped and answered before the SDK's buffer sees them (line-limit.ts).
  // …and lines that are not one JSON-RPC message (batches, unparseable text) are answered there too.
  const lines = new LineLimit(
    (o) => bridge.refuseOversized(o),
    MAX_LINE_BYTES,
    (line) => bridge.screen(line),
  );
  streams.stdin.pipe(lines);
  const client = new StdioServerTransport(lines as unknown as typeof process.stdin, streams.stdout as typeof process.stdout, {
    maxBufferSize: MAX_LINE_BYTES + 1,
  });
  // The API's proxy and certificate rules, as for every other request (upstream-fetch.ts).
  const upstream = upstreamFetch(ctx.env);
  const bridge: Bridge = new Bridge({
    fetch: upstream.fetch,
    client,
    url: endpoint.url,
    key: endpoint.key,
    userAgent: userAgent(),
    log,
    verbose: ctx.globals.verbose,
    profile: endpoint.profile,
    keyAdvice: endpoint.keyAdvice,
  });

  let stop!: (why: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  const onEnd = () => stop('stdin closed');
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  streams.stdin.once('end', onEnd);
  streams.stdin.once('close', onEnd);
  try {
    await bridge.start();
    if (ctx.globals.verbose)
      log(`cr mcp: bridging stdio to ${oneLine(endpoint.url.origin + endpoint.url.pathname)}${endpoint.profile ? ` (profile ${endpoint.profile})` : ''}`);
    const why = await stopped;
    if (why === 'stdin closed') {
      // Requests already sent are answered first; a signal meanwhile stops at once.
      let onDrainSignal!: () => void;
      const signalled = new Promise<void>((resolve) => (onDrainSignal = resolve));
      process.once('SIGTERM', onDrainSignal);
      process.once('SIGINT', onDrainSignal);
      try {
        await Promise.race([bridge.drain(DRAIN_AFTER_STDIN_MS), signalled]);
      } finally {
        process.off('SIGTERM', onDrainSignal);
        process.off('SIGINT', onDrainSignal);
      }
    }
    if (ctx.globals.verbose) log(`cr mcp: ${why}; stopping`);
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    streams.stdin.off('end', onEnd);
    streams.stdin.off('close', onEnd);
    await bridge.close();
    await upstream.close().catch(() => undefined);
    await endpoint.close().catch(() => undefined);
  }
}
