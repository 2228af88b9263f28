import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectionSettings } from '../../src/server/store-pg/connection.js';
import { answeredAtOnce } from '../../src/server/store-pg/password.js';
import { clientSsl } from '../../src/server/store-pg/tls-options.js';
import { UsageError } from '../../src/errors.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * How the libpq settings become the client's options (docs/shared-sandbox.md "Connection
 * settings"); test/store-pg/connection-settings.test.ts shows each against a real server.
 */
describe('PostgreSQL connection settings, as options of the client', () => {
  const ca = join(tempDir('cr-ca-'), 'ca.pem');
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
  const notice = () => undefined;
  afterAll(cleanupTempDirs);

  it('takes sslmode and sslrootcert out of the URL, leaving the rest as written (a percent-encoded password too)', () => {
    const s = connectionSettings(`postgres://u:p%23w%2F@db.internal:5433/cr?sslmode=verify-full&sslrootcert=${ca}&application_name=x`, { env: {}, notice });
    expect(s.url).toBe('postgres://u:p%23w%2F@db.internal:5433/cr?application_name=x');
    expect(s.options.pass).toBeUndefined();
    expect(s.options.ssl).toMatchObject({ rejectUnauthorized: true, ca: expect.stringContaining('BEGIN CERTIFICATE') });
    const plain = 'postgres://u@db.internal/cr';
    expect(connectionSettings(plain, { env: {}, notice }).url).toBe(plain);
  });

  it('gives PGPASSWORD when the URL has no password, else the password file when the server asks', () => {
    expect(connectionSettings('postgres://u@h/cr', { env: { PGPASSWORD: 'pw' }, notice }).options.pass).toBe('pw');
    expect(typeof connectionSettings('postgres://u@h/cr', { env: {}, notice }).options.pass).toBe('function');
  });

  it('waits for the password file at the first ask only: later asks answer at once with the last read, and read it again (one read at a time)', async () => {
    const file = ['first'];
    let reads = 0;
    const pass = answeredAtOnce(async () => {
      reads++;
      await new Promise((r) => setTimeout(r, 5));
      return file[0]!;
    });
    const first = pass();
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('first');
    file[0] = 'second';
    expect(pass()).toBe('first');
    expect(pass()).toBe('first');
    expect(reads).toBe(2);
    await vi.waitFor(() => expect(pass()).toBe('second'));
    const failing = answeredAtOnce(() => Promise.reject(new Error('unreadable')));
    expect(await failing()).toBe('');
  });

  it.each([
    [{}, 'prefer'],
    [{ sslmode: 'disable' }, false],
    [{ sslmode: 'allow' }, 'prefer'],
    [{ sslmode: 'require' }, 'require'],
  ])('sslmode %j is the client option %j', (given, expected) => {
    expect(clientSsl(given, {})).toBe(expected);
  });

  it('checks require with a root certificate as verify-ca: the chain, not the name', () => {
    const ssl = clientSsl({ sslmode: 'require', sslrootcert: ca }, {}) as { checkServerIdentity: () => unknown; rejectUnauthorized: boolean };
    expect(ssl.rejectUnauthorized).toBe(true);
    expect(ssl.checkServerIdentity()).toBeUndefined();
  });

  it('checks the URL host for verify-full, an IPv6 address without its brackets', () => {
    const ssl = clientSsl({ sslmode: 'verify-full', sslrootcert: ca, host: '[::1]' }, {}) as {
      checkServerIdentity: (name: string, cert: object) => Error | undefined;
    };
    const ok = ssl.checkServerIdentity('ignored', { subject: { CN: 'x' }, subjectaltname: 'IP Address:0:0:0:0:0:0:0:1' });
    expect(ok).toBeUndefined();
    const wrong = ssl.checkServerIdentity('ignored', { subject: { CN: 'x' }, subjectaltname: 'DNS:localhost' });
    expect(wrong).toBeInstanceOf(Error);
  });

  it('takes PGSSLMODE and PGSSLROOTCERT when the URL has neither; sslrootcert=system implies verify-full and refuses weaker modes', () => {
    expect(clientSsl({}, { PGSSLMODE: 'verify-ca', PGSSLROOTCERT: ca })).toMatchObject({ rejectUnauthorized: true });
    expect(clientSsl({ sslrootcert: 'system' }, {})).toEqual({ rejectUnauthorized: true });
    expect(() => clientSsl({ sslmode: 'require', sslrootcert: 'system' }, {})).toThrow(UsageError);
    expect(() => clientSsl({ sslmode: 'verify-full', sslrootcert: join(ca, 'none') }, {})).toThrow(/cannot read the root certificate/);
  });
});
