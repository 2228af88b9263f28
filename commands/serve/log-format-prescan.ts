import { readFileSync, statSync } from 'node:fs';

/** A serve config is a few lines (serve-config.ts CONFIG_MAX_BYTES): a bigger file is not read here. */
const MAX_BYTES = 1024 * 1024;

/** The value of `--NAME V` or `--NAME=V` among the words; the last one given wins, as commander takes it. */
function flagValue(words: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    if (w === name) value = words[++i];
    else if (w.startsWith(`${name}=`)) value = w.slice(name.length + 1);
  }
  return value;
}

/** "log-format" of a --config file, when it is a readable JSON object that has one; else undefined. */
function configLogFormat(file: string): unknown {
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['log-format'] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `cr serve` was asked for a JSON log (docs/local-server.md "Request log"), read from
 * the words before commander parses them: a usage error found while parsing (a bad
 * --rate-limit, an unknown key of the --config file) happens before the command's action,
 * and must be one JSON object on standard error too, as every other line then is. The
 * command line wins over the --config file, as it does for every option (serve-config.ts).
 * Nothing here refuses anything: commander and serve-config.ts say what is wrong.
 */
export function servesJsonLog(given: readonly string[]): boolean {
  const command = given.findIndex((w) => !w.startsWith('-'));
  if (command === -1 || given[command] !== 'serve') return false;
  const words = given.slice(command + 1);
  const flag = flagValue(words, '--log-format');
  if (flag !== undefined) return flag === 'json';
  const config = flagValue(words, '--config');
  return config !== undefined && configLogFormat(config) === 'json';
}
