import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { crCommand, crEnv } from './cli.js';
import { ROOT } from './paths.js';
import { childEnv, type Env } from './process.js';
import { tempDir } from './tmp.js';

/**
 * The official MCP client's stdio transport over `cr <args>` (the cr under test, test/helpers/cli.ts
 * `crCommand`), with an environment of its own. The SDK adds HOME, USER, SHELL… from the caller's
 * environment under the one it is given: those are set here (`crEnv`'s HOME) or removed.
 */
export function crStdioTransport(args: string[], o: { env?: Env; configDir?: string } = {}): StdioClientTransport {
  const [command, ...rest] = crCommand(args);
  const inherited = Object.fromEntries(DEFAULT_INHERITED_ENV_VARS.map((k) => [k, undefined]));
  const env = childEnv({ ...inherited, ...crEnv(o.configDir ?? tempDir('cr-cfg-'), o.env) });
  return new StdioClientTransport({ command, args: rest, cwd: ROOT, env, stderr: 'pipe' });
}
