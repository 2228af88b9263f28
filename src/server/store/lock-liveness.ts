import { isCode } from './fs-layer.js';
import type { SyncFs } from './fs-layer.js';

/**
 * Is the holder of a lock alive? (docs/api-decisions.md §9: the lock survives what containers do.)
 *
 * A pid means something only inside its pid namespace: a server restarted as pid 1 in a new
 * container finds "pid 1" alive (itself), and a server in another namespace finds the
 * holder's pid dead (or someone else's). So the pid is used only when the lock was written in
 * this very pid namespace of this boot (namespace inode and boot id recorded in the lock);
 * otherwise liveness is the heartbeat: the holder sets the lock file's mtime every
 * HEARTBEAT_MS, and a lock not refreshed for STALE_MS is stale.
 */
export const HEARTBEAT_MS = 1_000;
/**
 * Ten refreshes missed. Long enough for a holder whose event loop is busy for seconds (the
 * first parse or a fold of a store near its 256 MB cap), short enough for a restarted
 * container to start on its own within seconds.
 */
export const STALE_MS = 10_000;
/**
 * Same namespace, pid alive, no start time in the lock (a cr before start times were
 * recorded, or a system without /proc), and no heartbeat for this long: the pid was reused
 * by another process after the holder died. With a start time this guess is not needed.
 */
export const REUSED_PID_MS = 60_000;

/**
 * `CR_LOCK_STALE_MS`: a shorter staleness, for tests that freeze a server and take its
 * store over without waiting out STALE_MS (docs/reliability.md "The store's lock"). The
 * heartbeat beats ten times within it. Out-of-range or malformed values are ignored.
 */
export function lockTimingFromEnv(env: NodeJS.ProcessEnv = process.env): { heartbeatMs: number; staleMs: number } {
  const raw = env.CR_LOCK_STALE_MS?.trim() ?? '';
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  const staleMs = n >= 200 && n <= 600_000 ? n : STALE_MS;
  return { heartbeatMs: Math.min(HEARTBEAT_MS, Math.max(20, Math.floor(staleMs / 10))), staleMs };
}

/** Where this process runs: its pid namespace and the boot. Undefined off Linux. */
export interface Identity {
  pidNs: string;
  bootId: string;
  /** This process's start time, in clock ticks after boot (/proc/self/stat field 22). */
  pidStart?: string;
}

let cached: Identity | null | undefined;

export function processIdentity(fs: SyncFs): Identity | undefined {
  if (cached === undefined) {
    try {
      cached = { pidNs: fs.readlink('/proc/self/ns/pid'), bootId: fs.readFile('/proc/sys/kernel/random/boot_id').toString('utf8').trim() };
      // Only when /proc is this pid namespace's (its pid for us is ours): a container may
      // show the host's /proc, where our pid names another process.
      const self = fs.readFile('/proc/self/stat').toString('latin1');
      const start = startTimeOf(fs, 'self');
      if (start !== undefined && Number.parseInt(self, 10) === process.pid) cached.pidStart = start;
    } catch {
      cached = null;
    }
  }
  return cached ?? undefined;
}

export interface Holder {
  pid: number;
  startedAt?: string;
  pidNs?: string;
  bootId?: string;
  /** The holder's start time as the kernel reports it (Identity.pidStart), when recorded. */
  pidStart?: string;
  /** What holds the lock, in words (`cr serve`, `cr --local`…), when it said. */
  label?: string;
}

/** The lock (or guard) was written in this pid namespace, this boot: its pid can be checked. */
export function sameNamespace(fs: SyncFs, holder: Holder): boolean {
  const here = processIdentity(fs);
  return here !== undefined && holder.pidNs === here.pidNs && holder.bootId === here.bootId;
}

export function pidAlive(fs: SyncFs, pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return isCode(err, 'EPERM');
  }
  // A killed process whose parent has not reaped it yet (a slow or absent init, a container's
  // pid 1 that never waits) still answers signal 0, but holds nothing: state Z or X.
  try {
    const stat = fs.readFile(`/proc/${pid}/stat`).toString('latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

/**
 * When process `pid` started, in clock ticks after boot: field 22 of /proc/PID/stat (proc(5)),
 * counted after the command name, which ends at the last ')' and may hold spaces. Undefined
 * when there is no such process or no /proc. A pid reused by another process has another
 * start time; a stopped or busy one keeps its own.
 */
export function startTimeOf(fs: SyncFs, pid: number | 'self'): string | undefined {
  try {
    const stat = fs.readFile(`/proc/${pid}/stat`).toString('latin1');
    const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return field && /^\d+$/.test(field) ? field : undefined;
  } catch {
    return undefined;
  }
}

/** mtime of the lock (its last heartbeat); undefined when it is gone. */
export function heartbeatOf(fs: SyncFs, path: string): number | undefined {
  try {
    return fs.stat(path).mtimeMs;
  } catch {
    return undefined;
  }
}

export type Verdict = 'live' | 'stale' | 'unknown';

/**
 * First judgement of a lock from what it says and its heartbeat. `ownLock`: the text is a
 * lock this process holds. 'unknown' means: written elsewhere and refreshed recently, so
 * watch whether the heartbeat moves (lock.ts).
 */
export function judge(fs: SyncFs, holder: Holder, ownLock: boolean, beat: number, staleMs: number): Verdict {
  if (Number.isNaN(holder.pid)) return 'stale'; // unreadable, empty or garbled
  const age = Date.now() - beat;
  if (sameNamespace(fs, holder)) {
    // Our own pid in a lock we do not hold: an earlier run of this pid (a container's pid 1).
    if (holder.pid === process.pid) return ownLock ? 'live' : 'stale';
    if (!pidAlive(fs, holder.pid)) return 'stale';
    // The start time tells the holder (stopped with SIGSTOP, busy, or under a clock step: the
    // heartbeat says nothing then) from another process that got its pid after it died.
    const start = holder.pidStart === undefined || processIdentity(fs)?.pidStart === undefined ? undefined : startTimeOf(fs, holder.pid);
    if (start !== undefined) return start === holder.pidStart ? 'live' : 'stale';
    return age < Math.max(REUSED_PID_MS, staleMs) ? 'live' : 'stale';
  }
  return age > staleMs ? 'stale' : 'unknown';
}
