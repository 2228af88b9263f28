// The esbuild plugin that mends one defect of the PostgreSQL client (`postgres`, 3.4.9) in the
// bundle (scripts/bundle.mjs uses it; docs/shared-sandbox.md).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * postgres 3.4.9 writes a query's bytes on a setImmediate when they are short. If the server
 * closes the connection in between (a PostgreSQL restart, a terminated backend), the write
 * finds its socket gone and throws a TypeError from the timer: uncatchable, it ends the whole
 * `cr serve` (seen in test/store-pg/durability.test.ts; upstream: porsager/postgres issues
 * 1154 and 1208, unreleased fix in pull request 1209). The edit does what that fix does: a
 * write without a socket fails its queries with CONNECTION_CLOSED, which the store answers as
 * 503 STORE_UNAVAILABLE, and the pool connects again for the next request.
 *
 * The file is pinned by its sha256: a new release fails the build, saying to check whether it
 * mends this itself (then delete the edit) or to re-check the edit against it.
 */
const FROM = `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`;
const TO = `  function nextWrite(fn) {
    if (!socket) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`;
const CHECKED = {
  'src/connection.js': 'ee3a218d9aa6a6f2887c1a19da50009335fe84c11a5431d5cab72d6bc528632f',
  'cjs/src/connection.js': 'ce6d375809baad79963ef9b3773e6ac757bcf6da2362d4d85482bb14c2c751be',
};

export const postgresPlugin = {
  name: 'cr-postgres',
  setup(b) {
    b.onLoad({ filter: /\/node_modules\/postgres\/(cjs\/)?src\/connection\.js$/ }, async (a) => {
      const file = a.path.slice(a.path.lastIndexOf('/postgres/') + '/postgres/'.length);
      const text = await readFile(a.path, 'utf8');
      const sha256 = createHash('sha256').update(text).digest('hex');
      if (sha256 !== CHECKED[file] || !text.includes(FROM)) {
        throw new Error(
          `scripts/postgres-plugin.mjs: postgres's ${file} is not the file its nextWrite edit was checked against (sha256 ${sha256}). If this release guards nextWrite against a closed socket, delete the edit; otherwise re-check it and put the new sha256.`,
        );
      }
      return { contents: text.replace(FROM, TO), loader: 'js' };
    });
  },
};
