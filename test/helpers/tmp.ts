import { mkdtempSync, rmSync, writeFileSync, mkdirSync, chmodSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

// Safety net for files that forget cleanupTempDirs(): remove what is left when the worker exits.
process.once('exit', () => {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort on exit
    }
  }
});

/** A fresh temporary folder; removed by cleanupTempDirs() (call it in afterAll/afterEach). */
export function tempDir(prefix = 'cr-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes every folder tempDir() made. A process a test stopped may still be closing its log
 * as the folder goes (ENOTEMPTY): rmSync retries those, as `rm -rf` run twice would.
 */
export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

export interface ConfigProfile {
  baseUrl?: string;
  apiKey?: string;
  crmSegment?: string;
}

/** Writes a cr config file directly (faster than `cr auth login` per profile). */
export function writeConfig(dir: string, config: { activeProfile?: string; profiles: Record<string, ConfigProfile> }): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config, null, '\t'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** The config file a run wrote, parsed (undefined when absent). */
export function readConfig(configDir: string): { activeProfile?: string; profiles: Record<string, ConfigProfile> } | undefined {
  const file = join(configDir, 'config.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** A syntactically valid API key built from a 4-char head and tail: cr_<head>…<tail>. */
export function makeKey(head = '1a2b', tail = '9f0e', fill = '0'): string {
  return `cr_${head}${fill.repeat(32)}${tail}`;
}
