import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/tmp.js';
import { POST_DRAFT } from '../../helpers/fixture-store.js';

const h = useHarness();

describe('-q/--quiet', () => {
  it('list commands print ids only, one a line, the ids --json has', async () => {
    const json = JSON.parse((await h.cr(['nurture', 'list', '--limit', '7', '--json'])).stdout) as { sequences: { contentId: string }[] };
    const r = await h.cr(['nurture', 'list', '--limit', '7', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(json.sequences.map((s) => `${s.contentId}\n`).join(''));
    expect(r.stderr).toBe('');
    const learnings = await h.cr(['learnings', 'list', '--quiet']);
    expect(learnings.stdout).toBe('l-1\nl-2\n');
    expect((await h.cr(['brand', 'subjects', '-q'])).stdout).toBe('bs-1\n');
    expect((await h.cr(['crm', 'agents', '-q'])).stdout).toBe('ag-1\n');
  });

  it('--all -q streams every id', async () => {
    const r = await h.cr(['nurture', 'list', '--all', '-q']);
    const ids = r.stdout.trimEnd().split('\n');
    expect(ids).toHaveLength(450);
    expect(new Set(ids).size).toBe(450);
  });

  it('a write prints the id of what it made or changed', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+2h', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${POST_DRAFT}\n`);
    expect(r.stderr).toBe('');
  });

  it('nothing on stderr but errors: no --local notice; an error still says what went wrong', async () => {
    const dir = tempDir('cr-quiet-');
    const env = { CR_STORE: `${dir}/store.json` };
    const loud = await runCli(['--local', 'learnings', 'list', '--limit', '2'], { env });
    expect(loud.stderr).toContain('--local');
    const quiet = await runCli(['--local', 'learnings', 'list', '--limit', '2', '-q'], { env });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout.trimEnd().split('\n')).toHaveLength(2);
    const bad = await runCli(['--local', 'nurture', 'list', '--limit', '999', '-q'], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--limit must be at most');
  });

  it('refused where there are no ids', async () => {
    const r = await h.cr(['finance', 'summary', '-q']);
    expect(r.exitCode).toBe(2);
  });
});
