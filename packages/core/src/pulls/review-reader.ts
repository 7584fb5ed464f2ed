/**
 * What pull requests read of their reviews: the merge gate's counts and the PullRequest view's summaries. Reviews
 * sit above pulls (a review is about a pull request), so pulls declares what it reads here and the reviews domain
 * provides it (`pulls.reviews`). The calls are direct reads, made where pulls makes them.
 */
import type { CoreTransaction } from '../context.js';
import type { Team } from '../orgs/index.js';
import type { User } from '../users/index.js';

/** Requested reviewers and review count of one pull request, as its API view shows them. */
export interface ReviewSummary {
  requestedReviewers: User[];
  requestedTeams: Team[];
  /** Submitted reviews (Forgejo's `review_comments`). */
  reviewComments: number;
}

export interface PullReviewReader {
  /** How many approvals the pull request (by its issue) has that pass the filter and are not dismissed. */
  countApprovals(issueId: number, filter: { official?: boolean; ignoreStale?: boolean }): Promise<number>;
  /** Whether an official, not dismissed rejection, and an official review request, stand on the pull request. */
  blockingReviews(issueId: number): Promise<{ rejected: boolean; requested: boolean }>;
  /** The official approvals that are not dismissed, oldest first. */
  officialApprovals(issueId: number): Promise<{ reviewer_id: number }[]>;
  /** Requested reviewers and teams and the number of submitted reviews of each pull request (by its issue). */
  summaries(issueIds: readonly number[], scope: Pick<CoreTransaction, 'store' | 'port'>): Promise<Map<number, ReviewSummary>>;
}

declare module '../context.js' {
  interface CoreProviders {
    'pulls.reviews': PullReviewReader;
  }
}
