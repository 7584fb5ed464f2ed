import { formatGoDuration } from '../go-duration.js';
import type { Repository } from '../repos/index.js';
import { isoTime } from '../wire.js';
import type { ApiPushMirror } from './schemas.js';
import type { PushMirror } from './tables.js';

/** The API view of a push mirror (Forgejo's `ToPushMirror`): never its credentials. */
export function toApiPushMirror(mirror: PushMirror, repo: Pick<Repository, 'name'>): ApiPushMirror {
  return {
    repo_name: repo.name,
    remote_name: mirror.remote_name,
    remote_address: mirror.remote_address,
    created: isoTime(mirror.created_unix),
    last_update: mirror.last_update_unix > 0 ? isoTime(mirror.last_update_unix) : null,
    last_error: mirror.last_error,
    interval: formatGoDuration(mirror.interval_seconds),
    sync_on_commit: mirror.sync_on_commit === 1,
    branch_filter: mirror.branch_filter,
    public_key: mirror.public_key.replace(/\n$/, ''),
  };
}
