import { Store } from '../storage/store.js';
import type { IssuesTables } from './tables.js';

/**
 * The comments domain's one write to `issue`: setting the comment count it recounted after a deletion, without
 * marking the issue changed (Forgejo's UpdateIssueNumComments leaves `updated_unix` alone).
 */
export class IssueCommentCountStore extends Store<IssuesTables> {
  async setNumComments(issueId: number, count: number): Promise<void> {
    await this.db.updateTable('issue').set({ num_comments: count }).where('id', '=', issueId).execute();
  }
}
