import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../../helpers/process.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

describe('cr completion bash', () => {
  it('bash: loads in bash -c and completes `cr fin` to finance, verbs, flags and choices', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.exitCode).toBe(0);
    const file = join(tempDir(), 'cr.bash');
    writeFileSync(file, r.stdout);
    const complete = (words: string[]) => `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cr_completion; echo "\${COMPREPLY[*]}"`;
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
    const out = await spawnProcess('bash', ['-c', script]);
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
});
