import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
// Shared wire types: one schema per $id (git data owns the commit people and verification, commits the meta).
import { CommitUserSchema, PayloadCommitVerificationSchema, type ApiPayloadCommitVerification } from '../gitdata/index.js';
import { CommitMetaSchema } from '../commits/index.js';

export type { ApiPayloadCommitVerification };

const NullableString = (options: { description?: string } = {}) => Type.Union([Type.String(), Type.Null()], options);

export const FileLinksResponseSchema = Type.Object(
  { git: NullableString(), html: NullableString(), self: NullableString() },
  { $id: 'FileLinksResponse', description: "FileLinksResponse contains the links for a repo's file" },
);

/** One entry of a repository's tree (file, dir, symlink or submodule); only a file read alone carries `content`. */
export const ContentsResponseSchema = Type.Object(
  {
    name: Type.String(),
    path: Type.String(),
    sha: Type.String(),
    last_commit_sha: Type.String(),
    last_commit_when: Type.String({ format: 'date-time' }),
    // Gitea's names for the last commit's dates (null without one), beside Forgejo's `last_commit_when`.
    last_committer_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_author_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    type: Type.String({ description: '`type` will be `file`, `dir`, `symlink`, or `submodule`' }),
    size: Type.Integer({ format: 'int64' }),
    encoding: NullableString({ description: '`encoding` is populated when `type` is `file`, otherwise null' }),
    content: NullableString({ description: '`content` is populated when `type` is `file`, otherwise null' }),
    target: NullableString({ description: '`target` is populated when `type` is `symlink`, otherwise null' }),
    url: NullableString(),
    html_url: NullableString(),
    git_url: NullableString(),
    download_url: NullableString(),
    submodule_git_url: NullableString({ description: '`submodule_git_url` is populated when `type` is `submodule`, otherwise null' }),
    _links: FileLinksResponseSchema,
  },
  {
    $id: 'ContentsResponse',
    description: "ContentsResponse contains information about a repo's entry's (dir, file, symlink, submodule) metadata and content",
  },
);
export type ApiContentsResponse = Static<typeof ContentsResponseSchema>;

/** `GET /contents/{filepath}`: one entry, or a directory's entries. */
export const ContentsOrListSchema = Type.Union([ContentsResponseSchema, Type.Array(ContentsResponseSchema)]);

export const FileCommitResponseSchema = Type.Object(
  {
    url: Type.String(),
    sha: Type.String(),
    created: Type.String({ format: 'date-time' }),
    html_url: Type.String(),
    author: CommitUserSchema,
    committer: CommitUserSchema,
    parents: Type.Array(CommitMetaSchema),
    message: Type.String(),
    tree: CommitMetaSchema,
  },
  { $id: 'FileCommitResponse', title: "FileCommitResponse contains information generated from a Git commit for a repo's file." },
);
export type ApiFileCommitResponse = Static<typeof FileCommitResponseSchema>;

export const FileResponseSchema = Type.Object(
  { content: Type.Union([ContentsResponseSchema, Type.Null()]), commit: FileCommitResponseSchema, verification: PayloadCommitVerificationSchema },
  { $id: 'FileResponse', description: "FileResponse contains information about a repo's file" },
);
export type ApiFileResponse = Static<typeof FileResponseSchema>;

export const FilesResponseSchema = Type.Object(
  { files: Type.Array(Type.Union([ContentsResponseSchema, Type.Null()])), commit: FileCommitResponseSchema, verification: PayloadCommitVerificationSchema },
  { $id: 'FilesResponse', description: 'FilesResponse contains information about multiple files from a repo' },
);
export type ApiFilesResponse = Static<typeof FilesResponseSchema>;

export const FileDeleteResponseSchema = Type.Object(
  { content: Type.Null(), commit: FileCommitResponseSchema, verification: PayloadCommitVerificationSchema },
  { $id: 'FileDeleteResponse', description: "FileDeleteResponse contains information about a repo's file that was deleted" },
);
export type ApiFileDeleteResponse = Static<typeof FileDeleteResponseSchema>;

const IdentitySchema = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 100 })), email: Type.Optional(Type.String({ maxLength: 254 })) },
  { $id: 'Identity', description: "Identity for a person's identity like an author or committer" },
);
export type Identity = Static<typeof IdentitySchema>;

