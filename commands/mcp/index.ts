import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { requireUsable } from '../../src/credentials.js';
import { maskKey } from '../../src/redact.js';
import { writeJson } from '../../src/render/json.js';

export function register(program: Command, ctx: Context): void {
  const group = new Command('mcp').description('MCP client configuration');
  group.addCommand(
    withExamples(
      new Command('config')
        .description('print a ready-to-paste MCP client configuration for the active profile')
        .option('--show-key', 'print the whole key instead of the masked one')
        .option('--name <name>', 'server name in the configuration', 'cr')
        .action((f: { showKey?: boolean; name: string }) => config(ctx, { showKey: Boolean(f.showKey), name: f.name })),
      ['cr mcp config', 'cr mcp config --profile local --show-key > .mcp.json'],
    ),
  );
  program.addCommand(group);
}

async function config(ctx: Context, o: { showKey: boolean; name: string }): Promise<void> {
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
  if (!o.showKey) ctx.notice('The key is masked; pass --show-key to print it whole (keep the output private).');
}
