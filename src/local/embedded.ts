import { dirname } from 'node:path';
import { LocalError, UsageError, EXIT } from '../errors.js';
import { asCliError } from './errors.js';
import type { ApiStore } from '../server/store/api-store.js';
import type { StoreData } from '../server/store/schema.js';
import type { ServeAd } from './serve-ad.js';
import type { Dispatcher } from 'undici';

export const LOCAL_PROFILE = 'local';
export const DEFAULT_LOCAL_URL = 'http://127.0.0.1:4010/api/v1';

/** What --local needs from the run (the Context provides it; taken as a shape, not imported). */
export interface EmbeddedHost {
  env: NodeJS.ProcessEnv;
  /** The business clock, so CR_NOW is read once per process (by the context). */
  now(): Date;
  notice(line: string): void;
}

export interface LocalTarget {
  baseUrl: string;
  key: string;
  /** Carries the requests to the server in this process (absent when a `cr serve` or a listener answers). */
  dispatcher?: Dispatcher;
  close: () => Promise<void>;
}

/** How --local reaches its server: in this process (commands), or over a loopback listener (`cr mcp stdio`, whose client speaks HTTP). */
export interface EmbedOptions {
  listen?: boolean;
}

/** What --local says when the key it keeps was revoked: it makes no new admin key on its own. */
function revokedError(storePath: string, keyId: string, revokedAt: string): LocalError {
  return new LocalError(
    `the key --local uses for ${storePath} (id ${keyId}) was revoked at ${revokedAt}; --local does not make a new admin key on its own. ` +
      'Give it one: cr local keys create --role admin --website ID --for-local',
    EXIT.auth,
    { code: 'LOCAL_KEY_REVOKED' },
  );
}

/**
 * --local's key in an open store (held under its lock): the one it keeps beside the store
 * (src/local/credential.ts), else a new admin key, made only when it has none, with a notice.
 */
async function keyFor(store: ApiStore, storePath: string, host: EmbeddedHost): Promise<string> {
  const { credentialState, readCredential, saveCredential, credentialPathOf } = await import('./credential.js');
  const found = await credentialState((id) => store.apiKey(id), readCredential(storePath));
  if (found.state === 'ok') return found.key;
  if (found.state === 'revoked') throw revokedError(storePath, found.keyId, found.revokedAt);
  // Making a key is the first run's: what it needs loads only then.
  const [{ createApiKey }, { DEMO }] = await Promise.all([import('../server/domain/keys.js'), import('../server/ops/seed.js')]);
  const websiteId = (await store.firstWebsite())?.id;
  if (!websiteId) throw new LocalError(`The local store ${storePath} has no website to scope a key to`, EXIT.failure, { code: 'STORE_NO_WEBSITE' });
  const owner = (await store.user(DEMO.ownerUserId)) ? DEMO.ownerUserId : undefined;
  const made = await createApiKey(store, { role: 'admin', websiteId, userId: owner, name: 'cr --local', now: host.now() });
  saveCredential(storePath, { keyId: made.record.id, key: made.key });
  host.notice(`cr: --local: made an admin key (id ${made.record.id}) for ${storePath}; kept in ${credentialPathOf(storePath)} (mode 0600), not in a profile`);
  return made.key;
}

/** Opens the store under its lock (made with demo data when missing) and --local's key for it. */
async function openLocal<T extends { operations: { store: ApiStore }; close: () => Promise<void> }>(
  host: EmbeddedHost,
  storePath: string,
  open: (initial: () => Promise<StoreData>) => Promise<T>,
): Promise<{ opened: T; key: string }> {
  const clock = { now: () => host.now() };
  let created = false;
  // The demo data (and the seed code that makes it) loads only for a store that is not there yet.
  const opened = await open(async () => {
    created = true;
    const { demoStore } = await import('../server/ops/seed.js');
    return demoStore(clock);
  });
  try {
    if (created) host.notice(`cr: created the local store ${storePath} with demo data`);
    const key = await keyFor(opened.operations.store, storePath, host);
    host.notice(`cr: --local: embedded server over ${storePath}`);
    return { opened, key };
  } catch (err) {
    await opened.close();
    throw err;
  }
}

/**
 * Runs the server in this process over the store, under its lock. Requests reach it through
 * an in-process dispatcher (src/local/in-process-dispatcher.ts): the same pipeline as over
 * HTTP, without a listener or a loopback round trip. `listen` starts a loopback listener instead.
 */
