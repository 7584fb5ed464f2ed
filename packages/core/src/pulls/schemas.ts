import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { LabelSchema } from '../labels/index.js';
import { MilestoneSchema } from '../milestones/index.js';
import { RepositorySchema } from '../repos/index.js';
import { TeamSchema } from '../orgs/index.js';
import { StateTypeSchema } from '../issues/index.js';

export const PRBranchInfoSchema = Type.Object(
  {
    label: Type.String(),
    ref: Type.String(),
    sha: Type.String(),
    repo_id: Type.Integer({ format: 'int64' }),
    // Null when the head repository was deleted.
    repo: Type.Union([RepositorySchema, Type.Null()]),
  },
  { $id: 'PRBranchInfo', description: 'PRBranchInfo information about a branch' },
);
export type ApiPRBranchInfo = Static<typeof PRBranchInfoSchema>;

export const PullRequestSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    url: Type.String(),
    number: Type.Integer({ format: 'int64' }),
    user: UserSchema,
    title: Type.String(),
    body: Type.String(),
    labels: Type.Array(LabelSchema),
    milestone: Type.Union([MilestoneSchema, Type.Null()]),
    assignee: Type.Union([UserSchema, Type.Null()]),
    assignees: Type.Union([Type.Array(UserSchema), Type.Null()]),
    requested_reviewers: Type.Union([Type.Array(UserSchema), Type.Null()]),
    requested_reviewers_teams: Type.Union([Type.Array(TeamSchema), Type.Null()]),
    state: StateTypeSchema,
    draft: Type.Boolean(),
    is_locked: Type.Boolean(),
    comments: Type.Integer({ format: 'int64' }),
    review_comments: Type.Integer({ format: 'int64' }),
    additions: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()]),
    deletions: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()]),
    changed_files: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()]),
    html_url: Type.String(),
    diff_url: Type.String(),
    patch_url: Type.String(),
    mergeable: Type.Boolean(),
    merged: Type.Boolean(),
    merged_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    merge_commit_sha: Type.Union([Type.String(), Type.Null()]),
    merged_by: Type.Union([UserSchema, Type.Null()]),
    allow_maintainer_edit: Type.Boolean(),
    base: PRBranchInfoSchema,
    head: PRBranchInfoSchema,
    merge_base: Type.String(),
    due_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    pin_order: Type.Integer({ format: 'int64' }),
    flow: Type.Integer({ format: 'int64' }),
  },
  { $id: 'PullRequest', description: 'PullRequest represents a pull request' },
);
export type ApiPullRequest = Static<typeof PullRequestSchema>;

export const CreatePullRequestOptionSchema = Type.Object(
  {
    head: Type.Optional(Type.String()),
    base: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    assignee: Type.Optional(Type.String()),
    assignees: Type.Optional(Type.Array(Type.String())),
    milestone: Type.Optional(Type.Integer({ format: 'int64' })),
    labels: Type.Optional(Type.Array(Type.Integer({ format: 'int64' }))),
    due_date: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'CreatePullRequestOption', description: 'CreatePullRequestOption options when creating a pull request' },
);
export type CreatePullRequestOption = Static<typeof CreatePullRequestOptionSchema>;

export const EditPullRequestOptionSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    base: Type.Optional(Type.String()),
    assignee: Type.Optional(Type.String()),
    assignees: Type.Optional(Type.Array(Type.String())),
    milestone: Type.Optional(Type.Integer({ format: 'int64' })),
    labels: Type.Optional(Type.Array(Type.Integer({ format: 'int64' }))),
    // Forgejo reads any other text as "no change".
    state: Type.Optional(Type.String()),
    due_date: Type.Optional(Type.String({ format: 'date-time' })),
    unset_due_date: Type.Optional(Type.Boolean()),
    allow_maintainer_edit: Type.Optional(Type.Boolean()),
  },
  { $id: 'EditPullRequestOption', description: 'EditPullRequestOption options when modify pull request' },
);
export type EditPullRequestOption = Static<typeof EditPullRequestOptionSchema>;

export const PULL_SORTS = ['oldest', 'recentupdate', 'recentclose', 'leastupdate', 'mostcomment', 'leastcomment', 'priority'] as const;
export type PullSort = (typeof PULL_SORTS)[number];

/** `GET /repos/{owner}/{repo}/pulls`. */
export const PullListQuerySchema = Type.Object({
  state: Type.Optional(StringEnum(['open', 'closed', 'all'] as const, { description: 'State of pull request' })),
  sort: Type.Optional(StringEnum(PULL_SORTS, { description: 'Type of sort' })),
  milestone: Type.Optional(Type.Integer({ format: 'int64', description: 'ID of the milestone' })),
  labels: Type.Optional(Type.Array(Type.Integer({ format: 'int64' }), { description: 'Label IDs' })),
  poster: Type.Optional(Type.String({ description: 'Filter by pull request author' })),
  base: Type.Optional(Type.String({ description: 'Filter by target base branch of the pull request' })),
  head: Type.Optional(Type.String({ description: 'Filter by head branch of the pull request' })),
});
export type PullListQuery = Static<typeof PullListQuerySchema>;

export const ChangedFileSchema = Type.Object(
  {
    filename: Type.String(),
    previous_filename: Type.Optional(Type.String()),
    status: Type.String(),
    additions: Type.Integer({ format: 'int64' }),
    deletions: Type.Integer({ format: 'int64' }),
    changes: Type.Integer({ format: 'int64' }),
    html_url: Type.String(),
    contents_url: Type.String(),
    raw_url: Type.String(),
  },
  { $id: 'ChangedFile', description: 'ChangedFile store information about files affected by the pull request' },
);
export type ApiChangedFile = Static<typeof ChangedFileSchema>;

/** `GET …/pulls/{index}/files`. */
export const PullFilesQuerySchema = Type.Object({
  'skip-to': Type.Optional(Type.String({ description: 'skip to given file' })),
  whitespace: Type.Optional(StringEnum(['ignore-all', 'ignore-change', 'ignore-eol', 'show-all'] as const, { description: 'whitespace behavior' })),
});
export type PullFilesQuery = Static<typeof PullFilesQuerySchema>;

/** `GET …/pulls/{index}/commits`. */
export const PullCommitsQuerySchema = Type.Object({
  verification: Type.Optional(Type.Boolean({ description: "include verification for every commit (disable for speedup, default 'true')" })),
  files: Type.Optional(Type.Boolean({ description: "include a list of affected files for every commit (disable for speedup, default 'true')" })),
});
export type PullCommitsQuery = Static<typeof PullCommitsQuerySchema>;
