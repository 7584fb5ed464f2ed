import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { TeamSchema } from '../orgs/index.js';

/** Forgejo's ReviewStateType values, as reviews show their state. */
export const REVIEW_STATES = ['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW', ''] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const ReviewStateTypeSchema = StringEnum(REVIEW_STATES, { description: 'ReviewStateType review state type' });

export const PullReviewSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    // Null for a team's review request.
    user: Type.Union([UserSchema, Type.Null()]),
    team: Type.Union([TeamSchema, Type.Null()]),
    state: ReviewStateTypeSchema,
    body: Type.String(),
    commit_id: Type.String(),
    stale: Type.Boolean(),
    official: Type.Boolean(),
    dismissed: Type.Boolean(),
    comments_count: Type.Integer({ format: 'int64' }),
    submitted_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    html_url: Type.String(),
    pull_request_url: Type.String(),
  },
  { $id: 'PullReview', description: 'PullReview represents a pull request review' },
);
export type ApiPullReview = Static<typeof PullReviewSchema>;

export const PullReviewCommentSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    body: Type.String(),
    user: Type.Union([UserSchema, Type.Null()]),
    resolver: Type.Union([UserSchema, Type.Null()]),
    pull_request_review_id: Type.Integer({ format: 'int64' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    path: Type.String(),
    commit_id: Type.String(),
    original_commit_id: Type.String(),
    diff_hunk: Type.String(),
    extra_lines_count: Type.Integer({ format: 'int64', description: 'number of additional lines after the commented line (0 = single line comment)' }),
    position: Type.Integer({ format: 'uint64' }),
    original_position: Type.Integer({ format: 'uint64' }),
    html_url: Type.String(),
    pull_request_url: Type.String(),
  },
  { $id: 'PullReviewComment', description: 'PullReviewComment represents a comment on a pull request review' },
);
export type ApiPullReviewComment = Static<typeof PullReviewCommentSchema>;

export const CreatePullReviewCommentSchema = Type.Object(
  {
    path: Type.Optional(Type.String({ description: 'the tree path' })),
    body: Type.Optional(Type.String()),
    old_position: Type.Optional(Type.Integer({ format: 'int64', description: 'if comment to old file line or 0' })),
    new_position: Type.Optional(Type.Integer({ format: 'int64', description: 'if comment to new file line or 0' })),
    extra_lines_count: Type.Optional(
      Type.Integer({ format: 'int64', description: 'number of additional lines after the commented line (0 = single line comment)' }),
    ),
  },
  { $id: 'CreatePullReviewComment', description: 'CreatePullReviewComment represent a review comment for creation api' },
);
export type CreatePullReviewComment = Static<typeof CreatePullReviewCommentSchema>;

export const CreatePullReviewOptionsSchema = Type.Object(
  {
    // Any other value (or none) makes a pending review, as Forgejo reads it.
    event: Type.Optional(Type.String({ description: 'ReviewStateType review state type' })),
    body: Type.Optional(Type.String()),
    commit_id: Type.Optional(Type.String()),
    comments: Type.Optional(Type.Array(CreatePullReviewCommentSchema)),
  },
  { $id: 'CreatePullReviewOptions', description: 'CreatePullReviewOptions are options to create a pull review' },
);
export type CreatePullReviewOptions = Static<typeof CreatePullReviewOptionsSchema>;

export const SubmitPullReviewOptionsSchema = Type.Object(
  {
    event: Type.Optional(Type.String({ description: 'ReviewStateType review state type' })),
    body: Type.Optional(Type.String()),
  },
  { $id: 'SubmitPullReviewOptions', description: 'SubmitPullReviewOptions are options to submit a pending pull review' },
);
export type SubmitPullReviewOptions = Static<typeof SubmitPullReviewOptionsSchema>;

export const DismissPullReviewOptionsSchema = Type.Object(
  {
    message: Type.Optional(Type.String()),
    priors: Type.Optional(Type.Boolean()),
  },
  { $id: 'DismissPullReviewOptions', description: 'DismissPullReviewOptions are options to dismiss a pull review' },
);
export type DismissPullReviewOptions = Static<typeof DismissPullReviewOptionsSchema>;

export const PullReviewRequestOptionsSchema = Type.Object(
  {
    reviewers: Type.Optional(Type.Array(Type.String())),
    team_reviewers: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'PullReviewRequestOptions', description: 'PullReviewRequestOptions are options to add or remove pull review requests' },
);
export type PullReviewRequestOptions = Static<typeof PullReviewRequestOptionsSchema>;

/** A reply to a review comment (Gitea's `POST …/pulls/{index}/comments/{id}/replies`). */
export const CreatePullReviewCommentReplyOptionsSchema = Type.Object(
  { body: Type.Optional(Type.String()) },
  { $id: 'CreatePullReviewCommentReplyOptions', description: 'CreatePullReviewCommentReplyOptions are options to reply to a pull review comment' },
);
export type CreatePullReviewCommentReplyOptions = Static<typeof CreatePullReviewCommentReplyOptionsSchema>;
