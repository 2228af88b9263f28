import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/cli.js';
import type { Child } from '../helpers/process.js';
import { cleanupTempDirs, tempDir, writeConfig } from '../helpers/tmp.js';
import { KEYS, startFixtureServer } from '../server/helpers.js';

/**
 * `cr mcp stdio` at the size limits (docs/mcp.md, "MCP over stdio"): a message larger than the
 * bridge reads (10 MiB a line) is answered with an error under its id and the bridge keeps
 * serving; a call the server refuses as too large (1 MiB, HTTP 413) reaches the agent as the
 * API's 413, not as a dropped connection that "may have been applied". Real local server.
 */

type FixtureServer = Awaited<ReturnType<typeof startFixtureServer>>;
let srv: FixtureServer;
let configDir: string;

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const line = (m: unknown) => JSON.stringify(m) + '\n';
const call = (id: number | string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'listCrmAgents', arguments: args } });

interface Raw {
  child: Child;
  err: () => string;
  /** Resolves with the parsed stdout message answering `id`. */
  answer: (id: number | string) => Promise<Record<string, unknown>>;
}

function spawnBridge(): Raw {
  const child = spawnBin(['mcp', 'stdio'], { configDir, buffer: false, stdin: 'pipe', timeoutMs: 60_000 });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const find = (id: number | string) => out.split('\n').find((l) => l.includes(`"id":${JSON.stringify(id)},`) || l.endsWith(`"id":${JSON.stringify(id)}}`));
  const answer = async (id: number | string) => {
    await expect.poll(() => find(id) !== undefined, { timeout: 20_000 }).toBe(true);
    return JSON.parse(find(id)!) as Record<string, unknown>;
  };
  return { child, err: () => err, answer };
}

async function initialized(p: Raw): Promise<void> {
  p.child.stdin!.write(line(INIT));
  await p.answer(1);
  p.child.stdin!.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
}

beforeAll(async () => {
  srv = await startFixtureServer();
  configDir = tempDir('cr-stdio-limits-');
  writeConfig(configDir, { activeProfile: 'agent', profiles: { agent: { baseUrl: `${srv.url}/api/v1`, apiKey: KEYS.editorW1 } } });
});

afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

describe('cr mcp stdio at the size limits', () => {
  it('a line over 10 MiB is answered under its id (id first or last), the bridge keeps serving, stdin end exits 0', async () => {
    const p = await (async () => {
      const raw = spawnBridge();
      await initialized(raw);
      return raw;
    })();
    const pad = 'x'.repeat(11 * 1024 * 1024);
    // The SDK's clients write the id last; others write it first.
    p.child.stdin!.write(line(call(7, { pad })));
    p.child.stdin!.write(line({ id: 'first', jsonrpc: '2.0', method: 'tools/call', params: { name: 'listCrmAgents', arguments: { pad } } }));
    for (const id of [7, 'first']) {
      const big = await p.answer(id);
      expect(big.error).toMatchObject({ code: -32600, data: { limitBytes: 10 * 1024 * 1024 } });
      expect((big.error as { message: string }).message).toMatch(/larger than the 10 MiB .*not sent/);
    }
    p.child.stdin!.write(line(call(8, {})));
    expect((await p.answer(8)).result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
    expect(p.err()).toMatch(/cr mcp: message #7: a message of \d+ bytes is larger than the 10 MiB/);
    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 90_000);

  it("a 5 MB tool call gets the API's 413 (Payload too large, not applied), and the next call is answered", async () => {
    const p = spawnBridge();
    await initialized(p);
    // Several times: the server's 413 races the upload, which used to end in EPIPE now and then.
    for (let id = 100; id < 104; id++) {
      p.child.stdin!.write(line(call(id, { pad: 'y'.repeat(5_000_000) })));
      const refused = await p.answer(id);
      expect(refused.error).toMatchObject({ code: -32000, data: { status: 413, code: 'PAYLOAD_TOO_LARGE' } });
      expect((refused.error as { message: string }).message).toBe('Payload too large (HTTP 413): a request is at most 1 MiB; nothing was applied');
    }
    p.child.stdin!.write(line(call(3, {})));
    expect((await p.answer(3)).result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 60_000);
});
