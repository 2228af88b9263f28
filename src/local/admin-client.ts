import { EXIT, LocalError, NetworkError } from '../errors.js';
import { escapeControls } from '../render/escape.js';
import { type LoopbackResponse, loopbackRequest } from './loopback-request.js';
import type { ServeAd } from './serve-ad.js';

/**
 * The CLI's side of the local administration extension (src/server/app/admin-routes.ts): when a
 * server holds the store, `cr local keys`, `seed` and `export` send their work to it over
 * loopback with the store's admin key kept beside it (`<store>.local-key`,
 * src/local/credential.ts). Whoever can read that file could edit the store itself, which is
 * the permission this asks for (docs/commands.md "Local store administration").
 */
export interface AdminClient {
  /** The JSON `data` of a success, or the thrown error of a failure. */
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** A text answer as it came (export). */
  text(path: string): Promise<string>;
  readonly where: string;
}

/** A refusal of the extension, with its body (FixtureError problems, KeyError kind). */
export class AdminRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

/** The client for the server advertised by `ad` over the store at `storePath`. */
export async function adminClientFor(storePath: string, ad: ServeAd): Promise<AdminClient> {
  const [{ readCredential, credentialPathOf }] = await Promise.all([import('./credential.js')]);
  const where = `cr serve on port ${ad.port} (pid ${ad.pid})`;
  const credential = readCredential(storePath);
  if (!credential) {
    throw new LocalError(
      `${escapeControls(storePath)} is held by ${where}, and there is no admin key of the store in ${escapeControls(credentialPathOf(storePath))} ` +
        'to administer it through the server; stop the server, or make one while no server runs: cr local keys create --role admin --website ID --for-local',
      EXIT.auth,
      { code: 'LOCAL_NO_ADMIN_KEY' },
    );
  }
  const origin = new URL(ad.url).origin;
  const request = async (method: string, path: string, body?: unknown): Promise<LoopbackResponse> => {
    const url = `${origin}/_local${path}`;
    let res: LoopbackResponse;
    try {
      // Loopback, never through a proxy (src/local/loopback-request.ts).
      res = await loopbackRequest(url, {
        method,
        headers: { authorization: `Bearer ${credential.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    } catch (err) {
      throw new NetworkError(method, url, `${where} did not answer (${(err as Error).message})`, { cause: err });
    }
    if (res.ok) return res;
    const parsed = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 401) {
      throw new LocalError(`${where} refused the admin key in ${escapeControls(credentialPathOf(storePath))} (revoked or replaced)`, EXIT.auth, {
        code: 'LOCAL_ADMIN_REFUSED',
      });
    }
    if (res.status === 403) throw new LocalError(`${where}: ${escapeControls(String(parsed.error ?? 'forbidden'))}`, EXIT.permission, { code: 'FORBIDDEN' });
    throw new AdminRefusal(res.status, parsed);
  };
  return {
    where,
    async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
      const res = await request(method, path, body);
      return ((await res.json()) as { data: T }).data;
    },
    async text(path: string) {
      return (await request('GET', path)).text();
    },
  };
}
