// pgpass ships no types: one function that finds the password of a connection in the libpq
// password file (PGPASSFILE, else ~/.pgpass; ignored unless mode 0600 or stricter), and where
// its warnings go.
declare module 'pgpass' {
  interface ConnInfo {
    host?: string;
    port?: string | number;
    database?: string;
    user?: string;
  }
  function pgpass(connInfo: ConnInfo, cb: (password: string | undefined) => void): void;
  namespace pgpass {
    /** Where warnings go (default process.stderr); returns the previous stream. */
    function warnTo(stream: NodeJS.WritableStream): NodeJS.WritableStream;
  }
  export = pgpass;
}
