import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { freshDatabase } from '../../helpers/postgres.js';

// The JSON store file and a database, each named here: not the `commands-pg` pass (vitest.config.ts).

/**
 * `cr local init` takes its clock from the command's context (CR_NOW from its env), as every
 * other command does: the admin key's created_at and the demo's dates, into a file or a
 * database, are those of the context, never of the process the command runs in.
 */
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  cleanupTempDirs();
});

const NOW = '2030-06-01T00:00:00Z';

describe('cr local init and CR_NOW', () => {
  it("dates the key and the demo data by the context's CR_NOW, in a store file and in a database", async () => {
    const db = await freshDatabase();
    drops.push(db.drop);
    for (const store of [join(tempDir('cr-init-clock-'), 'store.json'), db.url]) {
      const home = tempDir('cr-init-clock-');
      const init = await runCli(['local', 'init', '--demo', '--store', store], { configDir: home, env: { CR_NOW: NOW } });
      expect(init.exitCode, init.stderr).toBe(0);
      const keys = await runCli(['local', 'keys', 'list', '--json', '--store', store], { configDir: home, env: { CR_NOW: NOW } });
      expect(JSON.parse(keys.stdout).map((k: { created_at: string }) => k.created_at)).toEqual(['2030-06-01T00:00:00.000Z']);
    }
  });
});
