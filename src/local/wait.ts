import { setTimeout as sleep } from 'node:timers/promises';
import { LocalError, EXIT } from '../errors.js';
import { checkBaseUrl } from '../credentials.js';
import { escapeControls } from '../bulk/escape.js';
import { readTextFile } from './url-file.js';

const POLL_MS = 50;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL in the file when it is a whole http(s) URL; undefined while missing or being replaced. */
function urlIn(file: string): string | undefined {
  const line = readTextFile(file)?.split('\n')[0]?.trim();
  if (!line) return undefined;
  try {
    return checkBaseUrl(line, file);
  } catch {
    return undefined;
  }
}

/** Whether a cr server answers at the base URL (its OpenAPI document needs no key). */
async function answers(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Polls the file `cr serve --url-file` writes (whole, by rename) until the URL in it
 * answers. A URL left by an earlier run does not answer (that server removed or no longer
 * serves it), so polling goes on until the new server replaces it. Gives up when `pid` has
 * exited (exit 1) or the time is up (exit 8, as for any server that cannot be reached).
 */
export async function waitForServer(o: { urlFile: string; timeoutMs: number; pid?: number }): Promise<string> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const url = urlIn(o.urlFile);
    if (url && (await answers(url))) return url;
    if (o.pid !== undefined && !alive(o.pid)) {
      throw new LocalError(
        `cr local wait: the server process (pid ${o.pid}) exited before a URL in ${escapeControls(o.urlFile)} answered; see its log`,
        EXIT.failure,
        { code: 'SERVER_EXITED' },
      );
    }
    if (Date.now() >= deadline) {
      const what = url ? `the server at ${url} did not answer` : `no URL appeared in ${escapeControls(o.urlFile)}`;
      throw new LocalError(`cr local wait: ${what} within ${Math.round(o.timeoutMs / 1000)} s`, EXIT.network, { code: 'SERVER_NOT_READY' });
    }
    await sleep(POLL_MS);
  }
}
