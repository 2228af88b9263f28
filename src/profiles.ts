import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import { LocalError } from './errors.js';

/** One stored set of credentials. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** The CRM product's path segment in /integrations/<segment>/agents (default `crm`). */
  crmSegment?: string;
}

interface ConfigShape {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

/** The config folder: CR_CONFIG_DIR, else $XDG_CONFIG_HOME/cr, else ~/.config/cr. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CR_CONFIG_DIR) return env.CR_CONFIG_DIR;
  // HOME from the env given, not os.homedir() (process.env): a context's env is the whole truth.
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'cr');
}

/**
 * conf-backed profiles. Reading never writes: without a config file, the store is empty
 * and nothing is created (read-only commands leave no trace). The first write creates the
 * folder 0700 and the file 0600; a folder cr did not create is never chmod-ed, and a key is
 * never stored in one that others can write (as ssh refuses such a folder). A broken file
 * is reported and never rewritten.
 */
export class ProfileStore {
  readonly path: string;
  private constructor(
    private conf: Conf<ConfigShape> | undefined,
    private readonly ConfClass: typeof Conf,
    readonly dir: string,
    readonly warnings: string[],
  ) {
    this.path = join(dir, 'config.json');
  }

  static async open(env: NodeJS.ProcessEnv): Promise<ProfileStore> {
    const dir = configDir(env);
    const file = join(dir, 'config.json');
    const warnings: string[] = [];
    const { default: ConfClass } = await import('conf');
    if (!existsSync(file)) return new ProfileStore(undefined, ConfClass, dir, warnings);
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) warnings.push(`warning: ${file} is readable by others (mode ${mode.toString(8)}); run chmod 600 ${file}`);
    checkConfigFile(file);
    return new ProfileStore(openConf(ConfClass, dir, file), ConfClass, dir, warnings);
  }

  activeName(): string | undefined {
    return this.conf?.get('activeProfile');
  }

  get(name: string): Profile | undefined {
    return this.all()[name];
  }

  all(): Record<string, Profile> {
    return this.conf?.get('profiles') ?? {};
  }

  save(name: string, profile: Profile, makeActive = true): void {
    const profiles = { ...this.all(), [name]: profile };
    this.write({ profiles, activeProfile: makeActive ? name : this.activeName() });
  }

  use(name: string): void {
    this.write({ profiles: this.all(), activeProfile: name });
  }

  remove(name: string): void {
    const profiles = { ...this.all() };
    delete profiles[name];
    const active = this.activeName();
    this.write({ profiles, activeProfile: active === name ? undefined : active });
  }

  private write(next: ConfigShape): void {
    const created = prepareFolder(this.dir);
    this.conf ??= openConf(this.ConfClass, this.dir, this.path);
    if (next.activeProfile === undefined) this.conf.delete('activeProfile');
    this.conf.set(next.activeProfile === undefined ? { profiles: next.profiles } : next);
    // Only a folder made here is ours to tighten; the file always is (umask-proof).
    if (created) chmodSync(this.dir, 0o700);
    if (existsSync(this.path)) chmodSync(this.path, 0o600);
  }
}

function openConf(ConfClass: typeof Conf, dir: string, file: string): Conf<ConfigShape> {
  try {
    return new ConfClass<ConfigShape>({
      cwd: dir,
      configName: 'config',
      projectName: 'cr',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      defaults: { profiles: {} },
    });
  } catch (cause) {
    throw new LocalError(`Cannot read config file ${file}: ${(cause as Error).message}`, 1, { cause, code: 'BAD_CONFIG' });
  }
}

/**
 * Makes the config folder (0700) when it is missing and returns true; else checks that
 * nobody else can write it: keys in a shared folder such as /tmp (mode 1777) could be
 * swapped or read by its other users. Exit 1 with the reason; nothing is changed.
 */
function prepareFolder(dir: string): boolean {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  }
  const st = statSync(dir);
  const mode = st.mode & 0o7777;
  if (st.mode & 0o022) {
    throw new LocalError(
      `Refusing to store keys in ${dir}: other users can write to it (mode ${mode.toString(8)}); use a folder only you can write (CR_CONFIG_DIR), or run chmod go-w ${dir}`,
      1,
      { code: 'CONFIG_DIR_UNSAFE' },
    );
  }
  return false;
}

/** Refuses a config file that is not a JSON object with a profiles map, naming the path. */
function checkConfigFile(file: string): void {
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new LocalError(`Config file ${file} is not valid JSON (${(cause as Error).message}); fix or remove it`, 1, { code: 'BAD_CONFIG' });
  }
  const ok =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    ((parsed as ConfigShape).profiles === undefined ||
      (typeof (parsed as ConfigShape).profiles === 'object' && !Array.isArray((parsed as ConfigShape).profiles)));
  if (!ok) throw new LocalError(`Config file ${file} is not a cr config (expected an object with "profiles"); fix or remove it`, 1, { code: 'BAD_CONFIG' });
}
