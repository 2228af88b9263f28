import { statSync } from 'node:fs';
import { writeFileAtomic } from '../config/atomic-write.js';
import { ownFile, readTextFile, removeIfStill } from './url-file.js';
import { isDatabaseUrl } from '../config/store-url.js';

/**
 * A running `cr serve` advertises its URL beside its store (`<store>.serve.json`: pid, url,
 * port), so `--local` over that store sends its requests to it instead of failing on the
 * store's lock (docs/cli-contract.md "Local mode in CI"). The lock says who holds the store; this file is
 * trusted only when its pid is the lock holder's, so one left by a killed server is ignored.
 */
export interface ServeAd {
  pid: number;
  url: string;
  port: number;
  /** What listens, in words, when not `cr serve` (`cr mcp stdio --local`). */
  label?: string;
}

export const serveAdPathOf = (storePath: string) => `${storePath}.serve.json`;

/**
 * Tells others where a server listens: the advertisement beside the store and the
 * `--url-file`, each written whole once listening. Returns what removes both on the way out.
 */
export function announceServe(storePath: string, url: string, port: number, urlFile?: string, label?: string): () => void {
  // A database has no folder to advertise in; its servers share it without a lock (docs/shared-sandbox.md).
  const unadvertise = isDatabaseUrl(storePath) ? () => {} : advertiseServe(storePath, url, port, label);
  const text = urlFileText(url);
  if (urlFile) writeFileAtomic(urlFile, text);
  return () => {
    unadvertise();
    if (urlFile) removeIfStill(urlFile, text);
  };
}

/**
 * The `--url-file` text: the base URL on the first line, then `pid N`, the process that wrote
 * it, so that `cr local wait --pid N` trusts only its own server's URL, never one an earlier
 * server left (src/local/wait.ts).
 */
export const urlFileText = (url: string, pid = process.pid) => `${url}\npid ${pid}\n`;

/** Writes the advertisement; returns its remover (a no-op when it could not be written). */
function advertiseServe(storePath: string, url: string, port: number, label?: string): () => void {
  const path = serveAdPathOf(storePath);
  const text = JSON.stringify({ pid: process.pid, url, port, label }) + '\n';
  try {
    writeFileAtomic(path, text, 0o600);
  } catch {
    return () => {}; // only --local's shortcut is lost; the lock still names this server
  }
  return () => removeIfStill(path, text);
}

/** Loopback hosts an advertisement may point at: --local sends its admin key there. */
const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d{1,5}\/api\/v1$/;

/**
 * The advertisement of the server with this pid, if it left a well-formed one that can be
 * trusted: this user's own file, not writable by others, pointing at a loopback address.
 */
export function readServeAd(storePath: string, pid: number): ServeAd | undefined {
  const path = serveAdPathOf(storePath);
  if (!ownFile(path)) return undefined;
  const text = readTextFile(path);
  if (!text) return undefined;
  try {
    const ad = JSON.parse(text) as Partial<ServeAd>;
    if (ad.pid !== pid || typeof ad.url !== 'string' || !LOOPBACK_URL.test(ad.url) || !Number.isInteger(ad.port)) return undefined;
    const label = typeof ad.label === 'string' && /^cr[ a-z-]{0,40}$/.test(ad.label) ? ad.label : undefined;
    return { pid, url: ad.url, port: ad.port!, ...(label ? { label } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Refuses a store folder that other users can write (as profiles refuse such a config
 * folder, CONFIG_DIR_UNSAFE): anyone could put an advertisement, a lock or a key file beside
 * the store there. A folder that does not exist yet is made by this user later.
 */
export function unsafeStoreFolder(dir: string): string | undefined {
  try {
    const st = statSync(dir);
    const uid = process.getuid?.();
    if ((st.mode & 0o022) === 0 && (uid === undefined || st.uid === uid || st.uid === 0)) return undefined;
    const mode = (st.mode & 0o7777).toString(8);
    return (st.mode & 0o022) !== 0
      ? `Refusing the store folder ${dir}: other users can write to it (mode ${mode}); use a folder only you can write (--store, CR_STORE or XDG_DATA_HOME), or run chmod go-w ${dir}`
      : `Refusing the store folder ${dir}: it belongs to another user (uid ${st.uid}); use a folder of your own (--store, CR_STORE or XDG_DATA_HOME)`;
  } catch {
    return undefined;
  }
}
