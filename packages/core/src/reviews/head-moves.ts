/**
 * What happens to reviews when a pull request's head moves (`pull.synchronized`): they follow the new head when
 * its content is the same, else they turn stale and, under the base rule's `dismiss_stale_approvals`, standing
 * approvals are dismissed.
 */
import type { CoreTransaction } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import type { PullRequest } from '../pulls/index.js';
import { FULL_HEX_ID, type GitBackend, type RepoKey } from '../git/index.js';
import { reviewRuleOf } from './officials.js';
import { ReviewsStore } from './store.js';
import { REVIEW_TYPES } from './tables.js';

/**
 * Did the head's content change between two commits (Forgejo's checkIfPRContentChanged)? A rebase or amend that
 * leaves every file as it was keeps reviews fresh; when in doubt, it changed.
 */
export async function contentChanged(git: GitBackend, key: RepoKey, before: string, after: string): Promise<boolean> {
  if (!FULL_HEX_ID.test(before) || !FULL_HEX_ID.test(after) || /^0+$/.test(before)) return true;
  try {
    return (await git.changedFiles(key, before, after)).length > 0;
  } catch {
    return true;
  }
}

/**
 * The head moved (a push). When its content changed, reviews of another commit turn stale and, with the base
 * rule's `dismiss_stale_approvals`, standing approvals are dismissed with a timeline entry; when it did not,
 * reviews of the old head move to the new one.
 */
export async function headMoved(tx: CoreTransaction, actor: Actor, pull: PullRequest, issueId: number, before: string, head: string, changed: boolean): Promise<void> {
  const reviews = tx.store(ReviewsStore);
  if (!changed) {
    await reviews.moveToCommit(issueId, before, head);
    return;
  }
  await reviews.markStale(issueId, head);
  const rule = await reviewRuleOf(tx, pull);
  if (!rule?.dismissStaleApprovals) return;
  const approvals = await reviews.undismissed(issueId, { types: [REVIEW_TYPES.approve] });
  if (approvals.length === 0) return;
  await reviews.setDismissed(approvals.map((r) => r.id), true);
  const doerId = actorUser(actor)?.id ?? 0;
  for (const review of approvals) {
    await tx.port(CommentsPort).record({
      type: COMMENT_TYPES.dismiss_review,
      poster_id: doerId,
      issue_id: issueId,
      content: 'New commits pushed, approval review dismissed automatically according to repository settings',
      review_id: review.id,
    });
  }
}
