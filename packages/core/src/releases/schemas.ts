import { Type, type Static } from '@sinclair/typebox';
import { AttachmentSchema } from '../attachments/index.js';
import { UserSchema } from '../users/index.js';
import { TagArchiveDownloadCountSchema } from '../gitdata/index.js';

/** The API `Release` record. */
export const ReleaseSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    tag_name: Type.String(),
    target_commitish: Type.String(),
    name: Type.String(),
    body: Type.String(),
    url: Type.String(),
    html_url: Type.String(),
    tarball_url: Type.String(),
    zipball_url: Type.String(),
    hide_archive_links: Type.Boolean(),
    upload_url: Type.String(),
    draft: Type.Boolean(),
    prerelease: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    published_at: Type.String({ format: 'date-time' }),
    author: UserSchema,
    assets: Type.Array(AttachmentSchema),
    archive_download_count: TagArchiveDownloadCountSchema,
  },
  { $id: 'Release', description: 'Release represents a repository release' },
);
export type ApiRelease = Static<typeof ReleaseSchema>;

export const CreateReleaseOptionSchema = Type.Object(
  {
    tag_name: Type.String(),
    target_commitish: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    draft: Type.Optional(Type.Boolean()),
    prerelease: Type.Optional(Type.Boolean()),
    hide_archive_links: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateReleaseOption', description: 'CreateReleaseOption options when creating a release' },
);
export type CreateReleaseOption = Static<typeof CreateReleaseOptionSchema>;

export const EditReleaseOptionSchema = Type.Object(
  {
    tag_name: Type.Optional(Type.String()),
    target_commitish: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    draft: Type.Optional(Type.Boolean()),
    prerelease: Type.Optional(Type.Boolean()),
    hide_archive_links: Type.Optional(Type.Boolean()),
  },
  { $id: 'EditReleaseOption', description: 'EditReleaseOption options when editing a release' },
);
export type EditReleaseOption = Static<typeof EditReleaseOptionSchema>;

/** `GET /repos/{owner}/{repo}/releases` filters (a malformed boolean is absent, as Forgejo's FormOptionalBool). */
export const ReleaseListQuerySchema = Type.Object({
  draft: Type.Optional(Type.Boolean({ description: 'filter (exclude / include) drafts, if you dont have repo write access none will show' })),
  'pre-release': Type.Optional(Type.Boolean({ description: 'filter (exclude / include) pre-releases' })),
  q: Type.Optional(Type.String({ description: 'Search string' })),
});
export type ReleaseListQuery = Static<typeof ReleaseListQuerySchema>;
