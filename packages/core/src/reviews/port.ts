import type { StoreScope } from '../storage/index.js';
import { ReviewsStore } from './store.js';
import { REVIEW_TYPES, type ApprovalFilter, type NewReview, type Review } from './tables.js';

/** What other domains read and write of pull request reviews; the reviews domain's store stays private. */
export class ReviewsPort {
  constructor(private readonly scope: StoreScope) {}

  private get reviews(): ReviewsStore {
    return this.scope.store(ReviewsStore);
  }

  /** How many approvals the pull request (by its issue) has that pass the filter and are not dismissed. */
  countApprovals(issueId: number, filter: ApprovalFilter): Promise<number> {
    return this.reviews.countApprovals(issueId, filter);
  }

  /** Whether an official, not dismissed review of this kind (a rejection, a request) stands on the pull request. */
  hasOfficial(issueId: number, type: number): Promise<boolean> {
    return this.reviews.hasOfficial(issueId, type);
  }

  /** The pull request's approvals that are not dismissed, oldest first (official or not: the caller picks). */
  undismissedApprovals(issueId: number): Promise<Review[]> {
    return this.reviews.undismissed(issueId, { types: [REVIEW_TYPES.approve] });
  }

  /** Inserts imported reviews many at a time, with the remote's times; their ids in the order of `rows`. */
  insertImported(rows: readonly NewReview[]): Promise<number[]> {
    return this.reviews.insertMany(rows);
  }
}
