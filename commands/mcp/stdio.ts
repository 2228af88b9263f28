import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';

/**
 * `cr mcp stdio`: the service's MCP tools over standard input/output, for desktop agents
 * that spawn their servers (docs/cli-contract.md "MCP over stdio"). The key stays in cr's profile; the
 * bridge itself lives in src/mcp-bridge/ and loads only when this command runs.
 */
export const stdioCommand = (ctx: Context) =>
  withExamples(
    new Command('stdio').description("bridge standard input/output (MCP stdio) to the profile's /mcp endpoint, key kept in the profile").action(async () => {
      const { runStdioBridge } = await import('../../src/mcp-bridge/run.js');
      await runStdioBridge(ctx);
    }),
    ['cr mcp stdio --profile prod', 'cr mcp stdio --local --verbose', 'cr mcp config --client claude   # the config that runs it'],
  );
