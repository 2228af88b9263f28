import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { closeAll, makePki, type Pki, startProxy, startTarget, TARGET_HOST } from './support.js';

/**
 * DEBUG names the proxy agents' logger (the `debug` package), which would print the proxy URL
 * with its password and the request with the key: the bundle's logger never writes
 * (scripts/debug-off.mjs). The built cr, a real proxy asking for credentials, DEBUG=*.
 */
let pki: Pki;
beforeAll(async () => {
  pki = await makePki();
});
afterEach(closeAll);
afterAll(() => cleanupTempDirs());

const KEY = makeKey('9e9e', '9f9f');
const PASSWORD = 'pr0xy-s3cret-pw';

describe('DEBUG never prints a secret', () => {
  for (const scheme of ['https', 'http'] as const) {
    it(`${scheme} through a proxy with credentials, DEBUG=*: neither the key nor the proxy password on stderr`, async () => {
      const target = await startTarget(undefined, scheme === 'https' ? pki : undefined);
      const proxy = await startProxy(`ops:${PASSWORD}`);
      const variable = scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
      const r = await runBin(['api', '/things', '--verbose'], {
        env: {
          CR_API_KEY: KEY,
          CR_BASE_URL: `${scheme}://${TARGET_HOST}:${target.port}/api/v1`,
          NODE_EXTRA_CA_CERTS: pki.caFile,
          [variable]: `http://ops:${PASSWORD}@127.0.0.1:${proxy.port}`,
          DEBUG: '*',
          DEBUG_DEPTH: '10',
        },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(target.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.stderr).toContain('via proxy');
      expect(r.stderr).not.toContain(KEY);
      expect(r.stderr).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain(Buffer.from(`ops:${PASSWORD}`).toString('base64'));
      expect(r.stderr).not.toMatch(/https?-proxy-agent/);
    });
  }
});
