import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runBin, ensureBuilt } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir, writeConfig } from '../helpers/tmp.js';
import { spawnServe, type ServeProcess } from '../helpers/serve.js';
import { KEYS } from '../server/helpers.js';
import { expectEveryTool } from '../helpers/mcp-stdio.js';

/** `cr mcp config`: a ready-to-paste MCP client configuration, key masked unless --show-key. */

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

let srv: ServeProcess | undefined;
afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

const KEY = KEYS.viewerW1; // cr_bbbb…bbbb
const MASK = `cr_${KEY.slice(3, 7)}…${KEY.slice(-4)}`;

interface McpConfig {
  mcpServers: Record<string, { type: string; url: string; headers: { Authorization: string } }>;
}

describe('cr mcp config', () => {
  it('prints a configuration whose url ends with /mcp and whose key is masked', async () => {
    const r = await runBin(['mcp', 'config'], { env: { CR_BASE_URL: 'http://127.0.0.1:4010/api/v1/', CR_API_KEY: KEY } });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as McpConfig;
    expect(Object.keys(doc.mcpServers)).toEqual(['cr']);
    const entry = doc.mcpServers.cr!;
    expect(entry.url).toBe('http://127.0.0.1:4010/api/v1/mcp');
    expect(entry.url.endsWith('/mcp')).toBe(true);
    expect(entry.type).toBe('http');
    expect(entry.headers.Authorization).toBe(`Bearer ${MASK}`);
    expect(entry.headers.Authorization).toMatch(/^Bearer cr_[0-9a-f]{4}…[0-9a-f]{4}$/);
    // The whole key appears nowhere, not on stdout and not on stderr.
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).not.toContain(KEY);
    expect(r.stdout).not.toMatch(/cr_[0-9a-f]{40}/);
    expect(r.stderr).toMatch(/--show-key/);
  });

  it('reads the active profile too, and --name renames the server entry', async () => {
    const configDir = tempDir('cr-mcp-cfg-');
    writeConfig(configDir, { activeProfile: 'local', profiles: { local: { baseUrl: 'http://localhost:5000/api/v1', apiKey: KEYS.editorW1 } } });
    const r = await runBin(['mcp', 'config', '--name', 'content'], { configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as McpConfig;
    expect(doc.mcpServers.content!.url).toBe('http://localhost:5000/api/v1/mcp');
    expect(doc.mcpServers.content!.headers.Authorization).toBe(`Bearer cr_eeee…eeee`);
    expect(r.stdout).not.toContain(KEYS.editorW1);
  });

  it('--show-key prints the whole key, and that configuration works with the SDK client against `cr serve`', async () => {
    srv = await spawnServe([], { fixture: true });
    const r = await runBin(['mcp', 'config', '--show-key'], { env: { CR_BASE_URL: srv.baseUrl, CR_API_KEY: KEY } });
    expect(r.exitCode, r.stderr).toBe(0);
    const entry = (JSON.parse(r.stdout) as McpConfig).mcpServers.cr!;
    expect(entry.headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(entry.url).toBe(`${srv.baseUrl}/mcp`);

    await expectEveryTool(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }), 10_000);
  }, 30_000);

  it('fails with a non-zero exit and no configuration when there is no key', async () => {
    const r = await runBin(['mcp', 'config'], { env: { CR_BASE_URL: 'http://127.0.0.1:4010/api/v1' } });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('mcpServers');
  });
});
