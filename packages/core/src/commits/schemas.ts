import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { RepositorySchema } from '../repos/index.js';

/** Forgejo's `CommitMeta`: a commit (or tree) named by id, with its API URL. */
export const CommitMetaSchema = Type.Object(
  {
    url: Type.String(),
    sha: Type.String(),
    created: Type.String({ format: 'date-time' }),
  },
  { $id: 'CommitMeta', title: 'CommitMeta contains meta information of a commit in terms of API.' },
);
export type ApiCommitMeta = Static<typeof CommitMetaSchema>;

/** Name, email and RFC 3339 date of a commit's or tag's author, committer or tagger. */
export const CommitUserSchema = Type.Object(
  // Whatever git recorded: a commit's email need not be a valid address.
  { date: Type.String(), email: Type.String(), name: Type.String() },
  { $id: 'CommitUser', title: 'CommitUser contains information of a user in the context of a commit.' },
);
export type ApiCommitUser = Static<typeof CommitUserSchema>;

export const PayloadUserSchema = Type.Object(
  {
    email: Type.String(),
    name: Type.String({ description: 'Full name of the commit author' }),
    username: Type.String(),
  },
  { $id: 'PayloadUser', description: 'PayloadUser represents the author or committer of a commit' },
);

export const PayloadCommitVerificationSchema = Type.Object(
  {
    payload: Type.String(),
    reason: Type.String(),
    signature: Type.String(),
    signer: Type.Union([PayloadUserSchema, Type.Null()]),
    verified: Type.Boolean(),
  },
  { $id: 'PayloadCommitVerification', description: 'PayloadCommitVerification represents the GPG verification of a commit' },
);
export type ApiPayloadCommitVerification = Static<typeof PayloadCommitVerificationSchema>;

/** Forgejo's `RepoCommit`. */
export const RepoCommitSchema = Type.Object(
  {
    url: Type.String(),
    author: CommitUserSchema,
    committer: CommitUserSchema,
    message: Type.String(),
    tree: CommitMetaSchema,
    verification: Type.Union([PayloadCommitVerificationSchema, Type.Null()]),
  },
  { $id: 'RepoCommit', title: 'RepoCommit contains information of a commit in the context of a repository.' },
);
export type ApiRepoCommit = Static<typeof RepoCommitSchema>;

/** Forgejo's `CommitAffectedFiles`. */
export const CommitAffectedFilesSchema = Type.Object(
  {
    filename: Type.String(),
    status: Type.String(),
  },
  { $id: 'CommitAffectedFiles', description: 'CommitAffectedFiles store information about files affected by the commit' },
);
export type ApiCommitAffectedFiles = Static<typeof CommitAffectedFilesSchema>;

/** Forgejo's `CommitStats`. */
export const CommitStatsSchema = Type.Object(
  {
    total: Type.Integer({ format: 'int64' }),
    additions: Type.Integer({ format: 'int64' }),
    deletions: Type.Integer({ format: 'int64' }),
  },
  { $id: 'CommitStats', description: 'CommitStats is statistics for a RepoCommit' },
);
export type ApiCommitStats = Static<typeof CommitStatsSchema>;

/** Forgejo's `Commit`. `files` and `stats` are null when statistics were not asked for. */
export const CommitSchema = Type.Object(
  {
    url: Type.String(),
    sha: Type.String(),
    created: Type.String({ format: 'date-time' }),
    html_url: Type.String(),
    commit: RepoCommitSchema,
    author: Type.Union([UserSchema, Type.Null()]),
    committer: Type.Union([UserSchema, Type.Null()]),
    parents: Type.Array(CommitMetaSchema),
    files: Type.Union([Type.Array(CommitAffectedFilesSchema), Type.Null()]),
    stats: Type.Union([CommitStatsSchema, Type.Null()]),
  },
  { $id: 'Commit', title: 'Commit contains information generated from a Git commit.' },
);
export type ApiCommit = Static<typeof CommitSchema>;

/** Forgejo's `Compare`. */
export const CompareSchema = Type.Object(
  {
    total_commits: Type.Integer({ format: 'int64' }),
    commits: Type.Array(CommitSchema),
  },
  { $id: 'Compare', title: 'Compare represents a comparison between two commits.' },
);
export type ApiCompare = Static<typeof CompareSchema>;

/** What a commit listing or a single commit includes (all true by default, as Forgejo). */
export interface CommitViewOptions {
  /** Statistics (and, with `files`, the changed files). */
  stat?: boolean;
  files?: boolean;
  verification?: boolean;
}

/** The states a status may have (`skipped` is Forgejo Actions' own). */
export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];
export const CommitStatusStateSchema = StringEnum(COMMIT_STATUS_STATES, {
  description: 'CommitStatusState holds the state of a CommitStatus\nIt can be "pending", "success", "error", "failure", and "warning"',
});

export const COMMIT_STATUS_SORTS = ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] as const;
export type CommitStatusSort = (typeof COMMIT_STATUS_SORTS)[number];
export const CommitStatusSortSchema = StringEnum(COMMIT_STATUS_SORTS, { description: 'type of sort' });

/** Forgejo's `CreateStatusOption`. */
export const CreateStatusOptionSchema = Type.Object(
  {
    state: Type.Optional(CommitStatusStateSchema),
    target_url: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    context: Type.Optional(Type.String()),
  },
  { $id: 'CreateStatusOption', description: 'CreateStatusOption holds the information needed to create a new CommitStatus for a Commit' },
);
export type CreateStatusOption = Static<typeof CreateStatusOptionSchema>;

/** Forgejo's `CommitStatus`. */
export const CommitStatusSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    status: CommitStatusStateSchema,
    target_url: Type.String(),
    description: Type.String(),
    url: Type.String(),
    context: Type.String(),
    creator: Type.Union([UserSchema, Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CommitStatus', description: 'CommitStatus holds a single status of a single Commit' },
);
export type ApiCommitStatus = Static<typeof CommitStatusSchema>;

/** Forgejo's `CombinedStatus`; a commit without statuses has an empty one (state "", no repository). */
export const CombinedStatusSchema = Type.Object(
  {
    state: Type.Union([CommitStatusStateSchema, Type.Literal('')]),
    sha: Type.String(),
    total_count: Type.Integer({ format: 'int64' }),
    statuses: Type.Union([Type.Array(CommitStatusSchema), Type.Null()]),
    repository: Type.Union([RepositorySchema, Type.Null()]),
    commit_url: Type.String(),
    url: Type.String(),
  },
  { $id: 'CombinedStatus', description: 'CombinedStatus holds the combined state of several statuses for a single commit' },
);
export type ApiCombinedStatus = Static<typeof CombinedStatusSchema>;
