import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { tempDir, cleanupTempDirs } from '../helpers/tmp.js';
import { FIXTURE, KEYS, MCP_HEADERS, OPS, V, ensureBuilt, request, runBin, sleep, spawnServe, startFixtureServer, stopServe } from './support.js';
import type { TestServer } from '../server/helpers.js';

/**
 * Item 13: DNS rebinding. A foreign Host or Origin gets 403 "Forbidden host or origin" on
 * every route (REST, MCP, OpenAPI, unknown paths), even with a valid key; `cr serve` binds
 * 127.0.0.1 by default and refuses a non-loopback --host without --allowed-host (exit 2).
 */
let srv: TestServer;
let port: number;
beforeAll(async () => {
  srv = await startFixtureServer({ rateLimit: 1_000_000 });
  port = srv.port;
});
afterAll(async () => {
  await srv?.stop();
  cleanupTempDirs();
});

const FORBIDDEN = { success: false, error: 'Forbidden host or origin', code: 'FORBIDDEN' };

interface Route {
  name: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const ROUTES: Route[] = [
  ...OPS.map((op) => ({ name: op.operationId, method: op.method, path: V + op.path, body: op.body && JSON.stringify(op.body) })),
  { name: 'MCP tools/list', method: 'POST', path: `${V}/mcp`, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), headers: { ...MCP_HEADERS } },
  { name: 'MCP GET', method: 'GET', path: `${V}/mcp`, headers: { accept: 'text/event-stream' } },
  { name: 'OpenAPI', method: 'GET', path: `${V}/openapi.json` },
  { name: 'unknown path under the prefix', method: 'GET', path: `${V}/nope` },
  { name: 'unknown path outside the prefix', method: 'GET', path: '/' },
  { name: 'wrong method on a known route', method: 'DELETE', path: `${V}/finance/summary` },
  { name: 'OPTIONS preflight', method: 'OPTIONS', path: `${V}/content/listeners`, headers: { 'access-control-request-method': 'POST' } },
];

const foreignHosts = () => [
  'evil.example',
  `evil.example:${port}`,
  `localhost.evil.example:${port}`,
  `127.0.0.1.nip.io:${port}`,
  `[::2]:${port}`,
  `192.168.0.10:${port}`,
  `localhost:${port}@evil.example`,
];
const foreignOrigins = () => [
  'http://evil.example',
  `http://localhost.evil.example:${port}`,
  'https://attacker.example:443',
  'null',
  'file://',
  `http://127.0.0.1.nip.io:${port}`,
  'chrome-extension://abcdef',
];

describe('DNS rebinding', () => {
  it('a foreign Host gets the 403 envelope on every route, even with a valid admin key', async () => {
    const before = JSON.stringify(srv.store.list('content_listeners'));
    let n = 0;
    for (const r of ROUTES) {
      for (const host of foreignHosts()) {
        const res = await request(srv.url, r.method, r.path, { key: KEYS.adminW1, ...(r.body ? { rawBody: r.body } : {}), headers: { ...r.headers, host } });
        expect(res.status, `${r.name} Host ${host}: ${res.text}`).toBe(403);
        expect(res.json, `${r.name} Host ${host}`).toStrictEqual(FORBIDDEN);
        n++;
      }
    }
    expect(JSON.stringify(srv.store.list('content_listeners'))).toBe(before);
    expect(n).toBe(ROUTES.length * foreignHosts().length);
  });

  it('a foreign Origin (with a loopback Host) gets the 403 envelope on every route', async () => {
    for (const r of ROUTES) {
      for (const origin of foreignOrigins()) {
        const res = await request(srv.url, r.method, r.path, { key: KEYS.adminW1, ...(r.body ? { rawBody: r.body } : {}), headers: { ...r.headers, origin } });
        expect(res.status, `${r.name} Origin ${origin}: ${res.text}`).toBe(403);
        expect(res.json, `${r.name} Origin ${origin}`).toStrictEqual(FORBIDDEN);
      }
    }
  });

  it('refused requests do not count against the rate limit', async () => {
    const first = await request(srv.url, 'GET', `${V}/finance/summary`, { key: KEYS.viewerAgency });
    await request(srv.url, 'GET', `${V}/finance/summary`, { key: KEYS.viewerAgency, headers: { host: 'evil.example' } });
    const second = await request(srv.url, 'GET', `${V}/finance/summary`, { key: KEYS.viewerAgency });
    expect(Number(first.headers['x-ratelimit-remaining']) - Number(second.headers['x-ratelimit-remaining'])).toBe(1);
  });

  it('control: loopback Host and Origin forms are let through on every route', async () => {
    for (const r of ROUTES) {
      for (const [host, origin] of [
        [`127.0.0.1:${port}`, undefined],
        [`localhost:${port}`, `http://localhost:${port}`],
        [`LOCALHOST:${port}`, `http://127.0.0.1:${port}`],
        [`[::1]:${port}`, `http://[::1]:${port}`],
      ] as const) {
        const res = await request(srv.url, r.method, r.path, { key: KEYS.editorW1, ...(r.body ? { rawBody: r.body } : {}), headers: { ...r.headers, host, ...(origin ? { origin } : {}) } });
        expect(res.status, `${r.name} Host ${host} Origin ${origin}: ${res.text}`).not.toBe(403);
      }
    }
  });
});

describe('cr serve binds loopback only', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('by default it listens on 127.0.0.1 only: the printed address is 127.0.0.1 and a non-loopback local address is refused', async () => {
    const dir = tempDir('cr-rebind-');
    const storePath = join(dir, 'store.json');
    copyFileSync(FIXTURE, storePath);
    // No --host: the default must be loopback.
    const s = await spawnServe(['--store', storePath], { dir });
    try {
      expect(new URL(s.baseUrl).hostname).toBe('127.0.0.1');
      for (let i = 0; i < 40 && !s.stderr().includes('listening on'); i++) await sleep(50);
      expect(s.stderr()).toContain(`listening on http://127.0.0.1:${s.port}/api/v1`);
      const ok = await fetch(`http://127.0.0.1:${s.port}${V}/openapi.json`);
      expect(ok.status).toBe(200);

      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
      if (!external) {
        console.warn('no non-loopback IPv4 interface: the "refused on another interface" assertion is skipped');
      } else {
        const outcome = await new Promise<string>((resolve) => {
          const sock = connect(s.port, external);
          sock.setTimeout(3_000, () => {
            sock.destroy();
            resolve('timeout');
          });
          sock.on('connect', () => {
            sock.destroy();
            resolve('connected');
          });
          sock.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        });
        expect(outcome, `connecting to ${external}:${s.port}`).toBe('ECONNREFUSED');
      }
    } finally {
      expect((await stopServe(s)).code).toBe(0);
    }
  }, 60_000);

  it('--host 0.0.0.0 (or another non-loopback address) without --allowed-host is refused with exit 2 and listens nowhere', async () => {
    const dir = tempDir('cr-rebind-');
    const storePath = join(dir, 'store.json');
    copyFileSync(FIXTURE, storePath);
    for (const host of ['0.0.0.0', '::', '192.168.0.10']) {
      const r = await runBin(['serve', '--store', storePath, '--host', host, '--port', '0'], { env: { HOME: dir, CR_CONFIG_DIR: join(dir, 'cfg') }, timeoutMs: 10_000 });
      expect(r.exitCode, `${host}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/--allowed-host/);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
