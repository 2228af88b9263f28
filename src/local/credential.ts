import { sha256Hex } from '../server/domain/auth.js';
import { API_KEY_PATTERN } from '../api/vocabulary.js';
import type { ApiKeyRecord } from '../server/store/schema.js';
import { writeFileAtomic } from '../config/atomic-write.js';
import { readTextFile } from './url-file.js';

/**
 * `--local`'s own key for a store: `<store>.local-key` beside it, mode 0600, JSON
 * `{ keyId, key }`. Not a profile (docs/cli-contract.md "Local mode in CI": --local never changes a
 * profile the user made), so `cr auth`/profile commands never show or replace it, and
 * `cr local init --store X` saving the profile `local` no longer fights with it.
 */
export interface LocalCredential {
  keyId: string;
  key: string;
}

export const credentialPathOf = (storePath: string) => `${storePath}.local-key`;

export function readCredential(storePath: string): LocalCredential | undefined {
  const text = readTextFile(credentialPathOf(storePath));
  if (!text) return undefined;
  try {
    const c = JSON.parse(text) as Partial<LocalCredential>;
    if (typeof c.keyId !== 'string' || typeof c.key !== 'string' || !API_KEY_PATTERN.test(c.key)) return undefined;
    return { keyId: c.keyId, key: c.key };
  } catch {
    return undefined;
  }
}

export function saveCredential(storePath: string, c: LocalCredential): void {
  writeFileAtomic(credentialPathOf(storePath), JSON.stringify(c) + '\n', 0o600);
}

/**
 * Where the credential stands in the store: usable, revoked by the user (then --local does
 * not make another admin key on its own), or none (no file, or a store that was replaced).
 */
export type CredentialState = { state: 'ok'; key: string } | { state: 'revoked'; keyId: string; revokedAt: string } | { state: 'none' };

export async function credentialState(
  keyOf: (id: string) => ApiKeyRecord | undefined | Promise<ApiKeyRecord | undefined>,
  c: LocalCredential | undefined,
): Promise<CredentialState> {
  if (!c) return { state: 'none' };
  const record = await keyOf(c.keyId);
  if (!record || record.key_sha256 !== sha256Hex(c.key)) return { state: 'none' };
  if (record.revoked_at) return { state: 'revoked', keyId: record.id, revokedAt: record.revoked_at };
  return { state: 'ok', key: c.key };
}
