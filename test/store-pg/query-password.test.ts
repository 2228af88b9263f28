import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useTlsCluster } from '../helpers/pg-tls-cluster.js';

/**
 * `?password=` in a store URL is the password, as libpq takes it (docs/shared-sandbox.md
 * "Connection settings"), not a setting sent to the server; `?sslpassword=` and a password
 * given twice are refused (exit 2). Against a server that asks for a password
 * (test/helpers/pg-tls-cluster.ts). No output carries the password.
 */
describe('a password in the store URL query', () => {
  const { cluster: c, probe, noPassword } = useTlsCluster();
  const withQuery = (extra: string) => c.url('cr_pw', 'localhost', `?sslmode=disable&password=${encodeURIComponent(c.password)}${extra}`);

  it('connects with ?password= and nothing else, and it wins over a wrong PGPASSWORD', async () => {
    const alone = await runCli([...probe, withQuery('')]);
    expect(alone.exitCode, alone.stderr).toBe(0);
    noPassword(alone);
    const overEnv = await runCli([...probe, withQuery('')], { env: { PGPASSWORD: 'wrong' } });
    expect(overEnv.exitCode, overEnv.stderr).toBe(0);
    noPassword(overEnv);
  });

  it('refuses a password given twice, and ?sslpassword=, with exit 2 and no password shown', async () => {
    const twice = await runCli([...probe, withQuery('').replace('cr_pw@', `cr_pw:${encodeURIComponent(c.password)}@`)]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('gives its password more than once');
    noPassword(twice);
    const ssl = await runCli([...probe, withQuery('&sslpassword=x')]);
    expect(ssl.exitCode).toBe(2);
    expect(ssl.stderr).toContain('sslpassword');
    noPassword(ssl);
  });
});
