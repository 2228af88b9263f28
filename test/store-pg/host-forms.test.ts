import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs } from '../helpers/tmp.js';

/**
 * Host forms of a store URL the client would connect wrongly with, refused at once with exit 2
 * (docs/shared-sandbox.md "Connection settings"): several hosts (each host's certificate
 * would be checked against one name), an IPv6
 * address in brackets. Nothing is connected to: the ports are closed ones.
 */
describe('store URL host forms cr refuses', () => {
  afterAll(() => cleanupTempDirs());
  const probe = ['local', 'migrate', '--dry-run', '--store'];

  it.each([
    ['postgres://cr@127.0.0.1:9,127.0.0.2:9/db?sslmode=verify-full&sslrootcert=/nonexistent', {}],
    ['postgres://cr:pw@127.0.0.1:9,127.0.0.2:9/db', {}],
    ['postgres://cr@127.0.0.1:9,127.0.0.2:9/db?sslmode=verify-ca&sslrootcert=/nonexistent', {}],
    ['postgres://cr@127.0.0.1:9,127.0.0.2:9/db', { PGSSLMODE: 'verify-full', PGSSLROOTCERT: '/nonexistent' }],
  ])('refuses several hosts, with a verify mode or not: %s', async (url, env) => {
    const r = await runCli([...probe, url], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('it names several hosts (h1,h2), which cr does not support');
  });

  it('refuses an IPv6 address in brackets, naming what to use instead', async () => {
    const r = await runCli([...probe, 'postgres://cr@[::1]:9/db']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('IPv6 address in brackets');
    expect(r.stderr).not.toContain('ENOTFOUND');
  });
});
