import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { TARGET_HOST } from './support.js';

/**
 * A proxy that takes the connection and never answers (src/http/node-dispatcher.ts,
 * proxyTimedOut in src/http/proxy-errors.ts): for an https URL it did not open the tunnel
 * (PROXY_ERROR); for an http one, which it forwards, a time-out naming it (TIMEOUT); exit 8,
 * within --timeout.
 */
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => cleanupTempDirs());

const KEY = makeKey('5c5c', '5d5d');

/** A proxy that reads what it is sent and says nothing; `received` is what came. */
async function silentProxy(): Promise<{ port: number; received: () => string }> {
  let received = '';
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (d) => (received += d.toString('latin1')));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, received: () => received };
}

/** `cr api` with a 2 s --timeout, `scheme`'s URL through a silent proxy named by `variable`: exit 8 always. */
async function throughSilentProxy(scheme: 'http' | 'https', variable: string) {
  const proxy = await silentProxy();
  const r = await runBin(['api', '/things', '--json', '--timeout', '2'], {
    env: { CR_API_KEY: KEY, CR_BASE_URL: `${scheme}://${TARGET_HOST}/api/v1`, [variable]: `http://127.0.0.1:${proxy.port}` },
  });
  expect(r.exitCode, r.stderr).toBe(8);
  return { proxy, error: JSON.parse(r.stderr) as { code: string; error: string } };
}

describe('a proxy that never answers', () => {
  it('for an https URL: the proxy is named as the one that did not open the tunnel, PROXY_ERROR, exit 8', async () => {
    const { proxy, error } = await throughSilentProxy('https', 'HTTPS_PROXY');
    expect(error.code).toBe('PROXY_ERROR');
    expect(error.error).toContain(`Proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY) did not open the tunnel to cr-target.test within 2 s (it cannot be reached, or did not answer)`);
    expect(proxy.received()).toMatch(/^CONNECT cr-target\.test:443 /);
    expect(proxy.received()).not.toContain(KEY);
  }, 20_000);

  it('for an http URL, whose proxy forwards the request (the silence may be the server behind it): a time-out naming the proxy, TIMEOUT, exit 8', async () => {
    const { proxy, error } = await throughSilentProxy('http', 'HTTP_PROXY');
    expect(error.code).toBe('TIMEOUT');
    expect(error.error).toMatch(new RegExp(`^Timed out after [0-9.]+ s through proxy http://127\\.0\\.0\\.1:${proxy.port} \\(HTTP_PROXY\\) \\(--timeout, retries included\\)`));
    expect(proxy.received()).toMatch(/^GET http:\/\/cr-target\.test\/api\/v1\/things /);
  }, 20_000);
});
