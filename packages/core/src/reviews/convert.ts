import { isoTime, type ApiView } from '../wire.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import { toApiTeam } from '../orgs/index.js';
import type { Team } from '../orgs/index.js';
import type { Comment } from '../timeline/index.js';
import type { ApiPullReview, ApiPullReviewComment, ReviewState } from './schemas.js';
import { REVIEW_TYPES, type Review } from './tables.js';

const STATE_OF_TYPE: ReadonlyMap<number, ReviewState> = new Map([
  [REVIEW_TYPES.approve, 'APPROVED'],
  [REVIEW_TYPES.reject, 'REQUEST_CHANGES'],
  [REVIEW_TYPES.comment, 'COMMENT'],
  [REVIEW_TYPES.pending, 'PENDING'],
  [REVIEW_TYPES.request, 'REQUEST_REVIEW'],
]);

/** What a review's wire form needs besides its row. */
export interface ReviewRelations {
  /** Null for a team's request. */
  reviewer: User | null;
  team: Team | null;
  codeComments: number;
  /** The id of the review's timeline entry, 0 while it has none (pending, requests). */
  timelineCommentId: number;
  /** The pull request's web URL. */
  pullUrl: string;
}

/** The API view of a review, as Forgejo's ToPullReview. */
export function toApiPullReview(review: Review, relations: ReviewRelations, view: ApiView): ApiPullReview {
  return {
    id: review.id,
    user: relations.reviewer ? toApiUser(relations.reviewer, view) : null,
    team: relations.team ? toApiTeam(relations.team, view) : null,
    state: STATE_OF_TYPE.get(review.type) ?? '',
    body: review.content,
    commit_id: review.commit_id,
    stale: review.stale === 1,
    official: review.official === 1,
    dismissed: review.dismissed === 1,
    comments_count: relations.codeComments,
    submitted_at: isoTime(review.created_unix),
    updated_at: isoTime(review.updated_unix),
    html_url: relations.timelineCommentId > 0 ? `${relations.pullUrl}#issuecomment-${relations.timelineCommentId}` : '',
    pull_request_url: relations.pullUrl,
  };
}

/** What a line comment's wire form needs besides its row. */
export interface ReviewCommentRelations {
  poster: User;
  resolver: User | null;
  /** The review it belongs to (its type decides where the comment's URL points). */
  review: Pick<Review, 'id' | 'type'>;
  pullUrl: string;
}

/** Forgejo's patch2diff: the hunk of a stored patch excerpt, without the file header. */
function diffHunk(patch: string): string {
  const parts = patch.split('\n@@');
  return parts.length === 2 ? `@@${parts[1]}` : '';
}

/** The API view of a review's line comment, as Forgejo's ToPullReviewCommentList. */
export function toApiPullReviewComment(comment: Comment, relations: ReviewCommentRelations, view: ApiView): ApiPullReviewComment {
  const onFiles = relations.review.type === REVIEW_TYPES.pending;
  const line = Math.abs(comment.line);
  return {
    id: comment.id,
    body: comment.content,
    user: toApiUser(relations.poster, view),
    resolver: relations.resolver ? toApiUser(relations.resolver, view) : null,
    pull_request_review_id: relations.review.id,
    created_at: isoTime(comment.created_unix),
    updated_at: isoTime(comment.updated_unix),
    path: comment.tree_path,
    commit_id: comment.commit_sha,
    original_commit_id: comment.old_ref,
    diff_hunk: diffHunk(comment.patch),
    // Comments span one line here: ranges are not stored.
    extra_lines_count: 0,
    position: comment.line >= 0 ? line : 0,
    original_position: comment.line < 0 ? line : 0,
    html_url: `${relations.pullUrl}${onFiles ? '/files' : ''}#issuecomment-${comment.id}`,
    pull_request_url: relations.pullUrl,
  };
}
