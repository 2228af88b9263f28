import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { withFileLock } from './file-lock.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';

/** One stored set of credentials. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** The local store the key opens (`cr local init`): its absolute path, or its URL without the password. */
  store?: string;
  /** The CRM product's path segment in /integrations/<segment>/agents (default `crm`). */
  crmSegment?: string;
}

interface ConfigShape {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

/** The file as read: the known fields, and any others a newer cr or the user put there (kept on write). */
type ConfigFile = Partial<ConfigShape> & Record<string, unknown>;

export const DEFAULT_PROFILE = 'default';

/** The config folder: CR_CONFIG_DIR, else $XDG_CONFIG_HOME/cr, else ~/.config/cr. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CR_CONFIG_DIR) return env.CR_CONFIG_DIR;
  // HOME from the env given, not os.homedir() (process.env): a context's env is the whole truth.
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'cr');
}

/**
 * Profiles in one JSON file, `config.json` (docs/cli-contract.md). Reading never writes: without a config file, the store is empty
 * and nothing is created (read-only commands leave no trace). The first write creates the
 * folder 0700 and the file 0600; a folder cr did not create is never chmod-ed, and a key is
 * never stored in one that others can write (as ssh refuses such a folder). A broken file
 * is reported and never rewritten.
 */
export class ProfileStore {
  readonly path: string;
  private constructor(
    private file: ConfigFile,
    readonly dir: string,
    readonly warnings: string[],
  ) {
    this.path = join(dir, 'config.json');
  }

  static async open(env: NodeJS.ProcessEnv): Promise<ProfileStore> {
    const dir = configDir(env);
    const file = join(dir, 'config.json');
    const warnings: string[] = [];
    if (!existsSync(file)) return new ProfileStore({}, dir, warnings);
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) warnings.push(`warning: ${file} is readable by others (mode ${mode.toString(8)}); run chmod 600 ${file}`);
    return new ProfileStore(readConfigFile(file), dir, warnings);
  }

  activeName(): string | undefined {
    return typeof this.file.activeProfile === 'string' ? this.file.activeProfile : undefined;
  }

  get(name: string): Profile | undefined {
    return this.all()[name];
  }

  all(): Record<string, Profile> {
    return this.file.profiles ?? {};
  }

  save(name: string, profile: Profile, makeActive = true): void {
    this.write((now) => ({ profiles: { ...now.all(), [name]: profile }, activeProfile: makeActive ? name : now.activeName() }));
  }

  use(name: string): void {
    this.write((now) => ({ profiles: now.all(), activeProfile: name }));
  }

  remove(name: string): void {
    this.write((now) => {
      const profiles = { ...now.all() };
      delete profiles[name];
      const active = now.activeName();
      return { profiles, activeProfile: active === name ? undefined : active };
    });
  }

  /**
   * One change, applied to the file as it is on disk now: another cr (a parallel `cr auth
   * login --profile other`) may have written since this one read it, and a change made to the
   * copy read at start would drop that write. The lock (file-lock.ts) makes read, change and
   * write one step among cr processes.
   */
  private write(change: (now: ProfileStore) => ConfigShape): void {
    const created = prepareFolder(this.dir);
    withFileLock(`${this.path}.lock`, () => {
      if (existsSync(this.path)) this.file = readConfigFile(this.path);
      const next = change(this);
      const { activeProfile: _old, ...rest } = this.file;
      const file: ConfigFile = { ...rest, profiles: next.profiles, ...(next.activeProfile === undefined ? {} : { activeProfile: next.activeProfile }) };
      // Whole or not at all (temp file and rename), created 0600 and re-tightened (umask-proof).
      writeFileAtomic(this.path, `${JSON.stringify(file, undefined, '\t')}\n`, 0o600);
      this.file = file;
    });
    // Only a folder made here is ours to tighten.
    if (created) chmodSync(this.dir, 0o700);
  }
}

/**
 * Makes the config folder (0700) when it is missing and returns true; else checks that
 * it is the user's (or root's) and nobody else can write it: keys in a shared folder such as /tmp (mode 1777) could be
 * swapped or read by its other users. Exit 1 with the reason; nothing is changed.
 */
function prepareFolder(dir: string): boolean {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  }
  const st = statSync(dir);
  const mode = st.mode & 0o7777;
  // A folder of another user's is theirs to swap the file in (a base URL of theirs gets the key): refused as ssh does.
  const me = process.getuid?.();
  if (me !== undefined && st.uid !== me && st.uid !== 0) {
    throw new LocalError(`Refusing to store keys in ${dir}: it belongs to another user (uid ${st.uid}); use a folder of your own (CR_CONFIG_DIR)`, 1, {
      code: 'CONFIG_DIR_UNSAFE',
    });
  }
  if (st.mode & 0o022) {
    throw new LocalError(
      `Refusing to store keys in ${dir}: other users can write to it (mode ${mode.toString(8)}); use a folder only you can write (CR_CONFIG_DIR), or run chmod go-w ${dir}`,
      1,
      { code: 'CONFIG_DIR_UNSAFE' },
    );
  }
  return false;
}

/** Reads the config file, refusing one that is not a JSON object with a profiles map, naming the path. */
function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new LocalError(`Cannot read config file ${file}: ${(cause as Error).message}`, 1, { cause, code: 'BAD_CONFIG' });
  }
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
  return parsed as ConfigFile;
}
