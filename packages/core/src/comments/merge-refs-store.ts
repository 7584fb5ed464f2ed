import { Store } from '../storage/store.js';
import { RefAction } from './store.js';
import type { Comment, CommentsTables } from './tables.js';

/** Cross references a merge acts on (Forgejo's ResolveCrossReferences), for the pull request merge code. */
export class MergeReferencesStore extends Store<CommentsTables> {
  /** References issue `issueId` made that close or reopen the issues they name, oldest first. */
  closingReferencesFrom(issueId: number): Promise<Comment[]> {
    return this.db
      .selectFrom('comment')
      .selectAll()
      .where('ref_issue_id', '=', issueId)
      .where('ref_action', 'in', [RefAction.Closes, RefAction.Reopens])
      .orderBy('id')
      .execute();
  }
}
