import { describe, expect, it } from 'vitest';
import { spawnRawBridge, useAgentServer, withId } from '../helpers/mcp-raw-bridge.js';

/**
 * `cr mcp stdio` answers what it cannot forward as JSON-RPC 2.0 says (src/mcp-bridge/line-check.ts):
 * a line that is not JSON gets -32700 (id null), JSON that is not a JSON-RPC message -32600, and a
 * batch (which MCP removed in 2025-06-18) an array of -32600 answers, one per request under its id.
 * The built bridge in a real process, raw lines on its stdin, the real local server behind it.
 */

const agent = useAgentServer('cr-stdio-rpc-');
const call = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'listCrmAgents', arguments: {} } });

describe('cr mcp stdio: lines that are not one JSON-RPC message', () => {
  it('answers -32700 for unparseable lines, -32600 for invalid messages and batches, and keeps serving', async () => {
    const p = spawnRawBridge(agent.configDir);
    const send = p.send;
    await p.initialize();

    send('{"jsonrpc": "2.0", "method": "foobar", "params": "bar", "baz]');
    send('');
    send({ jsonrpc: '2.0', method: 1, params: 'bar' });
    send({ jsonrpc: '1.0', id: 'old', method: 'ping' });
    send([]);
    send([call(11), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, 1, call('twelve')]);
    send([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }]);
    send(call(13));
    // The last line is answered by the server, so every earlier line has been handled by then.
    await expect.poll(() => p.messages().some(withId(13)), { timeout: 20_000 }).toBe(true);

    const out = p.messages();
    const singles = out.filter((m) => !Array.isArray(m)) as { id: unknown; error?: { code: number; message: string }; result?: unknown }[];
    const batches = out.filter(Array.isArray) as { id: unknown; error: { code: number; message: string } }[][];
    // Parse error (JSON-RPC 2.0 §7's example line), then the three invalid requests, in order.
    const errors = singles.filter((m) => m.error);
    expect(errors.map((m) => [m.id, m.error!.code])).toEqual([
      [null, -32700],
      [null, -32600],
      ['old', -32600],
      [null, -32600],
    ]);
    expect(errors[0]!.error!.message).toMatch(/^Parse error: /);
    expect(errors[3]!.error!.message).toBe('Invalid Request: an empty batch');
    // One array for the batch with requests in it: each request refused under its id, the
    // notification unanswered, the bare 1 invalid (id null); the batch of one notification: nothing.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((m) => [m.id, m.error.code])).toEqual([
      [11, -32600],
      [null, -32600],
      ['twelve', -32600],
    ]);
    expect(batches[0]![0]!.error.message).toMatch(/batches are not supported/);
    // Nothing of the batch reached the server: no answer under 11 or 'twelve' but the refusals.
    expect(singles.some((m) => m.id === 11 || m.id === 'twelve')).toBe(false);
    expect(singles.find(withId(13))).toMatchObject({ result: { structuredContent: { data: { agents: expect.any(Array) } } } });
    expect(p.err()).toMatch(/cr mcp: a line that is not JSON \(\d+ characters\): answered -32700/);
    expect(p.err()).toMatch(/cr mcp: a batch of 4 message\(s\), not sent \(MCP has no batches\): 3 answered -32600/);

    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 60_000);

  it('answers a message nested too deeply to forward with -32600 under its id, and keeps serving', async () => {
    const p = spawnRawBridge(agent.configDir);
    const send = p.send;
    await p.initialize();
    // 100,000 levels in 600 kB: under the 1 MiB body limit, past what JSON.stringify can recurse.
    const depth = 100_000;
    send(`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"listCrmAgents","arguments":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}`);
    send(call(22));
    await expect.poll(() => p.messages().some(withId(22)), { timeout: 20_000 }).toBe(true);
    expect(p.messages().find(withId(21))).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/nested deeper than \d+ levels/) } });
    expect(p.messages().find(withId(22))).toMatchObject({ result: { structuredContent: { data: { agents: expect.any(Array) } } } });
    expect(p.err()).not.toMatch(/RangeError|Maximum call stack/);
    p.child.stdin!.end();
    expect((await p.child).exitCode).toBe(0);
  }, 60_000);
});
