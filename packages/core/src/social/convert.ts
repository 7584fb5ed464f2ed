import { apiUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { repoWebPath } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { UserBlocking } from '../users/index.js';
import type { ApiBlockedUser, ApiWatchInfo } from './schemas.js';

/**
 * The caller's watch of a repository. As Forgejo, `created_at` is the repository's creation time, not the
 * watch's, and `reason` is always null.
 */
export function toApiWatchInfo({ repo, owner }: Pick<RepoAccess, 'repo' | 'owner'>, { settings }: ApiView): ApiWatchInfo {
  const url = apiUrl(settings, `/repos/${repoWebPath(owner, repo)}`);
  return { subscribed: true, ignored: false, reason: null, created_at: isoTime(repo.created_unix), url: `${url}/subscription`, repository_url: url };
}

export function toApiBlockedUser(row: UserBlocking): ApiBlockedUser {
  return { block_id: row.block_id, created_at: isoTime(row.created_unix) };
}