const CommitDateOptionsSchema = Type.Object(
  { author: Type.Optional(Type.String({ format: 'date-time' })), committer: Type.Optional(Type.String({ format: 'date-time' })) },
  { $id: 'CommitDateOptions', description: 'CommitDateOptions store dates for GIT_AUTHOR_DATE and GIT_COMMITTER_DATE' },
);

/** What every write takes besides its files. */
const fileOptions = {
  author: Type.Optional(IdentitySchema),
  committer: Type.Optional(IdentitySchema),
  branch: Type.Optional(Type.String({ description: 'branch (optional) to base this file from. if not given, the default branch is used' })),
  new_branch: Type.Optional(Type.String({ description: 'new_branch (optional) will make a new branch from `branch` before creating the file' })),
  message: Type.Optional(Type.String({ description: 'message (optional) for the commit of this file. if not supplied, a default message will be used' })),
  dates: Type.Optional(CommitDateOptionsSchema),
  signoff: Type.Optional(Type.Boolean({ description: 'Add a Signed-off-by trailer by the committer at the end of the commit log message.' })),
  force_overwrite_new_branch: Type.Optional(Type.Boolean({ description: '(optional) will do a force-push if the new branch already exists' })),
};

export const ChangeFileOperationSchema = Type.Object(
  {
    operation: StringEnum(['create', 'update', 'delete'], { description: 'indicates what to do with the file' }),
    path: Type.String({ description: 'path to the existing or new file' }),
    content: Type.Optional(Type.String({ description: 'new or updated file content, must be base64 encoded' })),
    sha: Type.Optional(Type.String({ description: 'sha is the SHA for the file that already exists, required for update or delete' })),
    from_path: Type.Optional(Type.String({ description: 'old path of the file to move' })),
  },
  { $id: 'ChangeFileOperation', description: 'ChangeFileOperation for creating, updating or deleting a file' },
);
export type ChangeFileOperation = Static<typeof ChangeFileOperationSchema>;

export const ChangeFilesOptionsSchema = Type.Object(
  { ...fileOptions, files: Type.Array(ChangeFileOperationSchema, { description: 'list of file operations' }) },
  { $id: 'ChangeFilesOptions', description: 'ChangeFilesOptions options for creating, updating or deleting multiple files' },
);
export type ChangeFilesOptions = Static<typeof ChangeFilesOptionsSchema>;

export const CreateFileOptionsSchema = Type.Object(
  { ...fileOptions, content: Type.String({ description: 'content must be base64 encoded' }) },
  { $id: 'CreateFileOptions', description: 'CreateFileOptions options for creating files' },
);
export type CreateFileOptions = Static<typeof CreateFileOptionsSchema>;

export const UpdateFileOptionsSchema = Type.Object(
  {
    ...fileOptions,
    content: Type.String({ description: 'content must be base64 encoded' }),
    sha: Type.String({ description: 'sha is the SHA for the file that already exists' }),
    from_path: Type.Optional(Type.String({ description: 'from_path (optional) is the path of the original file which will be moved/renamed to the path in the URL' })),
  },
  { $id: 'UpdateFileOptions', description: 'UpdateFileOptions options for updating files' },
);
export type UpdateFileOptions = Static<typeof UpdateFileOptionsSchema>;

export const DeleteFileOptionsSchema = Type.Object(
  { ...fileOptions, sha: Type.String({ description: 'sha is the SHA for the file that already exists' }) },
  { $id: 'DeleteFileOptions', description: 'DeleteFileOptions options for deleting files (used for other File structs below)' },
);
export type DeleteFileOptions = Static<typeof DeleteFileOptionsSchema>;

export const ContentsQuerySchema = Type.Object({
  ref: Type.Optional(Type.String({ description: 'The name of the commit/branch/tag. Default the repository’s default branch (usually master)' })),
});

/** `GET /sync_fork[/{branch}]`: whether a fork's branch may be fast-forwarded to its base repository's branch. */
export const SyncForkInfoSchema = Type.Object(
  {
    allowed: Type.Boolean(),
    fork_commit: Type.String(),
    base_commit: Type.String(),
    commits_behind: Type.Integer({ format: 'int64' }),
  },
  { $id: 'SyncForkInfo', description: 'SyncForkInfo information about syncing a fork' },
);
export type ApiSyncForkInfo = Static<typeof SyncForkInfoSchema>;
