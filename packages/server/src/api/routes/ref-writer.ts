import { assertCanWriteRefs } from '@repohost/core';
import type { Groups } from '../groups.js';

/**
 * Forgejo's `reqRepoWriter` and `mustNotBeArchived` for branch and tag writes: checked before the body is read,
 * so a caller who may not write gets 403 (423 on an archived repository) whatever they sent. The same check the
 * services make again, for embedders.
 */
export function refWriter(repo: Groups['repo']) {
  return repo.nest('', async ({ repo }) => {
    assertCanWriteRefs(repo);
    return {};
  });
}
