/**
 * The timeline of an issue: every comment row (plain comments and events) with the objects its type names, as
 * Forgejo's `TimelineComment`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ANONYMOUS } from '../users/index.js';
import { IssueSchema, type ApiIssue } from '../issues/index.js';
import { LabelSchema } from '../labels/index.js';
import { toApiLabelAt } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import { MilestoneSchema } from '../milestones/index.js';
import { toApiMilestone } from '../milestones/index.js';
import type { Milestone } from '../milestones/index.js';
import { TeamSchema } from '../orgs/index.js';
import { TrackedTimeSchema, type ApiTrackedTime } from '../times/index.js';
import { apiUrl } from '../urls.js';
import { toApiUser } from '../users/index.js';
import { UserSchema } from '../users/index.js';
import type { User } from '../users/index.js';
import { isoTime, type ApiView } from '../wire.js';
import { CommentSchema, type ApiComment } from './schemas.js';
import { issueWebUrl, type CommentRelations } from './convert.js';
import type { Comment } from '../timeline/index.js';
import { commentTypeName, REF_ACTIONS } from '../timeline/index.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The API `TimelineComment` record. */
export const TimelineCommentSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    type: Type.String(),
    html_url: Type.String(),
    pull_request_url: Type.String(),
    issue_url: Type.String(),
    user: UserSchema,
    body: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    old_project_id: Type.Integer({ format: 'int64' }),
    project_id: Type.Integer({ format: 'int64' }),
    old_milestone: nullable(MilestoneSchema),
    milestone: nullable(MilestoneSchema),
    tracked_time: nullable(TrackedTimeSchema),
    old_title: Type.String(),
    new_title: Type.String(),
    old_ref: Type.String(),
    new_ref: Type.String(),
    ref_issue: nullable(IssueSchema),
    ref_comment: nullable(CommentSchema),
    ref_action: Type.String(),
    ref_commit_sha: Type.String({ description: 'commit SHA where issue/PR was referenced' }),
    review_id: Type.Integer({ format: 'int64' }),
    label: nullable(LabelSchema),
    assignee: nullable(UserSchema),
    assignee_team: nullable(TeamSchema),
    removed_assignee: Type.Boolean({ description: 'whether the assignees were removed or added' }),
    resolve_doer: nullable(UserSchema),
    dependent_issue: nullable(IssueSchema),
  },
  { $id: 'TimelineComment', description: 'TimelineComment represents a timeline comment (comment of any type) on a commit or issue' },
);
export type ApiTimelineComment = Static<typeof TimelineCommentSchema>;

/** A label as a timeline event shows it: its own repository's URL, or its organization's for organization labels. */
export interface TimelineLabel {
  label: Label;
  /** `/repos/{owner}/{repo}` or `/orgs/{org}` (URL-escaped), the API path the label lives under. */
  basePath: string;
}

/**
 * One timeline entry with what its type names, already loaded (`CommentsService.timeline`). Issues and the
 * tracked time come converted: they depend on the viewer, and their converters live in their domains.
 */
export interface TimelineEntry extends CommentRelations {
  comment: Comment;
  label: TimelineLabel | null;
  milestone: Milestone | null;
  oldMilestone: Milestone | null;
  assignee: User | null;
  dependentIssue: ApiIssue | null;
  refIssue: ApiIssue | null;
  refComment: ApiComment | null;
  trackedTime: ApiTrackedTime | null;
}


/**
 * A timeline entry on the wire, as Forgejo's `ToTimelineComment`: users (poster, assignee) are shown as to an
 * anonymous viewer, issues as to the viewer; objects a type does not name are null.
 */
export function toApiTimelineComment(entry: TimelineEntry, view: ApiView): ApiTimelineComment {
  const { comment, issue, repoPath } = entry;
  const issueUrl = issueWebUrl(view, repoPath, issue);
  const anonymous: ApiView = { viewer: ANONYMOUS, settings: view.settings };
  return {
    id: comment.id,
    type: commentTypeName(comment.type),
    html_url: `${issueUrl}#issuecomment-${comment.id}`,
    pull_request_url: issue.is_pull ? issueUrl : '',
    issue_url: issue.is_pull ? '' : issueUrl,
    user: toApiUser(entry.poster, anonymous),
    body: comment.content,
    created_at: isoTime(comment.created_unix),
    updated_at: isoTime(comment.updated_unix),
    old_project_id: 0,
    project_id: 0,
    old_milestone: entry.oldMilestone ? toApiMilestone(entry.oldMilestone) : null,
    milestone: entry.milestone ? toApiMilestone(entry.milestone) : null,
    tracked_time: entry.trackedTime,
    old_title: comment.old_title,
    new_title: comment.new_title,
    old_ref: comment.old_ref,
    new_ref: comment.new_ref,
    ref_issue: entry.refIssue,
    ref_comment: entry.refComment,
    ref_action: REF_ACTIONS[comment.ref_action] ?? 'none',
    ref_commit_sha: comment.commit_sha,
    review_id: comment.review_id,
    label: entry.label ? toApiLabelAt(entry.label.label, apiUrl(view.settings, `${entry.label.basePath}/labels/${entry.label.label.id}`)) : null,
    assignee: entry.assignee ? toApiUser(entry.assignee, anonymous) : null,
    assignee_team: null,
    removed_assignee: comment.removed_assignee === 1,
    resolve_doer: null,
    dependent_issue: entry.dependentIssue,
  };
}
