import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { ROOT } from './paths.js';
import { runProcessSync, spawnProcess } from './process.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { cleanupTempDirs, tempDir } from './tmp.js';

/**
 * A PostgreSQL cluster of its own (scripts/pg-cluster.sh) that asks for passwords and speaks
 * TLS, for the connection settings of docs/shared-sandbox.md: a CA and a server certificate
 * for `localhost` made here with openssl, a second CA that signed nothing of it, and two
 * roles: `cr_pw` (password, TLS or not) and `cr_tls` (password, TLS only). The test run's
 * shared server trusts every local user and has no TLS, so it cannot show either.
 */
export interface TlsCluster {
  port: number;
  /** The CA that signed the server's certificate, and one that did not (PEM files). */
  ca: string;
  otherCa: string;
  /** Both roles' password. */
  password: string;
  /** A URL of the `postgres` database as `role`, without a password, with `query` appended. */
  url(role: 'cr_pw' | 'cr_tls', host?: string, query?: string): string;
  stop(): Promise<void>;
}

const SCRIPT = join(ROOT, 'scripts', 'pg-cluster.sh');

function openssl(dir: string, args: string[]): void {
  const r = runProcessSync('openssl', args, { cwd: dir, env: {} });
  if (r.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${String(r.stderr)}`);
}

function makeCertificates(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=cr test CA']);
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'other-ca.key', '-out', 'other-ca.pem', '-days', '2', '-subj', '/CN=cr other CA']);
  openssl(dir, ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext']);
}

export async function startTlsCluster(): Promise<TlsCluster> {
  const home = tempDir('cr-pgtls-');
  // The cluster runs as the postgres user (scripts/pg-cluster.sh), which must reach its folder and the certificate.
  chmodSync(home, 0o755);
  const certs = join(home, 'certs');
  mkdirSync(certs);
  makeCertificates(certs);
  const dir = join(home, 'cluster');
  const started = await spawnProcess('bash', [SCRIPT, 'start', dir], { env: { HOME: home }, timeoutMs: 120_000 });
  if (started.exitCode !== 0) throw new Error(`scripts/pg-cluster.sh start failed: ${String(started.stderr)}`);
  const superUrl = String(started.stdout).trim();
  const port = Number(new URL(superUrl).port);
  // The key must be the server's own and private (PostgreSQL refuses it otherwise).
  if (process.getuid?.() === 0) {
    const uid = Number(String(runProcessSync('id', ['-u', 'postgres'], { env: {} }).stdout).trim());
    for (const f of ['server.key', 'server.crt']) chownSync(join(certs, f), uid, -1);
  }
  chmodSync(join(certs, 'server.key'), 0o600);
  chmodSync(certs, 0o755);
  const password = 'pa:ss#wörd/1';
  // Password (SCRAM) for the two roles, TLS only for cr_tls; the superuser keeps trust over loopback.
  writeFileSync(
    join(dir, 'data', 'pg_hba.conf'),
    [
      'local all all trust',
      'hostssl all cr_tls 127.0.0.1/32 scram-sha-256',
      'hostnossl all cr_tls 127.0.0.1/32 reject',
      'host all cr_pw 127.0.0.1/32 scram-sha-256',
      'host all all 127.0.0.1/32 trust',
      '',
    ].join('\n'),
  );
  const sql = postgres(superUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(`ALTER SYSTEM SET ssl_cert_file = '${join(certs, 'server.crt')}'`);
    await sql.unsafe(`ALTER SYSTEM SET ssl_key_file = '${join(certs, 'server.key')}'`);
    await sql.unsafe('ALTER SYSTEM SET ssl = on');
    for (const role of ['cr_pw', 'cr_tls']) await sql.unsafe(`CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD '${password}'`);
    const [reloaded] = await sql`SELECT pg_reload_conf() AS ok`;
    if (!reloaded!.ok) throw new Error('pg_reload_conf failed');
    // The reload is asynchronous: wait until the server answers with TLS on.
    for (let i = 0; i < 100; i++) {
      const [s] = await sql`SELECT current_setting('ssl') AS ssl`;
      if (s!.ssl === 'on') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await sql.end();
  }
  return {
    port,
    ca: join(certs, 'ca.pem'),
    otherCa: join(certs, 'other-ca.pem'),
    password,
    url: (role, host = 'localhost', query = '') => `postgres://${role}@${host}:${port}/postgres${query}`,
    stop: async () => {
      await spawnProcess('bash', [SCRIPT, 'stop', dir], { env: { HOME: home }, timeoutMs: 60_000 });
    },
  };
}

/**
 * One cluster for a test file, started before its tests and stopped after them (temp folders
 * removed), with the probe that connects and reads (`cr local migrate --dry-run --store URL`) and
 * the check that no output carries the password, plain or percent-encoded. The cluster's fields
 * are there once `beforeAll` has run.
 */
export function useTlsCluster(): { cluster: TlsCluster; probe: string[]; noPassword: (r: { stdout: string; stderr: string }) => void } {
  const cluster = {} as TlsCluster;
  beforeAll(async () => {
    Object.assign(cluster, await startTlsCluster());
  }, 120_000);
  afterAll(async () => {
    await cluster.stop?.();
    cleanupTempDirs();
  });
  const noPassword = (r: { stdout: string; stderr: string }) => {
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(cluster.password);
      expect(text).not.toContain(encodeURIComponent(cluster.password));
    }
  };
  return { cluster, probe: ['local', 'migrate', '--dry-run', '--store'], noPassword };
}
