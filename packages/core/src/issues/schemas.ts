import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { LabelSchema } from '../labels/index.js';
import { MilestoneSchema } from '../milestones/index.js';
import { AttachmentSchema } from '../attachments/index.js';
import { RepositoryMetaSchema } from '../repos/index.js';

// Repos owns it (access tokens name their repositories with it too); re-exported where the Issue schema uses it.
export { RepositoryMetaSchema, type ApiRepositoryMeta } from '../repos/index.js';

/** `open` or `closed`. */
export const ISSUE_STATES = ['open', 'closed'] as const;
export type IssueState = (typeof ISSUE_STATES)[number];
export const StateTypeSchema = StringEnum(ISSUE_STATES, { description: 'StateType issue state type' });

export const PullRequestMetaSchema = Type.Object(
  {
    merged: Type.Boolean(),
    merged_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    draft: Type.Boolean(),
    html_url: Type.String(),
  },
  { $id: 'PullRequestMeta', description: 'PullRequestMeta PR info if an issue is a PR' },
);

export const IssueSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    url: Type.String(),
    html_url: Type.String(),
    number: Type.Integer({ format: 'int64' }),
    user: UserSchema,
    original_author: Type.String(),
    original_author_id: Type.Integer({ format: 'int64' }),
    title: Type.String(),
    body: Type.String(),
    ref: Type.String(),
    assets: Type.Array(AttachmentSchema),
    labels: Type.Array(LabelSchema),
    milestone: Type.Union([MilestoneSchema, Type.Null()]),
    /** Deprecated: the first assignee. */
    assignee: Type.Union([UserSchema, Type.Null()]),
    assignees: Type.Union([Type.Array(UserSchema), Type.Null()]),
    state: StateTypeSchema,
    is_locked: Type.Boolean(),
    comments: Type.Integer({ format: 'int64' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    due_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    pull_request: Type.Union([PullRequestMetaSchema, Type.Null()]),
    repository: RepositoryMetaSchema,
    pin_order: Type.Integer({ format: 'int64' }),
    /** Gitea's estimate in seconds; Forgejo has none, and nothing here sets one. */
    time_estimate: Type.Integer({ format: 'int64' }),
  },
  { $id: 'Issue', description: 'Issue represents an issue in a repository' },
);
export type ApiIssue = Static<typeof IssueSchema>;

export const CreateIssueOptionSchema = Type.Object(
  {
    title: Type.String(),
    body: Type.Optional(Type.String()),
    ref: Type.Optional(Type.String()),
    /** Deprecated: one assignee's name. */
    assignee: Type.Optional(Type.String({ description: 'deprecated' })),
    assignees: Type.Optional(Type.Array(Type.String())),
    due_date: Type.Optional(Type.String({ format: 'date-time' })),
    milestone: Type.Optional(Type.Integer({ format: 'int64', description: 'milestone id' })),
    labels: Type.Optional(Type.Array(Type.Integer({ format: 'int64' }), { description: 'list of label ids' })),
    closed: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateIssueOption', description: 'CreateIssueOption options to create one issue' },
);
export type CreateIssueOption = Static<typeof CreateIssueOptionSchema>;

export const EditIssueOptionSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    ref: Type.Optional(Type.String()),
    assignee: Type.Optional(Type.String({ description: 'deprecated' })),
    assignees: Type.Optional(Type.Array(Type.String())),
    milestone: Type.Optional(Type.Integer({ format: 'int64' })),
    // Forgejo reads any other text as "no change" rather than refusing it.
    state: Type.Optional(Type.String()),
    due_date: Type.Optional(Type.String({ format: 'date-time' })),
    unset_due_date: Type.Optional(Type.Boolean()),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'EditIssueOption', description: 'EditIssueOption options for editing an issue' },
);
export type EditIssueOption = Static<typeof EditIssueOptionSchema>;

export const ISSUE_SORTS = ['relevance', 'latest', 'oldest', 'recentupdate', 'leastupdate', 'mostcomment', 'leastcomment', 'nearduedate', 'farduedate'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];
export const ISSUE_TYPES = ['issues', 'pulls'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];
export const ISSUE_STATE_FILTERS = ['closed', 'open', 'all'] as const;

/** `GET /repos/{owner}/{repo}/issues`. */
export const IssueListQuerySchema = Type.Object({
  state: Type.Optional(StringEnum(ISSUE_STATE_FILTERS, { description: 'whether issue is open or closed' })),
  labels: Type.Optional(Type.String({ description: 'comma separated list of labels. Fetch only issues that have any of this labels. Non existent labels are discarded' })),
  q: Type.Optional(Type.String({ description: 'search string' })),
  type: Type.Optional(StringEnum(ISSUE_TYPES, { description: 'filter by type (issues / pulls) if set' })),
  milestones: Type.Optional(Type.String({ description: 'comma separated list of milestone names or ids. It uses names and fall back to ids. Fetch only issues that have any of this milestones. Non existent milestones are discarded' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Only show items updated after the given time. This is a timestamp in RFC 3339 format' })),
  before: Type.Optional(Type.String({ format: 'date-time', description: 'Only show items updated before the given time. This is a timestamp in RFC 3339 format' })),
  created_by: Type.Optional(Type.String({ description: 'Only show items which were created by the given user' })),
  assigned_by: Type.Optional(Type.String({ description: 'Only show items for which the given user is assigned' })),
  mentioned_by: Type.Optional(Type.String({ description: 'Only show items in which the given user was mentioned' })),
  sort: Type.Optional(StringEnum(ISSUE_SORTS, { description: 'Type of sort' })),
});
export type IssueListQuery = Static<typeof IssueListQuerySchema>;

/** `GET /repos/issues/search`. */
export const IssueSearchQuerySchema = Type.Object({
  state: Type.Optional(StringEnum(['open', 'closed', 'all'] as const, { description: 'State of the issue' })),
  labels: Type.Optional(Type.String({ description: 'Comma-separated list of label names. Fetch only issues that have any of these labels. Non existent labels are discarded.' })),
  milestones: Type.Optional(Type.String({ description: 'Comma-separated list of milestone names. Fetch only issues that have any of these milestones. Non existent milestones are discarded.' })),
  q: Type.Optional(Type.String({ description: 'Search string' })),
  priority_repo_id: Type.Optional(Type.Integer({ format: 'int64', description: 'Repository ID to prioritize in the results' })),
  type: Type.Optional(StringEnum(ISSUE_TYPES, { description: 'Filter by issue type' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Only show issues updated after the given time (RFC 3339 format)' })),
  before: Type.Optional(Type.String({ format: 'date-time', description: 'Only show issues updated before the given time (RFC 3339 format)' })),
  assigned: Type.Optional(Type.Boolean({ description: 'Filter issues or pulls assigned to the authenticated user' })),
  created: Type.Optional(Type.Boolean({ description: 'Filter issues or pulls created by the authenticated user' })),
  mentioned: Type.Optional(Type.Boolean({ description: 'Filter issues or pulls mentioning the authenticated user' })),
  review_requested: Type.Optional(Type.Boolean({ description: "Filter pull requests where the authenticated user's review was requested" })),
  reviewed: Type.Optional(Type.Boolean({ description: 'Filter pull requests reviewed by the authenticated user' })),
  owner: Type.Optional(Type.String({ description: 'Filter by repository owner' })),
  team: Type.Optional(Type.String({ description: 'Filter by team (requires organization owner parameter)' })),
  sort: Type.Optional(StringEnum(ISSUE_SORTS, { description: 'Type of sort' })),
});
export type IssueSearchQuery = Static<typeof IssueSearchQuerySchema>;
