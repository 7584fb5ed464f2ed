import { Store } from '../storage/store.js';
import { COMMENT_TYPES } from './types.js';
import type { CommentsTables } from './tables.js';

/** Commit references already on the timeline, so a commit pushed to a second branch is not recorded twice. */
export class CommitRefsStore extends Store<CommentsTables> {
  /** Of these issues, those whose timeline already references `sha`. */
  async issuesReferencing(issueIds: readonly number[], sha: string): Promise<Set<number>> {
    if (issueIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('comment')
      .select('issue_id')
      .where('type', '=', COMMENT_TYPES.commit_ref)
      .where('commit_sha', '=', sha)
      .where('issue_id', 'in', [...new Set(issueIds)])
      .execute();
    return new Set(rows.map((r) => r.issue_id));
  }
}
