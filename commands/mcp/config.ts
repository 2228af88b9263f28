import { Command, Option } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { requireUsable } from '../../src/config/credentials.js';
import { UsageError } from '../../src/errors.js';
import { maskKey } from '../../src/config/redact.js';
import { writeJson } from '../../src/render/json.js';

export const CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type McpClient = (typeof CLIENTS)[number];

interface ConfigOptions {
  client?: McpClient;
  showKey: boolean;
  name: string;
}

export const configCommand = (ctx: Context) =>
  withExamples(
    new Command('config')
      .description('print an MCP client configuration: stdio through `cr mcp stdio` with --client (no key in it), else HTTP')
      .addOption(new Option('--client <client>', 'print the stdio config for this client (the key stays in the profile)').choices(CLIENTS))
      .option('--show-key', 'HTTP config only: print the whole key instead of the masked one')
      .option('--name <name>', 'server name in the configuration', 'cr')
      .action((f: { client?: McpClient; showKey?: boolean; name: string }) => config(ctx, { client: f.client, showKey: Boolean(f.showKey), name: f.name })),
    [
      'cr mcp config --client claude --profile prod',
      'cr mcp config --client vscode --profile prod > .vscode/mcp.json',
      'cr mcp config --profile local --show-key   # HTTP, key in plain text',
    ],
  );

async function config(ctx: Context, o: ConfigOptions): Promise<void> {
  if (o.client) {
    if (o.showKey) throw new UsageError('--show-key is for the HTTP config only: a --client config never holds a key', 'drop --show-key');
    return stdioConfig(ctx, o.client, o.name);
  }
  const creds = requireUsable(await ctx.credentials());
  const key = o.showKey ? creds.key : maskKey(creds.key);
  const doc = {
    mcpServers: {
      [o.name]: {
        type: 'http',
        url: `${creds.baseUrl.replace(/\/+$/, '')}/mcp`,
        headers: { Authorization: `Bearer ${key}` },
      },
    },
  };
  writeJson(ctx.io, doc);
  if (o.showKey)
    ctx.notice(
      'warning: this configuration holds the whole key in plain text; keep it private, or use `cr mcp config --client claude|cursor|vscode`, which keeps the key in the profile.',
    );
  else ctx.notice('The key is masked; pass --show-key to print it whole (keep the output private), or use --client for a config without a key.');
}

/**
 * The stdio entry runs `cr` itself (found on PATH), not `npx cr`: npx would fetch whatever
 * package is published under that name when cr is not installed in the folder the agent
 * starts in. The profile is named explicitly, so switching the active profile later does not
 * change what the agent reaches.
 */
export function stdioEntry(client: McpClient, args: string[]): Record<string, unknown> {
  const entry = { command: 'cr', args };
  return client === 'vscode' ? { type: 'stdio', ...entry } : entry;
}

async function stdioConfig(ctx: Context, client: McpClient, name: string): Promise<void> {
  let args: string[];
  if (ctx.globals.local) {
    args = ['mcp', 'stdio', '--local'];
  } else {
    const creds = await ctx.credentials();
    args = ['mcp', 'stdio', '--profile', creds.profile];
    if (ctx.globals.baseUrl) args.push('--base-url', ctx.globals.baseUrl);
    // The agent starts cr without this shell's environment: only what the profile stores counts.
    const stored = (await ctx.profiles()).get(creds.profile);
    if (!stored?.apiKey)
      ctx.notice(`warning: profile "${creds.profile}" stores no key; run \`cr auth login --profile ${creds.profile}\` before the agent starts this server.`);
    else if (!stored.baseUrl && !ctx.globals.baseUrl)
      ctx.notice(`warning: profile "${creds.profile}" stores no base URL; run \`cr auth login --profile ${creds.profile} --base-url URL\`.`);
  }
  const servers = { [name]: stdioEntry(client, args) };
  const doc = client === 'vscode' ? { servers } : { mcpServers: servers };
  writeJson(ctx.io, doc);
}
