import type { Generated, Insertable, Selectable } from 'kysely';

/** Forgejo's ReviewType: the number stored in `review.type`. */
export const REVIEW_TYPES = { pending: 0, approve: 1, comment: 2, reject: 3, request: 4 } as const;
export type ReviewType = (typeof REVIEW_TYPES)[keyof typeof REVIEW_TYPES];

/**
 * A review of a pull request, or a request for one (`type` request). A request names a user (`reviewer_id`) or a
 * team (`reviewer_team_id`); every other kind is a user's. Only the reviewer's latest approval or rejection is
 * `official` (given by someone whose approval counts); `stale` once the head moved past `commit_id`.
 */
export interface ReviewTable {
  id: Generated<number>;
  type: number;
  reviewer_id: Generated<number>;
  reviewer_team_id: Generated<number>;
  original_author: Generated<string>;
  original_author_id: Generated<number>;
  issue_id: number;
  content: Generated<string>;
  official: Generated<number>;
  commit_id: Generated<string>;
  stale: Generated<number>;
  dismissed: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** The tables the reviews domain owns. */
export interface ReviewsTables {
  review: ReviewTable;
}

export type Review = Selectable<ReviewTable>;
export type NewReview = Insertable<ReviewTable>;

/** Which approvals count: official ones only, and whether stale ones are left out. */
export interface ApprovalFilter {
  official?: boolean;
  ignoreStale?: boolean;
  /** Only these reviewers (a protection rule's approvals whitelist). */
  reviewerIds?: readonly number[];
}

declare module '../storage/schema.js' {
  interface Schema extends ReviewsTables {}
}
