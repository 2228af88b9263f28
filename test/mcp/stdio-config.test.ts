import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, tempDir, writeConfig } from '../helpers/tmp.js';
import { KEYS } from '../server/helpers.js';

/** `cr mcp config --client claude|cursor|vscode`: a stdio config that runs `cr mcp stdio`, never holding a key. */

afterAll(() => cleanupTempDirs());

const KEY = KEYS.editorW1;

function profiles(): string {
  const dir = tempDir('cr-stdio-config-');
  writeConfig(dir, { activeProfile: 'work', profiles: { work: { baseUrl: 'http://127.0.0.1:4010/api/v1', apiKey: KEY }, prod: { baseUrl: 'https://api.example.com/api/v1', apiKey: KEYS.viewerW1 } } });
  return dir;
}

const noKeyIn = (...texts: string[]) => {
  for (const t of texts) {
    expect(t).not.toContain(KEY);
    expect(t).not.toContain(KEYS.viewerW1);
    expect(t).not.toMatch(/cr_[0-9a-f]{4}/);
    expect(t).not.toMatch(/Authorization|Bearer/);
  }
};

describe('cr mcp config --client', () => {
  it.each(['claude', 'cursor'])('%s: mcpServers with the command `cr` and `mcp stdio --profile NAME`, no key', async (client) => {
    const r = await runCli(['mcp', 'config', '--client', client, '--profile', 'prod'], { configDir: profiles() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ mcpServers: { cr: { command: 'cr', args: ['mcp', 'stdio', '--profile', 'prod'] } } });
    expect(r.stderr).toBe('');
    noKeyIn(r.stdout, r.stderr);
  });

  it('vscode: `servers` with type stdio; the active profile is named explicitly; --name renames the entry', async () => {
    const r = await runCli(['mcp', 'config', '--client', 'vscode', '--name', 'content'], { configDir: profiles() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ servers: { content: { type: 'stdio', command: 'cr', args: ['mcp', 'stdio', '--profile', 'work'] } } });
    noKeyIn(r.stdout, r.stderr);
  });

  it('--local gives `mcp stdio --local`', async () => {
    const r = await runCli(['mcp', 'config', '--client', 'claude', '--local'], { configDir: profiles() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ mcpServers: { cr: { command: 'cr', args: ['mcp', 'stdio', '--local'] } } });
  });

  it('a profile that stores no key (the key only in CR_API_KEY): the config is printed, with a warning on stderr', async () => {
    const r = await runCli(['mcp', 'config', '--client', 'cursor', '--profile', 'ci'], { configDir: profiles(), env: { CR_API_KEY: KEY } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mcpServers.cr.args).toEqual(['mcp', 'stdio', '--profile', 'ci']);
    expect(r.stderr).toContain('warning: profile "ci" stores no key; run `cr auth login --profile ci`');
    noKeyIn(r.stdout, r.stderr);
  });

  it('--show-key with --client is a usage error (exit 2, nothing printed)', async () => {
    const r = await runCli(['mcp', 'config', '--client', 'claude', '--show-key'], { configDir: profiles() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--show-key is for the HTTP config only');
    noKeyIn(r.stderr);
  });

  it('an unknown client is a usage error naming the choices', async () => {
    const r = await runCli(['mcp', 'config', '--client', 'emacs'], { configDir: profiles() });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/claude, cursor, vscode/);
  });

  it('--show-key (HTTP config) prints the whole key and a warning on stderr', async () => {
    const r = await runCli(['mcp', 'config', '--show-key', '--profile', 'work'], { configDir: profiles() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mcpServers.cr.headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(r.stderr).toMatch(/^warning: this configuration holds the whole key in plain text/);
    expect(r.stderr).not.toContain(KEY);
  });
});
