import { randomBytes } from 'node:crypto';
import type { Role } from '../../api/schemas/common.js';
import { ROLES } from '../../api/schemas/common.js';
import { localCommandDatabase, openStore } from '../store/open-store.js';
import type { ApiStore } from '../store/api-store.js';
import type { ApiKeyRecord } from '../store/schema.js';
import { sha256Hex } from './auth.js';

/**
 * API keys of the local store (docs/api-decisions.md §7, api_keys): made, listed and revoked over
 * an open store or over a store file (`cr local keys …`, under the store's lock). Only the
 * sha256 of a key is stored; the plain key is returned once.
 */

/** What is wrong with a key request: the CLI picks its exit code from the kind, never from the words. */
export type KeyErrorKind = 'unknown-role' | 'scope' | 'unknown-website' | 'unknown-agency' | 'unknown-user' | 'no-user' | 'unknown-key';

export class KeyError extends Error {
  readonly code = 'KEY_REQUEST';
  constructor(
    readonly kind: KeyErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'KeyError';
  }
}

export interface CreateKeyOptions {
  role: Role;
  websiteId?: string;
  agencyId?: string;
  /** Default: the website's owner, else the first user of the store. */
  userId?: string;
  name?: string;
  now?: Date;
}

/** Generates a key: `cr_` + 40 hex characters from 20 random bytes. */
export const generateApiKey = () => `cr_${randomBytes(20).toString('hex')}`;

/** Builds the stored record of a new key (only the sha256 is kept) and the plain key. */
export async function buildApiKey(store: ApiStore, o: CreateKeyOptions): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!ROLES.includes(o.role)) throw new KeyError('unknown-role', `Unknown role "${o.role}" (expected ${ROLES.join(', ')})`);
  if (!o.websiteId === !o.agencyId) throw new KeyError('scope', 'A key is scoped to exactly one of a website or an agency');
  let ownerId: string | undefined;
  if (o.websiteId) {
    const w = await store.website(o.websiteId);
    if (!w) throw new KeyError('unknown-website', `Unknown website ${o.websiteId}`);
    ownerId = w.owner_id;
  } else if (!(await store.agency(o.agencyId!))) {
    throw new KeyError('unknown-agency', `Unknown agency ${o.agencyId}`);
  }
  const userId = o.userId ?? ownerId ?? (await store.firstUser())?.id;
  if (!userId) throw new KeyError('no-user', 'The store has no user to own the key');
  if (!(await store.user(userId))) throw new KeyError('unknown-user', `Unknown user ${userId}`);
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    id: globalThis.crypto.randomUUID(),
    name: o.name ?? `${o.role} key`,
    key_sha256: sha256Hex(key),
    user_id: userId,
    role: o.role,
    ...(o.websiteId ? { website_id: o.websiteId, agency_id: null } : { website_id: null, agency_id: o.agencyId! }),
    created_at: (o.now ?? new Date()).toISOString(),
    revoked_at: null,
  };
  return { key, record };
}

/** Creates a key in an open store (durably); the plain key is returned once and never stored. */
export async function createApiKey(store: ApiStore, o: CreateKeyOptions): Promise<{ key: string; record: ApiKeyRecord }> {
  const made = await buildApiKey(store, o);
  await store.commit([{ op: 'insert', collection: 'api_keys', record: made.record }]);
  return made;
}

/** Key metadata for listing: never the hash. */
export type KeyInfo = Omit<ApiKeyRecord, 'key_sha256'>;

const infoOf = ({ key_sha256: _hash, ...info }: ApiKeyRecord): KeyInfo => info;

/** Runs `fn` over the store file under its lock (refused while a server holds it). */
async function withStore<T>(path: string, fn: (store: ApiStore) => Promise<T>): Promise<T> {
  const store = await openStore(path, { database: localCommandDatabase() });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** `cr local keys create` over a store file. */
export const addApiKey = (path: string, o: CreateKeyOptions) => withStore(path, (s) => createApiKey(s, o));

/** `cr local keys list`: key metadata, never hashes. */
export const listKeys = (path: string): Promise<KeyInfo[]> => withStore(path, async (s) => (await s.apiKeys()).map(infoOf));

/** `cr local keys revoke ID`: sets revoked_at (idempotent). Unknown id → KeyError 'unknown-key'. */
export const revokeKey = (path: string, id: string, now: Date = new Date()): Promise<KeyInfo> =>
  withStore(path, async (s) => {
    const k = await s.apiKey(id);
    if (!k) throw new KeyError('unknown-key', `No API key with id ${id}`);
    if (!k.revoked_at) await s.commit([{ op: 'patch', collection: 'api_keys', id, patch: { revoked_at: now.toISOString() } }]);
    return infoOf((await s.apiKey(id))!);
  });
