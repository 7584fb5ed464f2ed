import { AccessMode, ForbiddenError, LockedError } from '@repohost/core';
import type { Groups } from '../groups.js';

/**
 * Forgejo's `reqRepoWriter` and `mustNotBeArchived` for branch and tag writes: checked before the body is read,
 * so a caller who may not write gets 403 (423 on an archived repository) whatever they sent. The services check
 * again, for embedders.
 */
export function refWriter(repo: Groups['repo']) {
  return repo.nest('', async ({ repo }) => {
    if (repo.mode < AccessMode.Write) throw new ForbiddenError('user should have a permission to write to a repository');
    if (repo.repo.is_archived === 1) throw new LockedError('repo is archived');
    return {};
  });
}
