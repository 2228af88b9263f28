import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

describe('cr completion zsh', () => {
  it('zsh script', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.exitCode).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef cr/);
    expect(zsh.stdout).toContain("'nurture list') reply=(");
  });
});
