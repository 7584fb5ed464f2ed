import { Type, type Static } from '@sinclair/typebox';
import { UserSchema } from '../users/index.js';
import { AttachmentSchema } from '../attachments/index.js';

/** The API `Comment` record: a plain comment on an issue or a pull request. */
export const CommentSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'The identifier of the comment' }),
    html_url: Type.String({ description: 'The HTML URL of the comment' }),
    pull_request_url: Type.String({ description: 'The HTML URL of the pull request if the comment is posted on a pull request, else empty string' }),
    issue_url: Type.String({ description: 'The HTML URL of the issue if the comment is posted on an issue, else empty string' }),
    user: UserSchema,
    original_author: Type.String({ description: 'The original author that posted the comment if it was not posted locally, else empty string' }),
    original_author_id: Type.Integer({ format: 'int64', description: 'The ID of the original author that posted the comment if it was not posted locally, else 0' }),
    body: Type.String({ description: 'The body of the comment' }),
    assets: Type.Array(AttachmentSchema, { description: 'The attachments to the comment' }),
    created_at: Type.String({ format: 'date-time', description: "The time of the comment's creation" }),
    updated_at: Type.String({ format: 'date-time', description: "The time of the comment's update" }),
  },
  { $id: 'Comment', description: 'Comment represents a comment on a commit or issue' },
);
export type ApiComment = Static<typeof CommentSchema>;

export const CreateIssueCommentOptionSchema = Type.Object(
  {
    body: Type.String({ description: 'The body of the comment' }),
    updated_at: Type.Optional(Type.String({ format: 'date-time', description: "The time of the comment's update, needs admin or repository owner permission" })),
  },
  { $id: 'CreateIssueCommentOption', description: 'CreateIssueCommentOption options for creating a comment on an issue' },
);
export type CreateIssueCommentOption = Static<typeof CreateIssueCommentOptionSchema>;

export const EditIssueCommentOptionSchema = Type.Object(
  {
    body: Type.String({ description: 'The body of the comment' }),
    updated_at: Type.Optional(Type.String({ format: 'date-time', description: "The time of the comment's update, needs admin or repository owner permission" })),
  },
  { $id: 'EditIssueCommentOption', description: 'EditIssueCommentOption options for editing a comment' },
);
export type EditIssueCommentOption = Static<typeof EditIssueCommentOptionSchema>;

/**
 * `since` and `before` of the comment lists: RFC 3339 times, comments updated in that window. The service parses
 * them (an empty one is absent, as Forgejo reads it; a malformed one is 422), so the schema takes any string.
 */
export const CommentWindowQuerySchema = Type.Object({
  since: Type.Optional(Type.String({ description: 'if provided, only comments updated since the specified time are returned. (date-time)' })),
  before: Type.Optional(Type.String({ description: 'if provided, only comments updated before the provided time are returned. (date-time)' })),
});
