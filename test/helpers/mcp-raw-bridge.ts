import { afterAll, beforeAll, expect } from 'vitest';
import { KEYS, startFixtureServer, type TestServer } from '../server/helpers.js';
import { spawnBin } from './cli.js';
import type { Child } from './process.js';
import { cleanupTempDirs, tempDir, writeConfig } from './tmp.js';

/**
 * `cr mcp stdio` as a raw process (the built bin/cr.js, test/helpers/cli.ts `spawnBin`): lines
 * written to its stdin as they are, every byte of its stdout seen. For the tests of the bridge's
 * own framing and limits (docs/mcp.md, "MCP over stdio"); test/helpers/mcp-stdio.ts gives the
 * official client's transport instead.
 */

export const MCP_INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
export const MCP_INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** One stdin line: a message as JSON, or a string as it is (for lines that are not JSON). */
export const jsonLine = (m: unknown): string => (typeof m === 'string' ? m : JSON.stringify(m)) + '\n';

/** Whether a parsed stdout line is the answer under `id` (a batch's array answers no single id). */
export const withId = (id: unknown) => (m: unknown) => !Array.isArray(m) && (m as { id?: unknown }).id === id;

/**
 * The real local server over the fixture store, and a config folder whose active profile `agent`
 * is an editor of website 1 on it: started before the file's tests, stopped after them.
 */
export function useAgentServer(prefix: string): { readonly srv: TestServer; readonly configDir: string } {
  const state: { srv?: TestServer; configDir?: string } = {};
  beforeAll(async () => {
    state.srv = await startFixtureServer();
    state.configDir = tempDir(prefix);
    writeConfig(state.configDir, { activeProfile: 'agent', profiles: { agent: { baseUrl: `${state.srv.url}/api/v1`, apiKey: KEYS.editorW1 } } });
  });
  afterAll(async () => {
    await state.srv?.stop();
    cleanupTempDirs();
  });
  return {
    get srv() {
      return state.srv!;
    },
    get configDir() {
      return state.configDir!;
    },
  };
}

export interface RawBridge {
  child: Child;
  /** Its stdout so far, as received. */
  out: () => string;
  /** Its stdout's complete lines so far, each parsed. */
  messages: () => unknown[];
  err: () => string;
  send: (m: unknown) => void;
  /** Resolves with the parsed stdout message answering `id`. */
  answer: (id: number | string) => Promise<Record<string, unknown>>;
  /** initialize, its answer, then the initialized notification. */
  initialize: () => Promise<void>;
}

export function spawnRawBridge(configDir: string, o: { args?: string[]; env?: Record<string, string>; timeoutMs?: number } = {}): RawBridge {
  const child = spawnBin(['mcp', 'stdio', ...(o.args ?? [])], { configDir, env: o.env ?? {}, buffer: false, stdin: 'pipe', timeoutMs: o.timeoutMs ?? 60_000 });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const messages = () =>
    out
      .split('\n')
      .slice(0, -1)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
  const send = (m: unknown) => void child.stdin!.write(jsonLine(m));
  const answer = async (id: number | string) => {
    await expect.poll(() => messages().some(withId(id)), { timeout: 20_000 }).toBe(true);
    return messages().find(withId(id)) as Record<string, unknown>;
  };
  const initialize = async () => {
    send(MCP_INIT);
    await answer(1);
    send(MCP_INITIALIZED);
  };
  return { child, out: () => out, messages, err: () => err, send, answer, initialize };
}
