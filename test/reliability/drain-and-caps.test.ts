import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { lockPathOf } from '../../src/server/store/lock.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURE, KEYS, V, ensureBuilt, parseRawResponse, request, sleep, spawnServe, startFixtureServer, stopServe } from './support.js';
import type { SpawnedServe } from './support.js';

/**
 * Stopping and connection limits (docs/api-decisions.md §9): a half-sent request never holds a stop
 * open past `--drain-timeout`; open connections are capped (`--max-connections`) with one log
 * line; answers given while draining say `Connection: close`.
 */
const running: SpawnedServe[] = [];
const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const s of running) s.kill('SIGKILL');
  cleanupTempDirs();
});

function fixtureCopy() {
  const dir = tempDir('cr-drain-');
  const path = join(dir, 'store.json');
  copyFileSync(FIXTURE, path);
  return { dir, path };
}

/** A TCP connection to the server, with whether and how the server ended it. */
function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const state = { connected: false, closed: false, data: '' };
  const ready = new Promise<void>((resolve) => {
    socket.once('connect', () => {
      state.connected = true;
      resolve();
    });
    socket.once('error', () => resolve());
  });
  socket.on('data', (d: Buffer) => (state.data += d.toString()));
  socket.on('error', () => undefined); // a refused connection may be reset
  socket.on('close', () => (state.closed = true));
  return { socket, state, ready };
}

/** Resolves with the exit, or 'still running' after `ms` (the bound on a hang, not a speed check). */
const exitWithin = (s: SpawnedServe, ms: number) => Promise.race([s.exited, sleep(ms).then(() => 'still running' as const)]);

describe('drain deadline and connection cap', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('a half-sent request does not hold SIGTERM beyond --drain-timeout: exit 0, lock gone, a restart works', async () => {
    const { dir, path } = fixtureCopy();
    const s = await spawnServe(['--store', path, '--drain-timeout', '0.3'], { dir });
    running.push(s);
    // Headers cut short: no blank line ever comes (Node stops enforcing its header timeout once closing).
    const half = open(s.port);
    await half.ready;
    half.socket.write(`GET ${V}/finance/summary HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${KEYS.viewerW1}\r\nX-Slow: `);
    // And a request with its headers and half its body.
    const body = open(s.port);
    await body.ready;
    body.socket.write(
      `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":`,
    );
    await sleep(200);

    s.kill('SIGTERM');
    expect(await exitWithin(s, 8_000), s.stderr()).toEqual({ code: 0, signal: null });
    expect(s.stderr()).toContain('cr serve: stopping: 2 connection(s) still open after 0.3 s (--drain-timeout), closed');
    await vi.waitFor(() => expect(half.state.closed && body.state.closed).toBe(true));
    expect(existsSync(lockPathOf(path))).toBe(false);

    const again = await spawnServe(['--store', path], { dir });
    running.push(again);
    expect((await request(again.origin, 'GET', `${V}/finance/summary`, { key: KEYS.viewerW1 })).status).toBe(200);
    expect((await stopServe(again)).code).toBe(0);
  }, 30_000);

  it('--max-connections 20 with 40 idle sockets: 20 are closed, one log line, and the server answers once they close', async () => {
    const { dir, path } = fixtureCopy();
    const s = await spawnServe(['--store', path, '--max-connections', '20'], { dir });
    running.push(s);
    const conns: ReturnType<typeof open>[] = [];
    for (let i = 0; i < 40; i++) {
      const c = open(s.port);
      await c.ready;
      conns.push(c);
    }
    await vi.waitFor(() => expect(conns.filter((c) => c.state.closed).length).toBe(20), { timeout: 5_000 });
    await sleep(200);
    expect(conns.filter((c) => c.state.closed).length).toBe(20); // and not more: the first 20 stay open
    const reached = s
      .stderr()
      .split('\n')
      .filter((l) => l.includes('connections open (--max-connections)'));
    expect(reached).toEqual(['cr serve: 20 connections open (--max-connections): refusing new connections until some close']);

    for (const c of conns) c.socket.destroy();
    await vi.waitFor(() => expect(s.stderr()).toContain('cr serve: accepting connections again (20 refused while at 20)'), { timeout: 5_000 });
    const res = await request(s.origin, 'GET', `${V}/finance/summary`, { key: KEYS.viewerW1 });
    expect(res.status).toBe(200);
    expect(
      s
        .stderr()
        .split('\n')
        .filter((l) => l.includes('connections open (--max-connections)')).length,
    ).toBe(1);
    expect((await stopServe(s)).code).toBe(0);
  }, 30_000);

  it('an answer given while draining says Connection: close, even to a keep-alive client', async () => {
    const server = await startFixtureServer({ log: false });
    const c = open(server.port);
    await c.ready;
    const payload = JSON.stringify({ name: 'drained', source_type: 'rss', query_config: { feed_url: 'https://feed.example/rss' } });
    c.socket.write(
      `POST ${V}/content/listeners HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${KEYS.editorW1}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n${payload.slice(0, 10)}`,
    );
    await sleep(100);
    const closing = server.close();
    await sleep(100);
    c.socket.write(payload.slice(10));
    await closing;
    await server.stop();
    await vi.waitFor(() => expect(c.state.closed).toBe(true));
    const res = parseRawResponse(c.state.data);
    expect(res.status, c.state.data).toBe(200);
    expect(res.headers.connection).toBe('close');
  });

  it('a connection accepted just before the stop whose request comes a moment later is answered, not reset', async () => {
    const server = await startFixtureServer({ log: false });
    const c = open(server.port);
    await c.ready;
    await sleep(50); // accepted: the server holds the connection, no byte of a request yet
    const closing = server.close();
    await sleep(100);
    c.socket.write(`GET ${V}/finance/summary HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${KEYS.viewerW1}\r\n\r\n`);
    await closing;
    await server.stop();
    await vi.waitFor(() => expect(c.state.closed).toBe(true));
    const res = parseRawResponse(c.state.data);
    expect(res.status, c.state.data || 'no answer: reset').toBe(200);
    expect(res.headers.connection).toBe('close');
  });

  it('connections that send nothing (new, or keep-alive between requests) do not hold a stop until the deadline', async () => {
    const server = await startFixtureServer({ log: false, limits: { drainMs: 30_000 } });
    const silent = open(server.port);
    const kept = open(server.port);
    await Promise.all([silent.ready, kept.ready]);
    kept.socket.write(`GET ${V}/finance/summary HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${KEYS.viewerW1}\r\n\r\n`);
    await vi.waitFor(() => expect(kept.state.data).toContain('HTTP/1.1 200'));
    const stopped = await Promise.race([server.stop().then(() => 'stopped'), sleep(10_000).then(() => 'held')]);
    expect(stopped).toBe('stopped');
    expect(silent.state.closed && kept.state.closed).toBe(true);
  }, 20_000);
});

describe('--drain-timeout bounds', () => {
  it('a deadline longer than a timer can hold is a usage error, not a stop that closes everything at once', async () => {
    const r = await runCli(['serve', '--port', '0', '--drain-timeout', '99999999999']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--drain-timeout must be');
  });
});
