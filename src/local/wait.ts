import { setTimeout as sleep } from 'node:timers/promises';
import { LocalError, EXIT } from '../errors.js';
import { checkBaseUrl } from '../config/credentials.js';
import { escapeControls } from '../render/escape.js';
import { loopbackRequest } from './loopback-request.js';
import { ownFile, readTextFile } from './url-file.js';

const POLL_MS = 50;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The URL in the file when it is a whole http(s) URL (undefined while missing or being
 * replaced), and the pid on its `pid N` line, when there is one (src/local/serve-ad.ts).
 */
function urlIn(file: string): { url?: string; pid?: number; foreignOwner?: boolean } {
  // Another user's file (or one anyone can write) says nothing about this user's server. A
  // group-writable one is let through: a hand-written file under umask 002 (a group of one).
  if (readTextFile(file) !== undefined && !ownFile(file, 0o002)) return { foreignOwner: true };
  const [first, second] = (readTextFile(file) ?? '').split('\n');
  const pid = /^pid (\d{1,10})$/.exec(second?.trim() ?? '')?.[1];
  try {
    return { url: first?.trim() ? checkBaseUrl(first.trim(), file) : undefined, pid: pid === undefined ? undefined : Number(pid) };
  } catch {
    return {};
  }
}

/** The parent pid of `pid` (Linux /proc; undefined elsewhere or when gone). */
function parentOf(pid: number): number | undefined {
  const stat = readTextFile(`/proc/${pid}/stat`);
  const ppid = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  return ppid && /^\d+$/.test(ppid) ? Number(ppid) : undefined;
}

/** `writer` is `pid` or runs under it (`--pid $!` of a wrapper such as npx that starts cr). */
function writtenBy(writer: number | undefined, pid: number): boolean {
  for (let p = writer, hops = 0; p !== undefined && p > 1 && hops < 8; p = parentOf(p), hops++) if (p === pid) return true;
  return false;
}

/** Whether a cr server answers at the base URL (its OpenAPI document needs no key). */
async function answers(baseUrl: string): Promise<boolean> {
  try {
    // Never through a proxy, whatever the Node line reads (src/local/loopback-request.ts).
    const res = await loopbackRequest(`${baseUrl}/openapi.json`, { timeoutMs: 2000 });
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Polls the file `cr serve --url-file` writes (whole, by rename) until the URL in it
 * answers. With `pid`, that process must be alive (checked first, exit 1 when it has exited)
 * and the file must be its own (its `pid N` line): another server may still answer at a URL
 * an earlier run left. Without it, a URL that does not answer is waited past. Gives up when
 * the time is up (exit 8, as for any server that cannot be reached).
 */
export async function waitForServer(o: { urlFile: string; timeoutMs: number; pid?: number }): Promise<string> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    // The pid first: a server that died before writing its URL leaves an earlier run's file.
    if (o.pid !== undefined && !alive(o.pid)) {
      throw new LocalError(
        `cr local wait: the server process (pid ${o.pid}) exited before a URL in ${escapeControls(o.urlFile)} answered; see its log`,
        EXIT.failure,
        { code: 'SERVER_EXITED' },
      );
    }
    const { url, pid, foreignOwner } = urlIn(o.urlFile);
    // With --pid, only a URL that process wrote is its server's (src/local/serve-ad.ts, urlFileText).
    const foreign = url !== undefined && o.pid !== undefined && !writtenBy(pid, o.pid);
    if (url && !foreign && (await answers(url))) return url;
    if (Date.now() >= deadline) {
      const what = foreignOwner
        ? `${escapeControls(o.urlFile)} belongs to another user or others can write to it, so its URL is not trusted (write it in a folder only you can write)`
        : foreign
          ? `the URL in ${escapeControls(o.urlFile)} was written by ${pid === undefined ? 'another process' : `pid ${pid}`}, not by pid ${o.pid} (a file an earlier server left), and pid ${o.pid} wrote none`
          : url
            ? `the server at ${url} did not answer`
            : `no URL appeared in ${escapeControls(o.urlFile)}`;
      throw new LocalError(`cr local wait: ${what} within ${Math.round(o.timeoutMs / 1000)} s`, EXIT.network, { code: 'SERVER_NOT_READY' });
    }
    await sleep(POLL_MS);
  }
}
