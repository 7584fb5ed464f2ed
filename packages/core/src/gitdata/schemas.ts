import { Type, type Static } from '@sinclair/typebox';
import { CommitUserSchema, PayloadCommitVerificationSchema } from '../commits/index.js';

// Commits own these (tags and commits share them); re-exported where the tag schemas use them.
export {
  CommitUserSchema,
  PayloadUserSchema,
  PayloadCommitVerificationSchema,
  type ApiCommitUser,
  type ApiPayloadCommitVerification,
} from '../commits/index.js';

/** `GET /repos/{owner}/{repo}/git/blobs/{sha}`: the blob's bytes in base64 (empty over `[api] DEFAULT_MAX_BLOB_SIZE`). */
export const GitBlobResponseSchema = Type.Object(
  {
    content: Type.String(),
    encoding: Type.String(),
    sha: Type.String(),
    size: Type.Integer({ format: 'int64' }),
    url: Type.String(),
  },
  { $id: 'GitBlob', description: 'GitBlob represents a git blob' },
);
export type ApiGitBlobResponse = Static<typeof GitBlobResponseSchema>;

export const GitEntrySchema = Type.Object(
  {
    mode: Type.String(),
    path: Type.String(),
    sha: Type.String(),
    size: Type.Integer({ format: 'int64' }),
    type: Type.String(),
    url: Type.String(),
  },
  { $id: 'GitEntry', description: 'GitEntry represents a git tree' },
);
export type ApiGitEntry = Static<typeof GitEntrySchema>;

/** `GET /repos/{owner}/{repo}/git/trees/{sha}`. */
export const GitTreeResponseSchema = Type.Object(
  {
    page: Type.Integer({ format: 'int64' }),
    sha: Type.String(),
    total_count: Type.Integer({ format: 'int64' }),
    tree: Type.Array(GitEntrySchema),
    truncated: Type.Boolean(),
    url: Type.String(),
  },
  { $id: 'GitTreeResponse', description: 'GitTreeResponse returns a git tree' },
);
export type ApiGitTreeResponse = Static<typeof GitTreeResponseSchema>;

/** `GET /git/trees/{sha}` query: the one place `per_page` is read. */
export const GitTreeQuerySchema = Type.Object({
  recursive: Type.Optional(Type.Boolean({ description: 'show all directories and files' })),
  page: Type.Optional(Type.Integer({ description: "page number; the 'truncated' field in the response will be true if there are still more items after this page, false if the last page" })),
  per_page: Type.Optional(Type.Integer({ description: 'number of items per page' })),
});
export type GitTreeQuery = Static<typeof GitTreeQuerySchema>;

export const GitObjectSchema = Type.Object(
  { sha: Type.String(), type: Type.String(), url: Type.String() },
  { $id: 'GitObject', title: 'GitObject represents a Git object.' },
);

/** One ref of `GET /git/refs[/{ref}]`. */
export const ReferenceSchema = Type.Object(
  { object: GitObjectSchema, ref: Type.String(), url: Type.String() },
  { $id: 'Reference', title: 'Reference represents a Git reference.' },
);
export type ApiReference = Static<typeof ReferenceSchema>;

export const AnnotatedTagObjectSchema = Type.Object(
  { sha: Type.String(), type: Type.String(), url: Type.String() },
  { $id: 'AnnotatedTagObject', description: 'AnnotatedTagObject contains meta information of the tag object' },
);

export const TagArchiveDownloadCountSchema = Type.Object(
  { tar_gz: Type.Integer({ format: 'int64' }), zip: Type.Integer({ format: 'int64' }) },
  { $id: 'TagArchiveDownloadCount', description: 'TagArchiveDownloadCount counts how many times a archive was downloaded' },
);

/** `GET /git/tags/{sha}`: an annotated tag object. */
export const AnnotatedTagSchema = Type.Object(
  {
    archive_download_count: TagArchiveDownloadCountSchema,
    message: Type.String(),
    object: AnnotatedTagObjectSchema,
    sha: Type.String(),
    tag: Type.String(),
    tagger: CommitUserSchema,
    url: Type.String(),
    verification: PayloadCommitVerificationSchema,
  },
  { $id: 'AnnotatedTag', description: 'AnnotatedTag represents an annotated tag' },
);
export type ApiAnnotatedTag = Static<typeof AnnotatedTagSchema>;

/** `?ref=` of `/raw`, `/media`, `/editorconfig`. */
export const RefQuerySchema = Type.Object({
  ref: Type.Optional(Type.String({ description: 'The name of the commit/branch/tag. Default the repository’s default branch (usually master)' })),
});

/** `GET /editorconfig/{filepath}`: the properties that apply to the file. */
export const EditorConfigDefinitionSchema = Type.Object({}, { additionalProperties: Type.String() });
