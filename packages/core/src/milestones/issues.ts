/**
 * What deleting a milestone asks of the issues in it. Issues sit above milestones (an issue names its milestone), so
 * milestones declares the call and the issues domain provides it (`milestones.issues`). It runs inside the caller's
 * transaction, at the point the milestone's deletion makes it, so the order of the writes stays as it was.
 */
import type { CoreTransaction } from '../context.js';

export interface MilestoneIssues {
  /** Leaves the issues of the milestone without one. */
  clearMilestone(tx: CoreTransaction, milestoneId: number): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'milestones.issues': MilestoneIssues;
  }
}
