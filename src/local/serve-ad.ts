import { readTextFile, removeIfStill, writeFileAtomic } from './url-file.js';

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
}

export const serveAdPathOf = (storePath: string) => `${storePath}.serve.json`;

/**
 * Tells others where a server listens: the advertisement beside the store and the
 * `--url-file`, each written whole once listening. Returns what removes both on the way out.
 */
export function announceServe(storePath: string, url: string, port: number, urlFile?: string): () => void {
  const unadvertise = advertiseServe(storePath, url, port);
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
function advertiseServe(storePath: string, url: string, port: number): () => void {
  const path = serveAdPathOf(storePath);
  const text = JSON.stringify({ pid: process.pid, url, port }) + '\n';
  try {
    writeFileAtomic(path, text);
  } catch {
    return () => {}; // only --local's shortcut is lost; the lock still names this server
  }
  return () => removeIfStill(path, text);
}

/** The advertisement of the server with this pid, if it left a well-formed one. */
export function readServeAd(storePath: string, pid: number): ServeAd | undefined {
  const text = readTextFile(serveAdPathOf(storePath));
  if (!text) return undefined;
  try {
    const ad = JSON.parse(text) as Partial<ServeAd>;
    if (ad.pid !== pid || typeof ad.url !== 'string' || !/^http:\/\/[^/\s]+\/api\/v1$/.test(ad.url) || !Number.isInteger(ad.port)) return undefined;
    return { pid, url: ad.url, port: ad.port! };
  } catch {
    return undefined;
  }
}
