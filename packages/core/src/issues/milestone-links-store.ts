import { Store } from '../storage/store.js';
import type { IssuesTables } from './tables.js';

/** The issues side of deleting a milestone: its issues keep no link to it. */
export class IssueMilestoneLinksStore extends Store<IssuesTables> {
  /** Takes the milestone off every issue that carries it (Forgejo leaves no timeline entry and no change time). */
  async clearMilestone(milestoneId: number): Promise<void> {
    await this.db.updateTable('issue').set({ milestone_id: 0 }).where('milestone_id', '=', milestoneId).execute();
  }
}
