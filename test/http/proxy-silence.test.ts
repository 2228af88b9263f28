import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { TARGET_HOST } from './support.js';

/**
 * A proxy that takes the connection and never answers (src/http/node-dispatcher.ts,
 * proxyTimedOut in src/http/proxy-errors.ts): the proxy is named, with its variable, as the one
 * that did not answer, code PROXY_ERROR, exit 8; within --timeout.
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

describe('a proxy that never answers', () => {
  it.each([
    ['https', 'HTTPS_PROXY', /did not answer the request for a tunnel to cr-target\.test: timed out after 2 s/],
    ['http', 'HTTP_PROXY', /did not answer the request for http:\/\/cr-target\.test: timed out after 2 s/],
  ])(
    'for an %s URL (%s): the proxy is named as the one that did not answer, exit 8',
    async (scheme, variable, wording) => {
      const proxy = await silentProxy();
      const r = await runBin(['api', '/things', '--json', '--timeout', '2'], {
        env: { CR_API_KEY: KEY, CR_BASE_URL: `${scheme}://${TARGET_HOST}/api/v1`, [variable]: `http://127.0.0.1:${proxy.port}` },
      });
      expect(r.exitCode, r.stderr).toBe(8);
      const error = JSON.parse(r.stderr) as { code: string; error: string };
      expect(error.code).toBe('PROXY_ERROR');
      expect(error.error).toContain(`Proxy http://127.0.0.1:${proxy.port} (${variable})`);
      expect(error.error).toMatch(wording);
      // It was asked: a CONNECT for https, the request itself for http.
      expect(proxy.received()).toMatch(scheme === 'https' ? /^CONNECT cr-target\.test:443 / : /^GET http:\/\/cr-target\.test\/api\/v1\/things /);
      if (scheme === 'https') expect(proxy.received()).not.toContain(KEY);
    },
    20_000,
  );
});
