import { isSelf, isSiteAdmin } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { apiUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import { toApiRepository, repoWebPath } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { AccessModeValue } from '../access/index.js';
import { KeyType, type PublicKey } from './tables.js';
import type { DeployKeyWithContent } from './store.js';
import type { ApiDeployKey, ApiPublicKey } from './schemas.js';

const KEY_TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [KeyType.User, 'user'],
  [KeyType.Deploy, 'deploy'],
]);

/**
 * The API view of a key (`owner`: its account; none for a deploy key). Anyone may read a public key; its type,
 * mode and owner are added for the owner and site administrators, as Forgejo does. `url` is the key under
 * `/user/keys`, whoever looks.
 */
export function toApiPublicKey(key: PublicKey, owner: User | undefined, view: ApiView): ApiPublicKey {
  const api: ApiPublicKey = {
    id: key.id,
    key: key.content,
    url: apiUrl(view.settings, `/user/keys/${key.id}`),
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.created_unix),
    verified: key.verified === 1,
  };
  if (isSiteAdmin(view.viewer) || (owner && isSelf(view.viewer, owner))) {
    api.key_type = KEY_TYPE_NAMES.get(key.type) ?? 'unknown';
    api.read_only = key.mode === AccessMode.Read;
    if (key.type === KeyType.User && owner) api.user = toApiUser(owner, view);
  }
  return api;
}

/**
 * The API view of one of a repository's deploy keys, at `/repos/{owner}/{repo}/keys/{id}`. The repository (with
 * the key's mode as its permissions) is added for site administrators and the repository's owner, as Forgejo
 * does, unless `withRepository` is false (Forgejo's answer to a creation has none).
 */
export function toApiDeployKey(key: DeployKeyWithContent, access: RepoAccess, view: ApiView, withRepository = true): ApiDeployKey {
  const api: ApiDeployKey = {
    id: key.id,
    key_id: key.key_id,
    key: key.content,
    url: apiUrl(view.settings, `/repos/${repoWebPath(access.owner, access.repo)}/keys/${key.id}`),
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: isoTime(key.created_unix),
    read_only: key.mode === AccessMode.Read,
  };
  if (withRepository && (isSiteAdmin(view.viewer) || isSelf(view.viewer, access.owner))) {
    api.repository = toApiRepository({ repo: access.repo, owner: access.owner, mode: key.mode as AccessModeValue }, view);
  }
  return api;
}
