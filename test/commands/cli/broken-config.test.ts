import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey, tempDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

describe('a broken config file', () => {
  for (const [name, text, pattern] of [
    ['not JSON', '{not json', /is not valid JSON/],
    ['not an object', '[1, 2]', /is not a cr config/],
    ['profiles not a map', '{"profiles": [1]}', /is not a cr config/],
  ] as const) {
    it(`${name}: exit 1 naming the file, file left untouched`, async () => {
      const configDir = tempDir();
      mkdirSync(configDir, { recursive: true });
      const file = join(configDir, 'config.json');
      writeFileSync(file, text, { mode: 0o600 });
      const r = await runCli(['auth', 'status'], { configDir });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).toMatch(/\(BAD_CONFIG\)$/m);
      // login must not overwrite it either
      const l = await runCli(['auth', 'login', '--base-url', 'http://127.0.0.1:9/api/v1', '--with-key', '--no-verify'], { configDir, input: makeKey() });
      expect(l.exitCode).toBe(1);
      expect(readFileSync(file, 'utf8')).toBe(text);
    });
  }
});
