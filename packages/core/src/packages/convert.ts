import { isoTime, type ApiView } from '../wire.js';
import { GHOST_USER, toApiUser, type User } from '../users/index.js';
import type { toApiRepository } from '../repos/index.js';

type ApiRepository = ReturnType<typeof toApiRepository>;
import { webUrl } from '../urls.js';
import type { ApiPackage, ApiPackageFile } from './schemas.js';
import type { FileWithBlob, VersionWithPackage } from './store.js';

/** Forgejo's `ToPackage`: a version, its owner, creator and linked repository (null when the viewer may not see it). */
export function toApiPackage(version: VersionWithPackage, owner: User, creator: User | undefined, repository: ApiRepository | null, view: ApiView): ApiPackage {
  return {
    id: version.id,
    owner: toApiUser(owner, view),
    repository,
    creator: toApiUser(creator ?? GHOST_USER, view),
    type: version.pkg.type,
    name: version.pkg.name,
    version: version.version,
    html_url: webUrl(view.settings, `${owner.name}/-/packages/${version.pkg.type}/${encodeURIComponent(version.pkg.name)}/${encodeURIComponent(version.version)}`),
    created_at: isoTime(version.created_unix),
  };
}

/** Forgejo's `ToPackageFile`. */
export function toApiPackageFile(file: FileWithBlob): ApiPackageFile {
  return {
    Size: file.blob.size,
    id: file.id,
    name: file.name,
    md5: file.blob.hash_md5,
    sha1: file.blob.hash_sha1,
    sha256: file.blob.hash_sha256,
    sha512: file.blob.hash_sha512,
  };
}
