import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

const GROUPS = ['finance', 'ads', 'listeners', 'posts', 'learnings', 'nurture', 'visibility', 'brand', 'crm', 'api', 'auth', 'profiles', 'serve', 'local', 'mcp', 'completion'];

const LEAVES = [
  ['finance'],
  ['ads'],
  ['listeners'],
  ['posts'],
  ['learnings'],
  ['nurture'],
  ['visibility'],
  ['brand'],
  ['crm'],
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

describe('cr --help', () => {
  it('--help lists every command group and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.exitCode).toBe(0);
    const commands = r.stdout.slice(r.stdout.indexOf('Commands:'));
    for (const g of GROUPS) expect(commands).toMatch(new RegExp(`^  ${g}\\b`, 'm'));
    for (const flag of ['--profile', '--base-url', '--json', '--website', '--local', '--verbose', '--timeout', '--no-color']) expect(r.stdout).toContain(flag);
    expect(r.stderr).toBe('');
  });

  it("a group's --help shows its subcommands", async () => {
    const r = await runCli(['auth', '--help']);
    expect(r.exitCode).toBe(0);
    for (const sub of ['login', 'status', 'logout']) expect(r.stdout).toContain(sub);
  });

  it('no command at all, or a group without its verb: that help on stdout, exit 0 (as gh does)', async () => {
    const r = await runCli([]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe((await runCli(['--help'])).stdout);
    const g = await runCli(['auth']);
    expect(g.exitCode).toBe(0);
    expect(g.stdout).toBe((await runCli(['auth', '--help'])).stdout);
    expect(g.stdout).toMatch(/^Usage: cr auth/);
  });

  it('an unknown verb of a group is still a usage error naming the nearest', async () => {
    const r = await runCli(['nurture', 'lst']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('did you mean list?');
  });
});

describe('--help shows examples', () => {
  it.each(LEAVES)('cr %s %s --help', async (...words) => {
    const r = await runCli([...words.filter(Boolean), '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n {2}\$ cr /);
  });
});

describe('help texts an operator can paste from', () => {
  const VERBS = [...LEAVES.filter((l) => l.length === 2), ['api'], ['serve'], ['local', 'init'], ['local', 'keys', 'create'], ['local', 'keys', 'list'], ['local', 'keys', 'revoke']];
  it('examples use whole ids (no "…"), and repeatable flags show no "(default: [])"', async () => {
    for (const verb of VERBS) {
      const r = await runCli([...verb, '--help']);
      expect(r.exitCode, verb.join(' ')).toBe(0);
      expect(r.stdout, verb.join(' ')).not.toContain('…');
      expect(r.stdout, verb.join(' ')).not.toContain('(default: [])');
    }
  });

  it('posts schedule says --at is required with an id', async () => {
    const r = await runCli(['posts', 'schedule', '--help']);
    expect(r.stdout).toMatch(/--at <when>\s+required with <id>/);
  });
});

describe('cr help <command> [<sub>]', () => {
  it('is the same page as `cr <command> [<sub>] --help`, exit 0', async () => {
    for (const words of [['serve'], ['posts', 'schedule'], ['finance'], []]) {
      const viaHelp = await runCli(['help', ...words]);
      const viaFlag = await runCli([...words, '--help']);
      expect(viaHelp.exitCode).toBe(0);
      expect(viaHelp.stderr).toBe('');
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
    const serve = await runCli(['help', 'serve']);
    expect(serve.stdout).toContain('--store');
    expect((await runCli(['help', 'posts', 'schedule'])).stdout).toMatch(/^Usage: cr posts schedule /);
  });

  it('an unknown name after help is an unknown command (exit 2), with the nearest name', async () => {
    const top = await runCli(['help', 'nope']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toBe("error: unknown command 'nope'; run `cr --help` to see the commands (USAGE)\n");
    const sub = await runCli(['help', 'finance', 'summry']);
    expect(sub.exitCode).toBe(2);
    expect(sub.stderr).toContain('did you mean summary?');
  });
});

describe('unknown commands and help hints', () => {
  it('suggest the nearest command at both levels, and the help of the level that failed', async () => {
    const sub = await runCli(['finance', 'summry']);
    expect(sub.exitCode).toBe(2);
    expect(sub.stderr).toBe("error: unknown command 'summry' (did you mean summary?); run `cr finance --help` to see the commands (USAGE)\n");
    const top = await runCli(['finanse', 'summary']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toBe("error: unknown command 'finanse' (did you mean finance?); run `cr --help` to see the commands (USAGE)\n");
  });

  it('a mistyped flag suggests the nearest one, global flags included', async () => {
    const own = await runCli(['nurture', 'list', '--limt', '5']);
    expect(own.exitCode).toBe(2);
    expect(own.stderr).toBe("error: unknown option '--limt' (did you mean --limit?); run `cr nurture list --help` (USAGE)\n");
    const global = await runCli(['finance', 'summary', '--jsno']);
    expect(global.exitCode).toBe(2);
    expect(global.stderr).toContain("unknown option '--jsno' (did you mean --json?)");
  });

  it('a bad argument points at the help of the command that has it, with no doubled stop', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bash, zsh, fish; run `cr completion --help`');
    expect(r.stderr).not.toContain('.;');
    expect(r.stderr).not.toContain('cr completion tcsh --help');
  });
});
