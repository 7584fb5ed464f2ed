import { isoTime } from '../wire.js';
import type { GpgKey, GpgKeyWithSubkeys } from './tables.js';
import type { ApiGPGKey, ApiGPGKeyEmail, ApiGPGSubkey } from './schemas.js';

/** The addresses stored with a key (a JSON array of strings); anything else reads as none. */
export function storedEmails(row: Pick<GpgKey, 'emails'>): string[] {
  try {
    const value: unknown = JSON.parse(row.emails);
    return Array.isArray(value) ? value.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}

function toApiKeyFields(row: GpgKey, emails: ApiGPGKeyEmail[]): Omit<ApiGPGSubkey, 'subkeys'> {
  return {
    id: row.id,
    primary_key_id: row.primary_key_id,
    key_id: row.key_id,
    public_key: row.content,
    emails,
    can_sign: row.can_sign === 1,
    can_encrypt_comms: row.can_encrypt_comms === 1,
    can_encrypt_storage: row.can_encrypt_storage === 1,
    can_certify: row.can_certify === 1,
    verified: row.verified === 1,
    created_at: isoTime(row.created_unix),
    expires_at: isoTime(row.expired_unix),
  };
}

/**
 * The API view of a GPG key with its subkeys. `emails` lists the addresses of the key's user ids, each `verified`
 * when it is one of the owner's verified addresses (`verifiedEmails`, lower-cased) now.
 */
export function toApiGPGKey({ key, subkeys }: GpgKeyWithSubkeys, verifiedEmails: ReadonlySet<string>): ApiGPGKey {
  const emails = storedEmails(key).map((email) => ({ email, verified: verifiedEmails.has(email.toLowerCase()) }));
  return {
    ...toApiKeyFields(key, emails),
    subkeys: subkeys.map((subkey) => ({ ...toApiKeyFields(subkey, []), subkeys: [] })),
  };
}
