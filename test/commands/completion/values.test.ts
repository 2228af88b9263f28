import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { crOnPath } from '../../helpers/cli.js';
import { spawnProcess } from '../../helpers/process.js';
import { profilesConfig } from '../../helpers/profiles-config.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

describe('completion values', () => {
  it('`cr __complete profiles` lists the profile names, one a line', async () => {
    const r = await runCli(['__complete', 'profiles'], { configDir: profilesConfig() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('empty\nprod\nstaging\n');
    expect(r.stderr).toBe('');
  });

  it('without a config it prints nothing and creates nothing', async () => {
    const dir = join(tempDir(), 'never');
    const r = await runCli(['__complete', 'profiles'], { configDir: dir, env: { CR_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(existsSync(dir)).toBe(false);
    expect((await runCli(['__complete', 'nothing'])).stdout).toBe('');
  });

  it('is not a command `cr --help` shows', async () => {
    expect((await runCli(['--help'])).stdout).not.toContain('__complete');
  });

  it('bash: profile names after --profile (calling cr back), API enums after --status, --type, --format', async () => {
    const configDir = profilesConfig();
    const dir = tempDir();
    const script = join(dir, 'cr.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'])).stdout);
    // The script calls back the `cr` it completes for (COMP_WORDS[0]): here, the built CLI.
    const PATH = crOnPath(dir);
    const cr = join(dir, 'cr');
    const complete = (words: string[]) => `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cr_completion; echo "\${COMPREPLY[*]}"`;
    const out = await spawnProcess(
      'bash',
      [
        '-c',
        [
          `source '${script}'`,
          complete([cr, '--profile', '']),
          complete([cr, 'nurture', 'list', '--profile', 'st']),
          complete([cr, 'nurture', 'list', '--status', 'a']),
          complete([cr, 'learnings', 'list', '--type', '']),
          complete([cr, 'ads', 'create', '--format', 'c']),
          complete([cr, 'posts', 'schedule', '--format', '']),
        ].join('\n'),
      ],
      { env: { CR_CONFIG_DIR: configDir, HOME: configDir, PATH } },
    );
    expect(out.stderr).toBe('');
    expect(out.stdout.split('\n')).toEqual(['empty prod staging', 'staging', 'active archived', 'hook angle offer story audience format cta', 'carousel', 'csv jsonl']);
  });

  it('zsh and fish call back the same way', async () => {
    const zsh = (await runCli(['completion', 'zsh'])).stdout;
    expect(zsh).toContain(`'--profile') reply=(\${(f)"$(\${words[1]} __complete profiles 2>/dev/null)"})`);
    expect(zsh).toContain("'nurture list --status') reply=('draft' 'active' 'paused' 'archived')");
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).toContain("-l profile -r -a '(cr __complete profiles 2>/dev/null)'");
    expect(fish).toContain("-l status -r -a 'draft active paused archived'");
  });
});
