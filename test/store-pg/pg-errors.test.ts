import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from '../../src/server/store-pg/pg-store.js';
import { describePgError, hostPortOf, pgErrorTransient, pgFailureCause } from '../../src/server/store-pg/pg-errors.js';

/**
 * PostgreSQL's refusals said in words (docs/shared-sandbox.md "When the database is not
 * there"): one line with the code in parentheses and a hint, whether `cr serve` tries again,
 * and never the password. The errors are built as the client (postgres.js) makes them: a
 * server's SQLSTATE on `code`, a socket's errno on `code`, two addresses' failures in an
 * AggregateError. Real ones from a server: store-health.test.ts.
 */
const sqlstate = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const AT = '127.0.0.1:5432';
const URL_WITH_PASSWORD = 'postgres://cr:s3cret-pw@127.0.0.1:5432/app';

describe('PostgreSQL errors in words', () => {
  it.each([
    ['28P01', 'database_auth_failed'],
    ['28000', 'database_auth_failed'],
    ['3D000', 'database_unreachable'],
    ['57P01', 'database_unreachable'],
    ['ECONNREFUSED', 'database_unreachable'],
    ['CONNECTION_CLOSED', 'database_unreachable'],
  ])('met while serving, %s is the cause %s', (code, cause) => {
    expect(pgFailureCause(sqlstate(code, 'text'))).toBe(cause);
    // A host with two addresses: the first's failure decides, as for the words.
    expect(pgFailureCause(new AggregateError([sqlstate(code, 'text'), new Error('other')]))).toBe(cause);
  });

  it.each([
    ['28P01', 'password authentication failed (28P01); check the user name and password in the URL', false],
    ['28000', 'the server refused this user from this host (invalid authorization) (28000); check the user name, and that pg_hba.conf', false],
    ['3D000', 'the database does not exist (3D000); create it', false],
    ['42501', "permission denied (42501); the URL's role lacks a privilege on cr's tables, or may not change the schema: migrate as the role that owns it (cr local migrate)", false],
    ['57P01', 'the database server is shutting down (admin shutdown) (57P01)', true],
    ['57P03', 'the database server is starting up and does not accept connections yet (57P03)', true],
    ['53300', 'too many connections to the database server (53300)', true],
  ])('SQLSTATE %s', (code, line, transient) => {
    const err = sqlstate(code, `server text for ${code}`);
    expect(describePgError(err, AT)).toContain(line);
    expect(pgErrorTransient(err)).toBe(transient);
  });

  it.each([
    ['ECONNREFUSED', 'nothing listens at 127.0.0.1:5432 (ECONNREFUSED); is PostgreSQL running there'],
    ['ENOTFOUND', 'the host of 127.0.0.1:5432 is not found (ENOTFOUND); check the host name'],
    ['ETIMEDOUT', 'no answer from 127.0.0.1:5432 (ETIMEDOUT); check the host, the port'],
    ['CONNECT_TIMEOUT', 'no answer from 127.0.0.1:5432 (CONNECT_TIMEOUT)'],
  ])('connection failure %s: said, and worth trying again', (code, line) => {
    const err = Object.assign(new Error(`connect ${code}`), { code });
    expect(describePgError(err, AT)).toContain(line);
    expect(pgErrorTransient(err)).toBe(true);
  });

  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', "the server's certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN); sslrootcert (or PGSSLROOTCERT) must name the CA that signed it"],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "the server's certificate does not name this host (ERR_TLS_CERT_ALTNAME_INVALID); connect by a name the certificate carries, or use sslmode=verify-ca"],
    ['CERT_HAS_EXPIRED', "the server's certificate is not valid now (expired) (CERT_HAS_EXPIRED)"],
  ])('certificate refused (%s): the setting to look at, and not worth waiting for', (code, line) => {
    const err = Object.assign(new Error(`tls ${code}`), { code });
    expect(describePgError(err, AT)).toBe(line);
    expect(pgErrorTransient(err)).toBe(false);
  });

  it('a host with two addresses (AggregateError without a code of its own): the first failure names it', () => {
    const err = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], '');
    expect(describePgError(err, 'localhost:5432')).toBe('nothing listens at localhost:5432 (ECONNREFUSED); is PostgreSQL running there, on this port?');
  });

  it("an unknown SQLSTATE: the server's message, escaped, with its code; class 08 is a connection failure", () => {
    expect(describePgError(sqlstate('XX000', 'internal\u001b[31m error'), AT)).toBe('internal\\x1b[31m error (XX000)');
    expect(pgErrorTransient(sqlstate('XX000', 'x'))).toBe(false);
    expect(pgErrorTransient(sqlstate('08006', 'connection failure'))).toBe(true);
  });

  it('the store error names the URL without its password, and no SQLSTATE alone', () => {
    const err = new DatabaseUnreachableError('postgres://cr:***@127.0.0.1:5432/app', hostPortOf(URL_WITH_PASSWORD), sqlstate('28P01', 'password authentication failed for user "cr"'));
    expect(err.message).toBe(
      'cannot open the store at postgres://cr:***@127.0.0.1:5432/app: password authentication failed (28P01); check the user name and password in the URL (percent-encode @ : / ? # %); the password comes from the URL, else PGPASSWORD, else the password file (PGPASSFILE or ~/.pgpass, used only when mode 0600)',
    );
    expect(err.message).not.toContain('s3cret');
    expect(err.transient).toBe(false);
    expect(hostPortOf(URL_WITH_PASSWORD)).toBe('127.0.0.1:5432');
    expect(hostPortOf('postgres://cr@db/app')).toBe('db:5432');
  });
});
