import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Where a run finds the V8 code cache of the CLI bundle, and whether it may make one
 * (src/startup/run-bundle.ts; CONTRIBUTING.md, "How cr starts").
 *
 * V8 takes a code cache only from the Node version, architecture and V8 flags that made it.
 * The build's caches (dist/bundle/cli.js[.local].cache) are made by the builder's Node, so
 * they are used on that Node only. On any other Node, the first run of each kind (remote or
 * local) makes a cache of its own in the per-user cache folder, named after everything V8
 * checks plus the bundle it belongs to; later runs on that Node start from it.
 *
 * A code cache is code: a folder another user can write is never read nor written. The folder
 * ($XDG_CACHE_HOME/cr/v8, else ~/.cache/cr/v8) must be a real directory owned by this user and
 * writable by no one else, inside folders in which no one else can rename it; each file must be a regular file owned by this user and writable by
 * no one else. Anything else means no cache: a run that only costs the compile it would have
 * saved. Nothing is ever written beside the package, which may be installed read-only.
 */

/** Written in by the build (scripts/bundle.mjs); absent when the sources run directly. */
declare const __CR_BUNDLE_ID__: string | undefined;
declare const __CR_BUILD_NODE__: string | undefined;

export interface CachePlan {
  /** The cache file to start from. */
  file: string | undefined;
  /** `file` is the build's cache, beside the bundle (else a per-user one, checked as it is read). */
  shipped: boolean;
  /** Whether this run writes its compiled code to `file` at exit (a per-user cache it lacked). */
  mayWrite: boolean;
  /** Why no per-user cache is used (CR_STARTUP_DEBUG). */
  note?: string;
}

/** FNV-1a over a string, as 8 hex digits: names V8's flags without loading node:crypto. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The Node options that can change V8's flags: a cache made under others is rejected. */
function nodeFlags(): string {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
}

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // The XDG base directory spec: a relative XDG_CACHE_HOME is ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'cr', 'v8');
  return env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache', 'cr', 'v8') : undefined;
}

const uid = (): number | undefined => process.getuid?.();

/**
 * Why `dir` is not a safe cache folder, or undefined when it is (made 0700 when absent).
 * `real` receives the folder's path with no symlinks, the one to read and write through.
 */
export function unsafeDir(dir: string, real: { path?: string } = {}): string | undefined {
  const me = uid();
  if (me === undefined) return 'no user id on this platform';
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return 'not a directory';
    if (st.uid !== me) return `owned by uid ${st.uid}`;
    if (st.mode & 0o022) return `writable by others (mode ${(st.mode & 0o777).toString(8)})`;
    // Whoever can rename an entry above the folder can swap the folder, between this check
    // and the read, or before the write at exit, for a symlink to a folder of their choosing.
    const path = realpathSync.native(dir);
    for (let p = dirname(path); ; p = dirname(p)) {
      const why = unsafeAncestor(p, me);
      if (why) return `${p} is ${why}`;
      if (p === dirname(p)) break;
    }
    real.path = path;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'unusable';
  }
  return undefined;
}

/**
 * Why others could rename entries in `p` (a path with no symlinks), or undefined. Owned by
 * this user or root; writable by group or others only with the sticky bit (as /tmp), which
 * keeps others from renaming what they do not own, or by a user private group (a group of
 * this user's alone, with its uid as gid: the case where umask 002 is the default).
 */
function unsafeAncestor(p: string, me: number): string | undefined {
  const st = lstatSync(p);
  if (st.uid !== me && st.uid !== 0) return `owned by uid ${st.uid}`;
  if (st.mode & 0o1000) return undefined;
  const privateGroup = st.gid === me && process.getgid?.() === me;
  if (st.mode & 0o002 || (st.mode & 0o020 && !privateGroup)) return `writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * The cache file's bytes when it is this user's own regular file that no one else can write;
 * else why it was refused (CR_STARTUP_DEBUG), or neither when there is no file.
 */
export function readOwnFile(file: string): { data?: Buffer; refused?: string } {
  let fd: number;
  try {
    // Not blocking: a FIFO under the name would hold open() until a writer came, a hang
    // where a cache problem may only cost speed. Not following a symlink: cr only ever
    // writes a regular file here, so a link is something else's doing.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? {} : { refused: code === 'ELOOP' ? 'a symbolic link' : (code ?? 'unreadable') };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: 'not a regular file' };
    if (st.uid !== uid()) return { refused: `owned by uid ${st.uid}` };
    if (st.mode & 0o022) return { refused: `writable by others (mode ${(st.mode & 0o777).toString(8)})` };
    return { data: readFileSync(fd) };
  } catch (err) {
    return { refused: (err as NodeJS.ErrnoException).code ?? 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs that say little about the commands a user runs make no cache (the next run does), nor
 * do `--jq` runs: jq sets `--liftoff-only` (src/render/jq.ts), and a cache made under that
 * flag is rejected by every run without it.
 */
function teachesNothing(argv: string[]): boolean {
  return (
    argv.length === 0 ||
    argv.some((a) => a === '--help' || a === '-h' || a === '--jq' || a.startsWith('--jq=')) ||
    argv[0] === 'help' ||
    argv[0] === 'completion'
  );
}

/**
 * @param shipped the build's cache for this kind of run (dist/bundle/cli.js[.local].cache)
 * @param kind '' for a remote run, '.local' for one that runs the server's code
 */
export function planCache(shipped: string, kind: string, argv: string[], env: NodeJS.ProcessEnv = process.env): CachePlan {
  const flags = nodeFlags();
  const node = `${process.version}-${process.arch}`;
  if (typeof __CR_BUILD_NODE__ !== 'string' || (__CR_BUILD_NODE__ === node && flags === '')) return { file: shipped, shipped: true, mayWrite: false };
  const dir = userCacheDir(env);
  if (!dir) return { file: undefined, shipped: false, mayWrite: false, note: 'no HOME or XDG_CACHE_HOME' };
  const real: { path?: string } = {};
  const why = unsafeDir(dir, real);
  if (why) return { file: undefined, shipped: false, mayWrite: false, note: `${dir} not used: ${why}` };
  const name = `cli-${__CR_BUNDLE_ID__}-${node}-${fnv(flags)}${kind}.cache`;
  return { file: join(real.path!, name), shipped: false, mayWrite: !teachesNothing(argv) };
}

/**
 * How old another build's cache must be to go. Two builds of cr in use side by side (a global
 * install and a project's own) each make a cache: removing the other's at once made each of
 * them compile on every run that followed a run of the other.
 */
const STALE_MS = 7 * 86_400_000;

/**
 * Writes a per-user cache: a file of this process's own (0600, created exclusively), then
 * renamed over the name, so a reader never sees half a cache. Caches of other builds of cr
 * made over a week ago go: most belong to a cr that is gone, and one still in use pays a
 * compile to make its cache again.
 */
export function writeUserCache(file: string, data: Buffer): void {
  const dir = join(file, '..');
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { flag: 'wx', mode: 0o600 });
    renameSync(tmp, file);
    const own = `cli-${__CR_BUNDLE_ID__}-`;
    const weekAgo = Date.now() - STALE_MS;
    for (const f of readdirSync(dir)) {
      if (!f.startsWith('cli-') || f.startsWith(own) || !f.endsWith('.cache')) continue;
      if (lstatSync(join(dir, f)).mtimeMs < weekAgo) unlinkSync(join(dir, f));
    }
  } catch {
    // A cache that cannot be written costs the next run a compile, nothing else.
    try {
      unlinkSync(tmp);
    } catch {
      /* never made */
    }
  }
}
