import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOMEPAGE } from '../../../src/cli/help-docs.js';
import { runCli } from '../../helpers/run-cli.js';

/** The root help names where the docs are (docs/install.md "Publishing"): a URL anyone can open, and the docs folder installed beside cr. */
describe('the help footer', () => {
  for (const argv of [['--help'], ['help']]) {
    it(`cr ${argv.join(' ')} names the project home and the docs folder on this machine`, async () => {
      const r = await runCli(argv);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`Docs: ${HOMEPAGE}`);
      const folder = /On this machine: (\S+) \(commands\.md/.exec(r.stdout)?.[1];
      expect(folder, r.stdout).toBeDefined();
      expect(existsSync(join(folder!, 'commands.md'))).toBe(true);
    });
  }
});
