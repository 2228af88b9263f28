import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deadPort } from '../helpers/http-server.js';
import { spawnRawBridge } from '../helpers/mcp-raw-bridge.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { closeAll, makePki, startProxy, startTarget, TARGET_HOST } from '../http/support.js';
import { KEYS, startFixtureServer } from '../server/helpers.js';

/**
 * `cr mcp stdio` reaches `<base>/mcp` as every other request reaches the API
 * (src/mcp-bridge/upstream-fetch.ts): through the proxy the environment names, never for
 * loopback, and a certificate it cannot trust told in the CLI's certificate wording
 * (src/http/network-errors.ts). A real local server behind a real forward proxy (the `proxy`
 * package) that alone resolves TARGET_HOST.
 */
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = KEYS.viewerW1;

describe('cr mcp stdio and the network', () => {
  it('HTTP_PROXY: the MCP requests go through the proxy (the only way to the target name)', async () => {
    const srv = await startFixtureServer({ allowedHosts: [TARGET_HOST] });
    const proxy = await startProxy();
    try {
      const base = `${srv.url.replace('127.0.0.1', TARGET_HOST)}/api/v1`;
      const bridge = spawnRawBridge(tempDir('cr-mcp-proxy-'), { env: { CR_BASE_URL: base, CR_API_KEY: KEY, HTTP_PROXY: `http://127.0.0.1:${proxy.port}` } });
      try {
        await bridge.initialize();
        bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect(await bridge.answer(2)).toMatchObject({ result: { tools: expect.any(Array) } });
        expect(proxy.seen.map((s) => `${s.method} ${s.url}`)).toContain(`POST ${base}/mcp`);
      } finally {
        bridge.child.kill();
      }
    } finally {
      await srv.stop();
    }
  });

  // NODE_USE_ENV_PROXY=1: on Node 24+ (.ci/run's CR_TEST_NODE) global fetch would take the dead proxy.
  it('a loopback base URL goes direct, with HTTPS_PROXY and HTTP_PROXY at a dead port (and NODE_USE_ENV_PROXY=1)', async () => {
    const srv = await startFixtureServer();
    const port = await deadPort();
    try {
      const bridge = spawnRawBridge(tempDir('cr-mcp-proxy-'), {
        env: { CR_BASE_URL: `${srv.url}/api/v1`, CR_API_KEY: KEY, HTTP_PROXY: `http://127.0.0.1:${port}`, HTTPS_PROXY: `http://127.0.0.1:${port}`, NODE_USE_ENV_PROXY: '1' },
      });
      try {
        await bridge.initialize();
        bridge.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        expect(await bridge.answer(2)).toMatchObject({ result: { tools: expect.any(Array) } });
      } finally {
        bridge.child.kill();
      }
    } finally {
      await srv.stop();
    }
  });

  it("a server certificate no trusted CA vouches for: the answer gives cr's certificate wording and how to trust a CA", async () => {
    const target = await startTarget(undefined, await makePki());
    const bridge = spawnRawBridge(tempDir('cr-mcp-cert-'), { env: { CR_BASE_URL: `https://127.0.0.1:${target.port}/api/v1`, CR_API_KEY: KEY } });
    try {
      bridge.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      const answer = (await bridge.answer(1)) as { error?: { message?: string } };
      expect(answer.error?.message).toContain("The server's TLS certificate is not trusted");
      expect(answer.error?.message).toContain('NODE_EXTRA_CA_CERTS');
      expect(target.seen).toEqual([]);
    } finally {
      bridge.child.kill();
    }
  });
});
