import { describe, expect, it } from 'vitest';
import { spawnRawBridge, useAgentServer } from '../helpers/mcp-raw-bridge.js';

/**
 * `cr mcp stdio` at the size limits (docs/mcp.md, "MCP over stdio"): a message larger than the
 * bridge reads (10 MiB a line) is answered with an error under its id and the bridge keeps
 * serving; a call the server refuses as too large (1 MiB, HTTP 413) reaches the agent as the
 * API's 413, not as a dropped connection that "may have been applied". Real local server.
 */

const agent = useAgentServer('cr-stdio-limits-');
const call = (id: number | string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'listCrmAgents', arguments: args } });

describe('cr mcp stdio at the size limits', () => {
  it('a line over 10 MiB is answered under its id (id first or last), the bridge keeps serving, stdin end exits 0', async () => {
    const p = spawnRawBridge(agent.configDir);
    await p.initialize();
    const pad = 'x'.repeat(11 * 1024 * 1024);
    // The SDK's clients write the id last; others write it first.
    p.send(call(7, { pad }));
    p.send({ id: 'first', jsonrpc: '2.0', method: 'tools/call', params: { name: 'listCrmAgents', arguments: { pad } } });
    for (const id of [7, 'first']) {
      const big = await p.answer(id);
      expect(big.error).toMatchObject({ code: -32600, data: { limitBytes: 10 * 1024 * 1024 } });
      expect((big.error as { message: string }).message).toMatch(/larger than the 10 MiB .*not sent/);
    }
    p.send(call(8, {}));
    expect((await p.answer(8)).result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
    expect(p.err()).toMatch(/cr mcp: message #7: a message of \d+ bytes is larger than the 10 MiB/);
    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 90_000);

  it("a 5 MB tool call gets the API's 413 (Payload too large, not applied), and the next call is answered", async () => {
    const p = spawnRawBridge(agent.configDir);
    await p.initialize();
    // Several times: the server's 413 races the upload, which used to end in EPIPE now and then.
    for (let id = 100; id < 104; id++) {
      p.send(call(id, { pad: 'y'.repeat(5_000_000) }));
      const refused = await p.answer(id);
      expect(refused.error).toMatchObject({ code: -32000, data: { status: 413, code: 'PAYLOAD_TOO_LARGE' } });
      expect((refused.error as { message: string }).message).toBe('Payload too large (HTTP 413): a request is at most 1 MiB; nothing was applied');
    }
    p.send(call(3, {}));
    expect((await p.answer(3)).result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 60_000);
});
