import type { Expression } from 'kysely';
import { Store } from '../storage/store.js';
import { COMMENT_TYPES } from './types.js';
import type { CommentsTables } from './tables.js';

/** The `label` timeline events of the `comment` table, for the labels domain. */
export class LabelCommentsStore extends Store<CommentsTables> {
  /** Drops the events that name a deleted label (Forgejo deletes them with the label). */
  async deleteOfLabel(labelId: number): Promise<void> {
    await this.db.deleteFrom('comment').where('type', '=', COMMENT_TYPES.label).where('label_id', '=', labelId).execute();
  }

  /** Drops the events naming these labels on these issues (labels a transferred repository may no longer use). */
  async deleteOfLabelsOn(labelIds: readonly number[], issueIds: Expression<number>): Promise<void> {
    if (labelIds.length === 0) return;
    await this.db
      .deleteFrom('comment')
      .where('type', '=', COMMENT_TYPES.label)
      .where('label_id', 'in', [...labelIds])
      .where('issue_id', 'in', issueIds)
      .execute();
  }
}
