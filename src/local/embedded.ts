import { existsSync } from 'node:fs';
import type { ProfileStore } from '../profiles.js';
import { asCliError } from './errors.js';

export const LOCAL_PROFILE = 'local';
export const DEFAULT_LOCAL_URL = 'http://127.0.0.1:4010/api/v1';

/** What --local needs from the run (the Context provides it; taken as a shape, not imported). */
export interface EmbeddedHost {
  env: NodeJS.ProcessEnv;
  /** The business clock, so CR_NOW is read once per process (by the context). */
  now(): Date;
  profiles(): Promise<ProfileStore>;
  notice(line: string): void;
}

/**
 * --local: starts the local server in this process on 127.0.0.1 and a free port, over the
 * default store (created with demo data on first use), and returns a key for it. The key
 * is the `local` profile's when the store knows it; otherwise a new admin key is made and
 * saved in that profile.
 */
export async function startEmbedded(host: EmbeddedHost): Promise<{ baseUrl: string; key: string; close: () => Promise<void> }> {
  host.now(); // a bad CR_NOW is a usage error before anything starts, not a 500 later
  const [{ startServer, defaultStorePath }, { initStore }, { createApiKey }, { sha256Hex }] = await Promise.all([
    import('../server/serve.js'),
    import('../server/init-store.js'),
    import('../server/keys.js'),
    import('../server/auth.js'),
  ]);
  const storePath = defaultStorePath(host.env);
  const profiles = await host.profiles();
  let key = profiles.get(LOCAL_PROFILE)?.apiKey;
  try {
    if (!existsSync(storePath)) {
      ({ key } = await initStore(storePath, { demo: true }));
      host.notice(`cr: created the local store ${storePath} with demo data`);
      profiles.save(LOCAL_PROFILE, { ...profiles.get(LOCAL_PROFILE), baseUrl: DEFAULT_LOCAL_URL, apiKey: key }, false);
    }
    const server = await startServer({ storePath, host: '127.0.0.1', port: 0, log: false, clock: { now: () => host.now() } });
    const known = key && server.store.list('api_keys').some((k) => k.key_sha256 === sha256Hex(key!) && !k.revoked_at);
    if (!known) {
      const websiteId = server.store.list('websites')[0]?.id;
      if (!websiteId) throw new Error(`The local store ${storePath} has no website to scope a key to`);
      ({ key } = await createApiKey(server.store, { role: 'admin', websiteId, name: 'local admin (--local)' }));
      profiles.save(LOCAL_PROFILE, { ...profiles.get(LOCAL_PROFILE), baseUrl: DEFAULT_LOCAL_URL, apiKey: key }, false);
    }
    host.notice(`cr: --local: embedded server over ${storePath}`);
    return { baseUrl: `${server.url}/api/v1`, key: key!, close: () => server.close() };
  } catch (err) {
    throw await asCliError(err);
  }
}
