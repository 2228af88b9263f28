import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../src/cli/context.js';
import { configDir } from '../../src/config/profiles.js';

/** Profile names in the config file, read as it is: nothing is created, a missing or broken file is no names. */
function profileNames(env: NodeJS.ProcessEnv): string[] {
  try {
    const config = JSON.parse(readFileSync(join(configDir(env), 'config.json'), 'utf8')) as { profiles?: Record<string, unknown> };
    return Object.keys(config.profiles ?? {}).sort();
  } catch {
    return [];
  }
}

/**
 * `cr __complete profiles` (hidden): what the completion scripts ask for after `--profile`,
 * one a line. Never fails a completion: an unknown kind prints nothing, exit 0. Names with
 * a control character or whitespace would break the shell's word list and are left out.
 */
export function complete(args: string[], ctx: Context): number {
  const values = args[0] === 'profiles' ? profileNames(ctx.env) : [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const safe = values.filter((v) => !/[\s\u0000-\u001f\u007f-\u009f]/.test(v));
  if (safe.length) ctx.io.out.write(safe.join('\n') + '\n');
  return 0;
}