async function embed(host: EmbeddedHost, storePath: string, opts: EmbedOptions): Promise<LocalTarget> {
  const clock = { now: () => host.now() };
  const common = { clock, lockLabel: 'cr --local' } as const;
  if (opts.listen) {
    const [{ startServer }, { announceServe }] = await Promise.all([import('../server/serve.js'), import('./serve-ad.js')]);
    const label = 'cr mcp stdio --local';
    const { opened, key } = await openLocal(host, storePath, (initial) =>
      startServer({ ...common, storePath, lockLabel: label, host: '127.0.0.1', port: 0, log: false, storeOptions: { initial } }),
    );
    // Held for the agent's whole session: other --local runs and `cr local` commands send to
    // this listener (or are refused at once, naming it) instead of waiting for the lock.
    const baseUrl = `${opened.url}/api/v1`;
    const unannounce = announceServe(opened.storePath, baseUrl, opened.port, undefined, label);
    return {
      baseUrl,
      key,
      close: async () => {
        unannounce();
        await opened.close();
      },
    };
  }
  const [{ openForServing }, { inProcessServer, IN_PROCESS_ORIGIN }, { InProcessDispatcher }, { errorSummary }, { StoreError }] = await Promise.all([
    import('../server/open-for-serving.js'),
    import('../server/transport/in-process.js'),
    import('./in-process-dispatcher.js'),
    import('../server/log-text.js'),
    import('../server/store/errors.js'),
  ]);
  const notice = (line: string) => host.notice(line);
  // The store's records are validated when a collection is first used, so a command loads only
  // the schemas it reads (docs/store-format.md "Rules"). A bad record found then, in the middle
  // of a request, is no internal error: the command ends as it would have ended at open.
  let invalid: unknown;
  const onInternalError = (err: unknown) => {
    if (err instanceof StoreError) invalid ??= err;
    else notice(`cr: --local: internal error: ${errorSummary(err)}`);
  };
  const { opened, key } = await openLocal(host, storePath, (initial) =>
    openForServing(storePath, { ...common, notice, onInternalError, storeOptions: { initial, validation: 'first-use' } }),
  );
  const answer = inProcessServer(opened.operations, onInternalError);
  const server: typeof answer = async (req) => {
    const answered = await answer(req);
    if (invalid !== undefined) throw await asCliError(invalid, storePath);
    return answered;
  };
  return { baseUrl: `${IN_PROCESS_ORIGIN}/api/v1`, key, dispatcher: new InProcessDispatcher(server), close: () => opened.close() };
}

/**
 * A `cr serve` holds the store: --local sends its requests there, with its own key (read
 * without the lock). It cannot make a key meanwhile (the server holds the store).
 */
async function viaServer(host: EmbeddedHost, storePath: string, ad: ServeAd): Promise<LocalTarget> {
  const [{ readStore }, { credentialState, readCredential }] = await Promise.all([import('./read-store.js'), import('./credential.js')]);
  const data = await readStore(storePath);
  const found = await credentialState((id) => data.api_keys.find((k) => k.id === id), readCredential(storePath));
  if (found.state === 'revoked') throw revokedError(storePath, found.keyId, found.revokedAt);
  if (found.state === 'none') {
    throw new LocalError(
      `${storePath} is served by ${ad.label ?? 'cr serve'} on port ${ad.port} (pid ${ad.pid}), and --local has no key for it yet; ` +
        'run one --local command while no server holds the store (it makes the key), or use the server with a profile: --base-url ' +
        ad.url,
      EXIT.auth,
      { code: 'LOCAL_NO_KEY' },
    );
  }
  host.notice(`cr: --local: sending to ${ad.label ?? 'cr serve'} on port ${ad.port} (pid ${ad.pid}) over ${storePath}`);
  return { baseUrl: ad.url, key: found.key, close: async () => {} };
}

/**
 * --local (docs/cli-contract.md "Local mode", "Local mode in CI"): the local server over the default store
 * (created with demo data on first use), in this process on 127.0.0.1 and a free port, or
 * the `cr serve` that already holds that store. Another short-lived holder (a parallel
 * --local run) is waited for. The key is --local's own (src/local/credential.ts); no profile
 * is read or written.
 */
export async function startEmbedded(host: EmbeddedHost, opts: EmbedOptions = {}): Promise<LocalTarget> {
  host.now(); // a bad CR_NOW is a usage error before anything starts, not a 500 later
  const [{ defaultStorePath }, { withStoreLock, adStorePath, lockWaitFromEnv }] = await Promise.all([
    import('../server/store/store-path.js'),
    import('./lock-wait.js'),
  ]);
  const storePath = defaultStorePath(host.env);
  const { isDatabaseUrl } = await import('../config/store-url.js');
  if (isDatabaseUrl(storePath)) {
    // --local keeps its own key beside a store file; a shared database is served, not embedded (docs/shared-sandbox.md).
    throw new UsageError(
      '--local runs over a store file, and CR_STORE names a postgres:// database',
      'serve it with `cr serve --store postgres://…` and point CR_BASE_URL at that server, or unset CR_STORE for --local',
    );
  }
  const { unsafeStoreFolder } = await import('./serve-ad.js');
  // Both folders: the key file sits beside the path given, the lock and advertisement beside
  // the store's target when the path is a symlink.
  const unsafe = unsafeStoreFolder(dirname(storePath)) ?? unsafeStoreFolder(dirname(adStorePath(storePath)));
  if (unsafe) throw new LocalError(unsafe, EXIT.failure, { code: 'STORE_DIR_UNSAFE' });
  try {
    return await withStoreLock(() => embed(host, storePath, opts), {
      storePath,
      waitMs: lockWaitFromEnv(host.env),
      onServe: (ad) => viaServer(host, storePath, ad),
    });
  } catch (err) {
    throw await asCliError(err, storePath);
  }
}
