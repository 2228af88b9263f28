import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { runCli } from '../helpers/run-cli.js';
import { runBin } from '../helpers/cli.js';
import { spawnServe } from '../helpers/serve.js';
import { tempDir } from '../helpers/tmp.js';
import { useTlsCluster } from '../helpers/pg-tls-cluster.js';

/**
 * The connection settings of docs/shared-sandbox.md "Connection settings", against a server
 * that asks for a password and speaks TLS with certificates made for the test
 * (test/helpers/pg-tls-cluster.ts). `cr local migrate --dry-run` is the probe: it connects
 * and reads. No output of any case carries the password, plain or percent-encoded.
 */
describe('PostgreSQL connection settings as libpq has them', () => {
  const { cluster: c, probe, noPassword } = useTlsCluster();

  it('takes the password from PGPASSWORD in the command environment (migrate, keys, export); without one the server refuses, named', async () => {
    const withIt = await runCli([...probe, c.url('cr_pw', 'localhost', '?sslmode=disable')], { env: { PGPASSWORD: c.password } });
    expect(withIt.exitCode, withIt.stderr).toBe(0);
    expect(withIt.stdout).toContain('would apply 4 migrations');
    const without = await runCli([...probe, c.url('cr_pw', 'localhost', '?sslmode=disable')]);
    expect(without.exitCode).toBe(1);
    expect(without.stderr).toContain('28P01');
    expect(without.stderr).toContain('the password comes from the URL, else PGPASSWORD, else the password file');
    noPassword(withIt);
    // The local tool set takes it from the command's environment too (migrate first: the reads only check the schema).
    const migrated = await runCli(['local', 'migrate', '--store', c.url('cr_pw', 'localhost', '?sslmode=disable')], { env: { PGPASSWORD: c.password } });
    expect(migrated.exitCode, migrated.stderr).toBe(0);
    const listed = await runCli(['local', 'keys', 'list', '--store', c.url('cr_pw', 'localhost', '?sslmode=disable')], { env: { PGPASSWORD: c.password } });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const exported = await runCli(['local', 'export', '--only', 'users', '--store', c.url('cr_pw', 'localhost', '?sslmode=disable')], { env: { PGPASSWORD: c.password } });
    expect(exported.exitCode, exported.stderr).toBe(0);
  });

  it('reads ~/.pgpass only when its owner alone can read it, and PGPASSFILE instead when set', async () => {
    const home = tempDir('cr-pgpass-');
    const escaped = c.password.replace(/[:\\]/g, '\\$&');
    const line = `localhost:${c.port}:postgres:cr_pw:${escaped}\n`;
    writeFileSync(join(home, '.pgpass'), `# comment\n*:*:otherdb:*:nope\n${line}`, { mode: 0o600 });
    const url = c.url('cr_pw', 'localhost', '?sslmode=disable');
    const ok = await runBin([...probe, url], { configDir: home });
    expect(ok.exitCode, ok.stderr).toBe(0);
    noPassword(ok);
    chmodSync(join(home, '.pgpass'), 0o644);
    const open = await runBin([...probe, url], { configDir: home });
    expect(open.exitCode).toBe(1);
    expect(open.stderr).toContain('has group or world access');
    expect(open.stderr).toMatch(/has group or world access[^\n]*\S\n/);
    expect(open.stderr).toContain('28P01');
    noPassword(open);
    const elsewhere = join(tempDir('cr-pgpassfile-'), 'passwords');
    writeFileSync(elsewhere, line, { mode: 0o600 });
    const byVariable = await runBin([...probe, url], { configDir: home, env: { PGPASSFILE: elsewhere } });
    expect(byVariable.exitCode, byVariable.stderr).toBe(0);
  });

  it('connects with sslmode=verify-full and the CA as sslrootcert (a role the server admits over TLS only)', async () => {
    const r = await runCli([...probe, c.url('cr_tls', 'localhost', `?sslmode=verify-full&sslrootcert=${c.ca}`)], { env: { PGPASSWORD: c.password } });
    expect(r.exitCode, r.stderr).toBe(0);
    const plain = await runCli([...probe, c.url('cr_tls', 'localhost', '?sslmode=disable')], { env: { PGPASSWORD: c.password } });
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain('28000');
  });

  it('takes PGSSLMODE and PGSSLROOTCERT from the environment, the URL winning over them', async () => {
    const env = { PGPASSWORD: c.password, PGSSLMODE: 'verify-full', PGSSLROOTCERT: c.ca };
    expect((await runCli([...probe, c.url('cr_tls')], { env })).exitCode).toBe(0);
    const urlWins = await runCli([...probe, c.url('cr_tls', 'localhost', `?sslrootcert=${c.ca}`)], { env: { ...env, PGSSLROOTCERT: c.otherCa } });
    expect(urlWins.exitCode, urlWins.stderr).toBe(0);
  });

  it('refuses a server whose certificate the given CA did not sign, with a certificate error and no password', async () => {
    const url = `postgres://cr_tls:${encodeURIComponent(c.password)}@localhost:${c.port}/postgres?sslmode=verify-full&sslrootcert=${c.otherCa}`;
    const r = await runCli([...probe, url, '--verbose', '--json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("the server's certificate is not trusted");
    expect(r.stderr).toContain('sslrootcert (or PGSSLROOTCERT) must name the CA that signed it');
    expect(r.stderr).toContain('postgres://cr_tls:***@localhost');
    noPassword(r);
  });

  it('checks the host name with verify-full only: 127.0.0.1 is not on the certificate, verify-ca passes', async () => {
    const env = { PGPASSWORD: c.password };
    const full = await runCli([...probe, c.url('cr_tls', '127.0.0.1', `?sslmode=verify-full&sslrootcert=${c.ca}`)], { env });
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toContain('does not name this host');
    const ca = await runCli([...probe, c.url('cr_tls', '127.0.0.1', `?sslmode=verify-ca&sslrootcert=${c.ca}`)], { env });
    expect(ca.exitCode, ca.stderr).toBe(0);
  });

  it('refuses, exit 2, an sslmode libpq does not know and a verify mode with no root certificate', async () => {
    const bad = await runCli([...probe, c.url('cr_tls', 'localhost', '?sslmode=verify')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full');
    const home = tempDir('cr-noroot-');
    const none = await runCli([...probe, c.url('cr_tls', 'localhost', '?sslmode=verify-full')], { configDir: home });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('.postgresql/root.crt does not exist');
    // libpq's default place for it is read when present.
    mkdirSync(join(home, '.postgresql'));
    writeFileSync(join(home, '.postgresql', 'root.crt'), readFileSync(c.ca));
    const found = await runCli([...probe, c.url('cr_tls', 'localhost', '?sslmode=verify-full')], { configDir: home, env: { PGPASSWORD: c.password } });
    expect(found.exitCode, found.stderr).toBe(0);
  });

  it('serves over TLS with the password from the environment: every connection of cr serve is encrypted', async () => {
    const dir = tempDir('cr-serve-tls-');
    const config = join(dir, 'serve.json');
    writeFileSync(config, JSON.stringify({ store: c.url('cr_tls', 'localhost', `?sslmode=verify-full&sslrootcert=${c.ca}`), pool: 2 }), { mode: 0o600 });
    const server = await spawnServe(['--config', config], { env: { PGPASSWORD: c.password } });
    try {
      expect((await fetch(`${server.baseUrl}/openapi.json`)).status).toBe(200);
      const admin = postgres(`postgres://postgres@127.0.0.1:${c.port}/postgres`, { max: 1, onnotice: () => undefined });
      try {
        const rows = await admin`SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name LIKE 'cr serve%'`;
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.ssl === true)).toBe(true);
      } finally {
        await admin.end();
      }
    } finally {
      await server.stop();
    }
    noPassword({ stdout: server.stdout(), stderr: server.stderr() });
  });
});
