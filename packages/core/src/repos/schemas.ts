import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/validate.js';
import { UserSchema } from '../users/schemas.js';
import { OBJECT_FORMATS } from '../git/backend.js';
import { REPO_NAME_MAX_LENGTH } from './names.js';

/** `sha1` or `sha256`. */
export const ObjectFormatSchema = StringEnum(OBJECT_FORMATS);

/** How commit signatures are trusted. */
export const TRUST_MODELS = ['default', 'collaborator', 'committer', 'collaboratorcommitter'] as const;

export const CreateRepoOptionSchema = Type.Object(
  {
    name: Type.String({ maxLength: REPO_NAME_MAX_LENGTH, description: 'Name of the repository to create' }),
    description: Type.Optional(Type.String({ maxLength: 2048 })),
    private: Type.Optional(Type.Boolean()),
    auto_init: Type.Optional(Type.Boolean({ description: 'Whether the repository should be auto-initialized' })),
    gitignores: Type.Optional(Type.String()),
    license: Type.Optional(Type.String()),
    readme: Type.Optional(Type.String()),
    issue_labels: Type.Optional(Type.String()),
    default_branch: Type.Optional(Type.String({ maxLength: 100 })),
    template: Type.Optional(Type.Boolean()),
    trust_model: Type.Optional(StringEnum(TRUST_MODELS)),
    object_format_name: Type.Optional(ObjectFormatSchema),
  },
  { $id: 'CreateRepoOption', description: 'CreateRepoOption options when creating repository' },
);
export type CreateRepoOption = Static<typeof CreateRepoOptionSchema>;

export const PermissionSchema = Type.Object(
  { admin: Type.Boolean(), push: Type.Boolean(), pull: Type.Boolean() },
  { $id: 'Permission' },
);
export type ApiPermission = Static<typeof PermissionSchema>;

const InternalTrackerSchema = Type.Object(
  {
    enable_time_tracker: Type.Boolean(),
    allow_only_contributors_to_track_time: Type.Boolean(),
    enable_issue_dependencies: Type.Boolean(),
  },
  { $id: 'InternalTracker' },
);

/** The API `Repository` record. */
export const RepositorySchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    owner: UserSchema,
    name: Type.String(),
    full_name: Type.String(),
    description: Type.String(),
    empty: Type.Boolean(),
    private: Type.Boolean(),
    fork: Type.Boolean(),
    template: Type.Boolean(),
    parent: Type.Null(),
    mirror: Type.Boolean(),
    size: Type.Integer({ format: 'int64' }),
    language: Type.String(),
    languages_url: Type.String(),
    html_url: Type.String(),
    url: Type.String(),
    link: Type.String(),
    ssh_url: Type.String(),
    clone_url: Type.String(),
    original_url: Type.String(),
    website: Type.String(),
    stars_count: Type.Integer({ format: 'int64' }),
    forks_count: Type.Integer({ format: 'int64' }),
    watchers_count: Type.Integer({ format: 'int64' }),
    open_issues_count: Type.Integer({ format: 'int64' }),
    open_pr_counter: Type.Integer({ format: 'int64' }),
    release_counter: Type.Integer({ format: 'int64' }),
    default_branch: Type.String(),
    archived: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    archived_at: Type.String({ format: 'date-time' }),
    permissions: PermissionSchema,
    has_issues: Type.Boolean(),
    internal_tracker: InternalTrackerSchema,
    has_wiki: Type.Boolean(),
    wiki_branch: Type.String(),
    globally_editable_wiki: Type.Boolean(),
    has_pull_requests: Type.Boolean(),
    has_projects: Type.Boolean(),
    has_releases: Type.Boolean(),
    has_packages: Type.Boolean(),
    has_actions: Type.Boolean(),
    ignore_whitespace_conflicts: Type.Boolean(),
    allow_merge_commits: Type.Boolean(),
    allow_rebase: Type.Boolean(),
    allow_rebase_explicit: Type.Boolean(),
    allow_squash_merge: Type.Boolean(),
    allow_fast_forward_only_merge: Type.Boolean(),
    allow_rebase_update: Type.Boolean(),
    default_delete_branch_after_merge: Type.Boolean(),
    default_merge_style: Type.String(),
    default_update_style: Type.String(),
    default_allow_maintainer_edit: Type.Boolean(),
    avatar_url: Type.String(),
    internal: Type.Boolean(),
    mirror_interval: Type.String(),
    object_format_name: ObjectFormatSchema,
    mirror_updated: Type.String({ format: 'date-time' }),
    topics: Type.Array(Type.String()),
  },
  { $id: 'Repository', description: 'Repository represents a repository' },
);
export type ApiRepository = Static<typeof RepositorySchema>;

/** The orderings a repository list accepts (`order_by`). */
export const REPO_ORDER_BY = [
  'name', 'id', 'alphabetically', 'reversealphabetically', 'newest', 'oldest', 'recentupdate', 'leastupdate',
  'size', 'reversesize', 'moststars', 'feweststars', 'mostforks', 'fewestforks',
] as const;
export type RepoOrderBy = (typeof REPO_ORDER_BY)[number];
export const RepoOrderBySchema = StringEnum(REPO_ORDER_BY, { description: 'order the repositories by' });
