import { Type, type Static } from '@sinclair/typebox';
import { CommitUserSchema } from '../commits/index.js';

/** Forgejo's `WikiCommit`: a revision of a page (its committer under Forgejo's spelling, `commiter`). */
export const WikiCommitSchema = Type.Object(
  {
    sha: Type.String(),
    author: CommitUserSchema,
    commiter: CommitUserSchema,
    message: Type.String(),
  },
  { $id: 'WikiCommit', description: 'WikiCommit page commit/revision' },
);
export type ApiWikiCommit = Static<typeof WikiCommitSchema>;

/** Forgejo's `WikiPageMetaData`: a page as a list of pages shows it. */
export const WikiPageMetaDataSchema = Type.Object(
  {
    title: Type.String(),
    html_url: Type.String(),
    sub_url: Type.String(),
    last_commit: WikiCommitSchema,
  },
  { $id: 'WikiPageMetaData', description: 'WikiPageMetaData wiki page meta information' },
);
export type ApiWikiPageMetaData = Static<typeof WikiPageMetaDataSchema>;

/** Forgejo's `WikiPage`: a page with its raw content (base64), its wiki's sidebar and footer, and its revisions' count. */
export const WikiPageSchema = Type.Object(
  {
    title: Type.String(),
    html_url: Type.String(),
    sub_url: Type.String(),
    last_commit: WikiCommitSchema,
    content_base64: Type.String({ description: 'Page content, base64 encoded' }),
    commit_count: Type.Integer({ format: 'int64' }),
    sidebar: Type.String(),
    footer: Type.String(),
  },
  { $id: 'WikiPage', description: 'WikiPage a wiki page' },
);
export type ApiWikiPage = Static<typeof WikiPageSchema>;

/** Forgejo's `WikiCommitList`: a page of a page's revisions, and how many there are in all. */
export const WikiCommitListSchema = Type.Object(
  {
    commits: Type.Array(WikiCommitSchema),
    count: Type.Integer({ format: 'int64' }),
  },
  { $id: 'WikiCommitList', description: 'WikiCommitList commit/revision list' },
);
export type ApiWikiCommitList = Static<typeof WikiCommitListSchema>;

/** Forgejo's `CreateWikiPageOptions`, for new pages and edits alike. */
export const CreateWikiPageOptionsSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ description: 'page title. leave empty to keep unchanged' })),
    content_base64: Type.Optional(Type.String({ description: 'content must be base64 encoded' })),
    message: Type.Optional(Type.String({ description: 'optional commit message summarizing the change' })),
  },
  { $id: 'CreateWikiPageOptions', description: 'CreateWikiPageOptions form for creating wiki' },
);
export type CreateWikiPageOptions = Static<typeof CreateWikiPageOptionsSchema>;

/** `?page=` of a page's revisions (Forgejo takes no `limit` there: a page is `[git] COMMITS_RANGE_SIZE` long). */
export const WikiRevisionsQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
});
