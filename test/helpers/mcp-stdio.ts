import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { routes } from '../../src/api/routes.js';
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

/**
 * Connects the official MCP client over `transport` and checks that it serves a tool per
 * operation of the endpoint table and answers one (listBrandSubjects) without an error; closes it.
 */
export async function expectEveryTool(transport: Transport, timeoutMs: number): Promise<void> {
  const client = new Client({ name: 'cr-test', version: '0' });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const { tools } = await client.listTools(undefined, { timeout: timeoutMs });
    expect(tools).toHaveLength(Object.keys(routes).length);
    const r = (await client.callTool({ name: 'listBrandSubjects', arguments: {} }, undefined, { timeout: timeoutMs })) as { isError?: boolean };
    expect(r.isError ?? false).toBe(false);
  } finally {
    await client.close();
  }
}
