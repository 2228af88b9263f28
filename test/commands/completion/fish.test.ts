import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

describe('cr completion fish', () => {
  it('fish script', async () => {
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c cr -n '__fish_use_subcommand' -a 'finance'");
    expect(fish.stdout).toContain('-l dry-run');
    expect(fish.stdout).toContain("-l source -r -a 'reddit youtube");
  });
});
