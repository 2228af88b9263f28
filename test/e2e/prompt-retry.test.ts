import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOnPty } from '../helpers/pty.js';
import { cleanupTempDirs, makeKey, readConfig, tempDir } from '../helpers/tmp.js';

/**
 * `cr auth login` at its prompts asks again after a wrong answer, three answers in all, and
 * takes a bare host (docs/commands.md "Keys and profiles"). On a real pseudo-terminal: the
 * prompts read the terminal itself, in raw mode.
 */
afterAll(() => cleanupTempDirs());

const count = (screen: string, text: string) => screen.split(text).length - 1;

function login() {
  const dir = tempDir('cr-prompt-');
  return { dir, run: runOnPty(['auth', 'login', '--no-verify'], { HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1' }) };
}

describe('cr auth login at a terminal', () => {
  it('a wrong base URL is asked again; a bare host becomes https://host/api/v1, shown before the key is asked', async () => {
    const { dir, run } = login();
    try {
      await run.waitFor('Base URL');
      run.type('ftp://nope.example\r');
      await run.waitFor('(2 tries left)');
      run.type('cms.example.com\r');
      await run.waitFor('Using https://cms.example.com/api/v1');
      await run.waitFor('API key');
      run.type(`${makeKey()}\r`);
      const { exitCode } = await run.done;
      expect(exitCode, run.screen()).toBe(0);
      expect(count(run.screen(), 'not an http(s) URL')).toBe(1);
      expect(readConfig(dir)?.profiles.default?.baseUrl).toBe('https://cms.example.com/api/v1');
    } finally {
      run.kill();
    }
  });

  it('three wrong keys: exit 2 after the third, nothing stored', async () => {
    const { dir, run } = login();
    try {
      await run.waitFor('Base URL');
      run.type('127.0.0.1:4010\r');
      await run.waitFor('Using http://127.0.0.1:4010/api/v1');
      for (const left of ['(2 tries left)', '(1 try left)']) {
        await run.waitFor('API key');
        run.type('not-a-key\r');
        await run.waitFor(left);
      }
      run.type('still-not-a-key\r');
      const { exitCode } = await run.done;
      expect(exitCode, run.screen()).toBe(2);
      expect(count(run.screen(), 'That is not an API key')).toBe(3);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      run.kill();
    }
  });

  it('Ctrl-D at a prompt is an interruption: exit 130, nothing stored (docs/exit-codes.md)', async () => {
    for (const typed of [[] as string[], ['127.0.0.1:4010\r']]) {
      const { dir, run } = login();
      try {
        await run.waitFor('Base URL');
        for (const keys of typed) run.type(keys);
        if (typed.length) await run.waitFor('API key');
        run.type('\x04');
        const { exitCode } = await run.done;
        expect(exitCode, run.screen()).toBe(130);
        expect(run.screen()).toContain('error: Interrupted (INTERRUPTED)');
        expect(existsSync(join(dir, 'config.json'))).toBe(false);
      } finally {
        run.kill();
      }
    }
  });
});
