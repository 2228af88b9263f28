import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { jsonLine, MCP_INIT, MCP_INITIALIZED, spawnRawBridge, useAgentServer } from '../helpers/mcp-raw-bridge.js';
import { crStdioTransport, expectEveryTool } from '../helpers/mcp-stdio.js';
import { tempDir } from '../helpers/tmp.js';
import { KEYS } from '../server/helpers.js';

/**
 * `cr mcp stdio` as a process: standard output holds JSON-RPC lines and nothing else,
 * closing standard input or SIGTERM ends it promptly with exit 0, and `--local` runs over
 * the embedded server. Raw pipes here (spawnBin), so every byte of stdout is seen.
 */

const agent = useAgentServer('cr-stdio-proc-');
const spawnRaw = (args: string[]) => spawnRawBridge(agent.configDir, { args, timeoutMs: 30_000 });

describe('cr mcp stdio as a process', () => {
  it('requests written just before stdin closes are all answered, then it exits 0', async () => {
    const p = spawnRaw([]);
    p.send(MCP_INIT);
    p.send(MCP_INITIALIZED);
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    p.child.stdin!.end(jsonLine({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'listCrmAgents', arguments: {} } }));
    const r = await p.child;
    expect(r.exitCode).toBe(0);
    const answers = p
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(answers.find((a) => a.id === 3)?.result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
  });

  it('stdout carries only JSON-RPC lines, also for input that is not JSON-RPC; closing stdin exits 0 within 1 s', async () => {
    const p = spawnRaw(['--verbose']);
    p.send(MCP_INIT);
    expect((await p.answer(1)).result).toMatchObject({ serverInfo: { name: 'cr-local' } });
    p.send(MCP_INITIALIZED);
    p.child.stdin!.write('this is not json\n');
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'listCrmAgents', arguments: {} } });
    expect((await p.answer(2)).result).toMatchObject({ structuredContent: { data: { agents: expect.any(Array) } } });
    p.child.stdin!.end();
    const r = await p.child;
    // It stops by itself once stdin closes (the 30 s kill would leave no exit code).
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    const lines = p
      .out()
      .split('\n')
      .filter((l) => l !== '');
    // initialize, the Parse error for the line that is not JSON (id null), the tool call.
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(p.err()).toContain('a line that is not JSON (16 characters): answered -32700');
    expect(p.err()).toMatch(/stdin closed; stopping/);
    for (const text of [p.out(), p.err()]) expect(text).not.toContain(KEYS.editorW1);
  });

  it('SIGTERM ends the bridge with exit 0', async () => {
    const p = spawnRaw([]);
    p.send(MCP_INIT);
    await p.answer(1);
    p.child.kill('SIGTERM');
    const r = await p.child;
    expect(r.signal ?? null).toBeNull();
    expect(r.exitCode).toBe(0);
    expect(
      p
        .out()
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1);
  });

  it('without a key it exits 3 before reading anything, with the reason on stderr and nothing on stdout', async () => {
    const p = spawnRaw(['--profile', 'nobody']);
    p.child.stdin!.end();
    const r = await p.child;
    expect(r.exitCode).toBe(3);
    expect(p.out()).toBe('');
    expect(p.err()).toContain('No API key for profile "nobody"');
  });

  it("--local serves the embedded server's tools over stdio (notices on stderr only)", async () => {
    const data = tempDir('cr-stdio-local-');
    const transport = crStdioTransport(['mcp', 'stdio', '--local'], { env: { HOME: data, CR_CONFIG_DIR: join(data, 'cfg'), XDG_DATA_HOME: join(data, 'share') } });
    let err = '';
    transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await expectEveryTool(transport, 20_000);
    expect(err).toContain('--local: embedded server over');
    expect(err).not.toMatch(/cr_[0-9a-f]{40}/);
  }, 40_000);
});
