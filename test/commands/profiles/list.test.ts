import { chmodSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir, writeConfig } from '../../helpers/tmp.js';
import { KEY, MASK, profilesConfig } from '../../helpers/profiles-config.js';

afterAll(() => cleanupTempDirs());

describe('cr profiles list', () => {
  it('list --json: sorted, active marked, keys masked', async () => {
    const configDir = profilesConfig();
    const r = await runCli(['profiles', 'list', '--json'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'empty', active: false, baseUrl: 'http://empty.example/api/v1', key: null, crmSegment: 'crm' },
      { name: 'prod', active: true, baseUrl: 'http://prod.example/api/v1', key: MASK, crmSegment: 'crm' },
      { name: 'staging', active: false, baseUrl: 'http://staging.example/api/v1', key: 'cr_5555…6666', crmSegment: 'crm' },
    ]);
    expect(r.stdout).not.toContain(KEY);
  });

  it('list piped: plain TSV rows, no colour', async () => {
    const configDir = profilesConfig();
    const r = await runCli(['profiles', 'list'], { configDir, env: { NO_COLOR: undefined } });
    expect(r.exitCode).toBe(0);
    // The name (the id) first; plain values: true/false, an empty cell for no key.
    expect(r.stdout).toBe(
      ['empty\tfalse\thttp://empty.example/api/v1\t', `prod\ttrue\thttp://prod.example/api/v1\t${MASK}`, 'staging\tfalse\thttp://staging.example/api/v1\tcr_5555…6666'].join('\n') + '\n',
    );
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('a profile whose base URL holds a password (written by hand): shown as ***, never in clear', async () => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'p', profiles: { p: { baseUrl: 'http://ops:s3cret-pw@127.0.0.1:4010/api/v1', apiKey: KEY } } });
    for (const argv of [
      ['profiles', 'list'],
      ['profiles', 'list', '--json'],
      ['auth', 'status', '--json'],
      ['auth', 'status'],
    ]) {
      const r = await runCli(argv, { configDir });
      expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
      expect(r.stdout, argv.join(' ')).toContain('http://ops:***@127.0.0.1:4010/api/v1');
    }
  });

  it('list with no profiles: [] in JSON, exit 0', async () => {
    const r = await runCli(['profiles', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('list with no profiles, piped or at a terminal: says so on stderr, nothing on stdout, exit 0', async () => {
    for (const tty of [false, true]) {
      const r = await runCli(['profiles', 'list'], { tty });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('No profiles yet: `cr auth login` or `cr local init` makes one.\n');
    }
    const quiet = await runCli(['profiles', 'list', '-q']);
    expect([quiet.exitCode, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
  });

  it("shows a base URL's password as ***, in every output mode", async () => {
    const configDir = tempDir();
    writeConfig(configDir, {
      activeProfile: 'a',
      profiles: {
        a: { baseUrl: 'http://bob:Sup3rSecret@127.0.0.1:9/api/v1', apiKey: KEY },
        b: { baseUrl: 'http://bob:Sup3r%40Secret@127.0.0.1:9/api/v1' },
        c: { baseUrl: 'http://bob:Sup3r#Secret@127.0.0.1:9/api/v1' },
        d: { baseUrl: 'bob:Sup3rSecret@127.0.0.1:9/api/v1' },
      },
    });
    const j = await runCli(['profiles', 'list', '--json'], { configDir });
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout).map((r: { baseUrl: string }) => r.baseUrl)).toEqual([
      'http://bob:***@127.0.0.1:9/api/v1',
      'http://bob:***@127.0.0.1:9/api/v1',
      'http://bob:***@127.0.0.1:9/api/v1',
      'bob:***@127.0.0.1:9/api/v1',
    ]);
    for (const args of [
      ['profiles', 'list'],
      ['profiles', 'list', '--csv'],
      ['profiles', 'list', '--jsonl'],
    ]) {
      const r = await runCli(args, { configDir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('bob:***@');
      expect(r.stdout + r.stderr).not.toMatch(/Sup3r/);
    }
  });

  it('warns on stderr when the config file is readable by others', async () => {
    const configDir = tempDir();
    const file = writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: KEY } } });
    chmodSync(file, 0o644);
    const r = await runCli(['profiles', 'list'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning: .*config\.json is readable by others/);
  });
});
