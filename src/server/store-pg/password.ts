import { userInfo } from 'node:os';
import { Writable } from 'node:stream';
import { escapeControls } from '../../render/escape.js';

/** Where a connection goes, as the password file's lines name it (host:port:database:user:password). */
export interface PasswordTarget {
  host: string;
  port: string;
  database: string;
  user: string;
}

/**
 * The password of a connection whose URL has none, in libpq's order (docs/shared-sandbox.md
 * "Connection settings"): PGPASSWORD, then the password file. Returns what the client takes
 * as its `pass` option: a string, a function it calls only when the server asks for a
 * password (a server that trusts the user never makes cr read the file), or undefined for
 * the URL's own.
 *
 * Only the first ask waits for the file. Later ones get at once what it held at the last read,
 * and start a new read for the next: the client writes the password on its connection as soon
 * as it has it, and one that came after the server closed that connection meanwhile (a restart,
 * a terminated backend) was a write on a socket the client had let go of, which ended the
 * process (postgres 3.4.9; transaction.ts says more).
 *
 * The password file is read by `pgpass` (node-postgres' reader: PGPASSFILE, else ~/.pgpass,
 * ignored with a warning unless mode 0600 or stricter, as libpq). It finds the file through
 * the process's environment, which is the command's (src/cli/context.ts) in every run of `cr`;
 * its warnings go to `notice`, never standard error directly.
 */
export function passwordOption(url: URL, env: NodeJS.ProcessEnv, notice: (line: string) => void): string | (() => string | Promise<string>) | undefined {
  if (url.password !== '') return undefined;
  if (env.PGPASSWORD !== undefined) return env.PGPASSWORD;
  const target = targetOf(url, env);
  return answeredAtOnce(async () => (await fromPasswordFile(target, notice)) ?? '');
}

/**
 * `read` behind a function that waits for it the first time only: later calls answer at once
 * with what the last read gave, and start a new one for the next (one at a time). A read that
 * fails counts as no password ('').
 */
export function answeredAtOnce(read: () => Promise<string>): () => string | Promise<string> {
  let last: string | undefined;
  let reading: Promise<string> | undefined;
  const again = () =>
    (reading ??= read()
      .catch(() => '')
      .then((found) => {
        reading = undefined;
        last = found;
        return found;
      }));
  return () => {
    if (last === undefined) return again();
    void again();
    return last;
  };
}

/** Host, port, database and user as the client resolves them (postgres.js parseOptions), for matching the file's lines. */
export function targetOf(url: URL, env: NodeJS.ProcessEnv): PasswordTarget {
  const user = decodeURIComponent(url.username) || env.PGUSERNAME || env.PGUSER || osUser(env);
  return {
    host: url.hostname || env.PGHOST || 'localhost',
    port: url.port || env.PGPORT || '5432',
    database: decodeURIComponent(url.pathname.slice(1)) || env.PGDATABASE || user,
    user,
  };
}

const osUser = (env: NodeJS.ProcessEnv) => {
  try {
    return env.USER || env.LOGNAME || userInfo().username;
  } catch {
    return '';
  }
};

async function fromPasswordFile(target: PasswordTarget, notice: (line: string) => void): Promise<string | undefined> {
  const { default: pgpass } = await import('pgpass');
  let said = '';
  const warnings = new Writable({
    write(chunk: Buffer, _enc, done) {
      said += chunk.toString();
      done();
    },
  });
  const before = pgpass.warnTo(warnings);
  try {
    return await new Promise<string | undefined>((resolve) => pgpass(target, resolve));
  } finally {
    pgpass.warnTo(before);
    for (const line of said.split('\n').filter(Boolean)) notice(`cr: ${escapeControls(line.replace(/^WARNING: /, '').trimEnd())}`);
  }
}
