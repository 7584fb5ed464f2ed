import { Type, type Static } from '@sinclair/typebox';
import { CommitMetaSchema, PayloadCommitVerificationSchema, PayloadUserSchema } from '../commits/index.js';
import { TagArchiveDownloadCountSchema } from '../gitdata/index.js';

/** Forgejo's `PayloadCommit`: a commit as branches (and webhooks) show it. The file lists are null there. */
export const PayloadCommitSchema = Type.Object(
  {
    id: Type.String({ description: 'sha1 hash of the commit' }),
    message: Type.String(),
    url: Type.String(),
    author: PayloadUserSchema,
    committer: PayloadUserSchema,
    verification: Type.Union([PayloadCommitVerificationSchema, Type.Null()]),
    timestamp: Type.String({ format: 'date-time' }),
    added: Type.Union([Type.Array(Type.String()), Type.Null()]),
    removed: Type.Union([Type.Array(Type.String()), Type.Null()]),
    modified: Type.Union([Type.Array(Type.String()), Type.Null()]),
  },
  { $id: 'PayloadCommit', description: 'PayloadCommit represents a commit' },
);
export type ApiPayloadCommit = Static<typeof PayloadCommitSchema>;

/** Forgejo's `Branch`. */
export const BranchSchema = Type.Object(
  {
    name: Type.String(),
    commit: PayloadCommitSchema,
    protected: Type.Boolean(),
    required_approvals: Type.Integer({ format: 'int64' }),
    enable_status_check: Type.Boolean(),
    status_check_contexts: Type.Array(Type.String()),
    user_can_push: Type.Boolean(),
    user_can_merge: Type.Boolean(),
    effective_branch_protection_name: Type.String(),
  },
  { $id: 'Branch', description: 'Branch represents a repository branch' },
);
export type ApiBranch = Static<typeof BranchSchema>;

/** `POST /repos/{owner}/{repo}/branches`. */
export const CreateBranchRepoOptionSchema = Type.Object(
  {
    new_branch_name: Type.String({ description: 'Name of the branch to create' }),
    old_branch_name: Type.Optional(Type.String({ description: 'Name of the old branch to create from', deprecated: true })),
    old_ref_name: Type.Optional(Type.String({ description: 'Name of the old branch/tag/commit to create from' })),
  },
  { $id: 'CreateBranchRepoOption', description: 'CreateBranchRepoOption options when creating a branch in a repository' },
);
export type CreateBranchRepoOption = Static<typeof CreateBranchRepoOptionSchema>;

/** `PATCH /repos/{owner}/{repo}/branches/{branch}`: the new name. */
export const UpdateBranchRepoOptionSchema = Type.Object(
  { name: Type.String({ description: 'New branch name' }) },
  { $id: 'UpdateBranchRepoOption', description: 'UpdateBranchRepoOption options when updating a branch in a repository' },
);
export type UpdateBranchRepoOption = Static<typeof UpdateBranchRepoOptionSchema>;

/**
 * `PUT /repos/{owner}/{repo}/branches/{branch}` (Gitea's newer API, not in Forgejo's reference yet): moves a
 * branch to another commit, fast-forward only unless `force`, from `old_commit_id` when given.
 */
export const UpdateBranchRefOptionSchema = Type.Object(
  {
    new_commit_id: Type.String(),
    old_commit_id: Type.Optional(Type.String()),
    force: Type.Optional(Type.Boolean()),
  },
  { title: 'UpdateBranchRefOption', description: 'options when moving a branch to another commit' },
);
export type UpdateBranchRefOption = Static<typeof UpdateBranchRefOptionSchema>;

/** Forgejo's `Tag`. */
export const TagSchema = Type.Object(
  {
    name: Type.String(),
    message: Type.String(),
    id: Type.String(),
    commit: CommitMetaSchema,
    zipball_url: Type.String(),
    tarball_url: Type.String(),
    archive_download_count: TagArchiveDownloadCountSchema,
  },
  { $id: 'Tag', description: 'Tag represents a repository tag' },
);
export type ApiTag = Static<typeof TagSchema>;

/** `POST /repos/{owner}/{repo}/tags`: a message makes an annotated tag; `target` defaults to the default branch. */
export const CreateTagOptionSchema = Type.Object(
  {
    tag_name: Type.String(),
    message: Type.Optional(Type.String()),
    target: Type.Optional(Type.String()),
  },
  { $id: 'CreateTagOption', description: 'CreateTagOption options when creating a tag' },
);
export type CreateTagOption = Static<typeof CreateTagOptionSchema>;
