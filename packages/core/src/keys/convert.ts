import { isSelf, isSiteAdmin } from '../access/actor.js';
import { AccessMode } from '../access/permissions.js';
import { apiUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { toApiUser } from '../users/convert.js';
import type { User } from '../users/tables.js';
import { KeyType, type PublicKey } from './tables.js';
import type { ApiPublicKey } from './schemas.js';

const KEY_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [KeyType.User, 'user'],
  [KeyType.Deploy, 'deploy'],
]);

/**
 * The API view of a user's key. Anyone may read a public key; its type, mode and owner are added for the owner
 * and site administrators, as Forgejo does. `url` is the key under `/user/keys`, whoever looks.
 */
export function toApiPublicKey(key: PublicKey, owner: User, view: ApiView): ApiPublicKey {
  const api: ApiPublicKey = {
    id: key.id,
    key: key.content,
    url: apiUrl(view.settings, `/user/keys/${key.id}`),
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.created_unix),
    verified: key.verified === 1,
  };
  if (isSiteAdmin(view.viewer) || isSelf(view.viewer, owner)) {
    api.key_type = KEY_TYPE_NAMES.get(key.type) ?? 'unknown';
    api.read_only = key.mode === AccessMode.Read;
    if (key.type === KeyType.User) api.user = toApiUser(owner, view);
  }
  return api;
}
