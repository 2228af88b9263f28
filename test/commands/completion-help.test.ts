import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

const LEAVES = [
  ['finance'], ['ads'], ['listeners'], ['posts'], ['learnings'], ['nurture'], ['visibility'], ['brand'], ['crm'],
  ['finance', 'summary'],
  ['ads', 'create'],
  ['listeners', 'create'],
  ['posts', 'schedule'],
  ['learnings', 'list'],
  ['nurture', 'list'],
  ['visibility', 'grid'],
  ['brand', 'subjects'],
  ['crm', 'agents'],
  ['completion'],
];

describe('cr completion', () => {
  it('bash: loads in bash -c and completes `cr fin` to finance, verbs, flags and choices', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.exitCode).toBe(0);
    const file = join(tempDir(), 'cr.bash');
    writeFileSync(file, r.stdout);
    const complete = (words: string[]) =>
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cr_completion; echo "\${COMPREPLY[*]}"`;
    const script = [
      'set -e',
      `source '${file}'`,
      complete(['cr', 'fin']),
      complete(['cr', 'nurture', '']),
      complete(['cr', '--json', 'nurture', 'list', '--a']),
      complete(['cr', 'listeners', 'create', '--source', 'r']),
      complete(['cr', 'ads', 'create', '--dr']),
      'complete -p cr',
    ].join('\n');
    const out = await execa('bash', ['-c', script], { reject: false });
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout.split('\n')).toEqual(['finance', 'list', '--all', 'reddit rss', '--dry-run', 'complete -o default -F _cr_completion cr']);
  });

  it('covers every command and flag of the tree', async () => {
    const r = await runCli(['completion', 'bash']);
    for (const word of ['summary', 'schedule', 'subjects', 'agents', 'grid', '--query-json', '--product-line', '--keyword', '--website', '--no-color', 'login', 'profiles']) {
      expect(r.stdout).toContain(word);
    }
  });

  it('zsh and fish scripts', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.exitCode).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef cr/);
    expect(zsh.stdout).toContain("'nurture list') reply=(");
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c cr -n '__fish_use_subcommand' -a 'finance'");
    expect(fish.stdout).toContain('-l dry-run');
    expect(fish.stdout).toContain("-l source -r -a 'reddit youtube");
  });
});

describe('--help shows examples', () => {
  it.each(LEAVES)('cr %s %s --help', async (...words) => {
    const r = await runCli([...words.filter(Boolean), '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n {2}\$ cr /);
  });
});
