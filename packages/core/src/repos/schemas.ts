import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { OBJECT_FORMATS } from '../git/index.js';
import { REPO_NAME_MAX_LENGTH } from './names.js';
import { MERGE_STYLES, UPDATE_STYLES } from './units.js';

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

export const GenerateRepoOptionSchema = Type.Object(
  {
    owner: Type.String({ description: 'The organization or person who will own the new repository' }),
    name: Type.String({ maxLength: REPO_NAME_MAX_LENGTH, description: 'Name of the repository to create' }),
    default_branch: Type.Optional(Type.String({ maxLength: 100, description: 'Default branch of the new repository' })),
    description: Type.Optional(Type.String({ maxLength: 2048 })),
    private: Type.Optional(Type.Boolean()),
    git_content: Type.Optional(Type.Boolean({ description: 'include git content of default branch in template repo' })),
    topics: Type.Optional(Type.Boolean({ description: 'include topics in template repo' })),
    git_hooks: Type.Optional(Type.Boolean({ description: 'include git hooks in template repo' })),
    webhooks: Type.Optional(Type.Boolean({ description: 'include webhooks in template repo' })),
    avatar: Type.Optional(Type.Boolean({ description: 'include avatar of the template repo' })),
    labels: Type.Optional(Type.Boolean({ description: 'include labels in template repo' })),
    protected_branch: Type.Optional(Type.Boolean({ description: 'include protected branches in template repo' })),
  },
  { $id: 'GenerateRepoOption', description: 'GenerateRepoOption options when creating repository using a template' },
);
export type GenerateRepoOption = Static<typeof GenerateRepoOptionSchema>;

export const PermissionSchema = Type.Object(
  { admin: Type.Boolean(), push: Type.Boolean(), pull: Type.Boolean() },
  { $id: 'Permission' },
);
export type ApiPermission = Static<typeof PermissionSchema>;

// The tracker and wiki settings are read as well as written (EditRepoOption): every field is optional, as in
// Forgejo's definitions, so a partial object reads as Go reads it (absent fields are false or empty).
export const InternalTrackerSchema = Type.Object(
  {
    enable_time_tracker: Type.Optional(Type.Boolean({ description: 'Enable time tracking (Built-in issue tracker)' })),
    allow_only_contributors_to_track_time: Type.Optional(Type.Boolean({ description: 'Let only contributors track time (Built-in issue tracker)' })),
    enable_issue_dependencies: Type.Optional(Type.Boolean({ description: 'Enable dependencies for issues and pull requests (Built-in issue tracker)' })),
  },
  { $id: 'InternalTracker', description: 'InternalTracker represents settings for internal tracker' },
);

export const ExternalTrackerSchema = Type.Object(
  {
    external_tracker_url: Type.Optional(Type.String({ description: 'URL of external issue tracker.' })),
    external_tracker_format: Type.Optional(Type.String({ description: 'External Issue Tracker URL Format. Use the placeholders {user}, {repo} and {index} for the username, repository name and issue index.' })),
    external_tracker_style: Type.Optional(Type.String({ description: 'External Issue Tracker Number Format, either `numeric`, `alphanumeric`, or `regexp`' })),
    external_tracker_regexp_pattern: Type.Optional(Type.String({ description: 'External Issue Tracker issue regular expression' })),
  },
  { $id: 'ExternalTracker', description: 'ExternalTracker represents settings for external tracker' },
);

export const ExternalWikiSchema = Type.Object(
  { external_wiki_url: Type.Optional(Type.String({ description: 'URL of external wiki.' })) },
  { $id: 'ExternalWiki', description: 'ExternalWiki represents setting for external wiki' },
);

/** A pending transfer, as `Repository.repo_transfer` shows it. */
export const RepoTransferSchema = Type.Object(
  {
    doer: UserSchema,
    recipient: UserSchema,
    teams: Type.Array(Type.Unknown()),
  },
  { $id: 'RepoTransfer', description: 'RepoTransfer represents a pending repo transfer' },
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
    // A fork's parent: a Repository (its own parent null), or null.
    parent: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
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
    internal_tracker: Type.Union([InternalTrackerSchema, Type.Null()]),
    external_tracker: Type.Union([ExternalTrackerSchema, Type.Null()]),
    has_wiki: Type.Boolean(),
    external_wiki: Type.Union([ExternalWikiSchema, Type.Null()]),
    has_wiki_contents: Type.Boolean(),
    wiki_clone_url: Type.String(),
    wiki_ssh_url: Type.String(),
    wiki_branch: Type.String(),
    globally_editable_wiki: Type.Boolean(),
    has_pull_requests: Type.Boolean(),
    has_projects: Type.Boolean(),
    // Gitea's fields (its clients read them), beside Forgejo's.
    has_code: Type.Boolean(),
    projects_mode: Type.String(),
    licenses: Type.Array(Type.String()),
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
    allow_manual_merge: Type.Boolean(),
    autodetect_manual_merge: Type.Boolean(),
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
    repo_transfer: Type.Union([RepoTransferSchema, Type.Null()]),
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

/** `default_merge_style` values EditRepoOption accepts: the merge styles and `rebase-update-only`. */
export const DEFAULT_MERGE_STYLES = [...MERGE_STYLES, 'rebase-update-only'] as const;

export const EditRepoOptionSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: REPO_NAME_MAX_LENGTH, description: 'name of the repository' })),
    description: Type.Optional(Type.String({ maxLength: 2048, description: 'a short description of the repository.' })),
    website: Type.Optional(Type.String({ maxLength: 1024, description: 'a URL with more information about the repository.' })),
    private: Type.Optional(Type.Boolean({ description: 'either `true` to make the repository private or `false` to make it public.' })),
    template: Type.Optional(Type.Boolean({ description: 'either `true` to make this repository a template or `false` to make it a normal repository' })),
    has_issues: Type.Optional(Type.Boolean({ description: 'either `true` to enable issues for this repository or `false` to disable them.' })),
    internal_tracker: Type.Optional(InternalTrackerSchema),
    external_tracker: Type.Optional(ExternalTrackerSchema),
    has_wiki: Type.Optional(Type.Boolean({ description: 'either `true` to enable the wiki for this repository or `false` to disable it.' })),
    external_wiki: Type.Optional(ExternalWikiSchema),
    globally_editable_wiki: Type.Optional(Type.Boolean({ description: 'set the globally editable state of the wiki' })),
    default_branch: Type.Optional(Type.String({ description: 'sets the default branch for this repository.' })),
    wiki_branch: Type.Optional(Type.String({ description: "sets the branch used for this repository's wiki." })),
    has_pull_requests: Type.Optional(Type.Boolean({ description: 'either `true` to allow pull requests, or `false` to prevent pull request.' })),
    has_projects: Type.Optional(Type.Boolean({ description: 'either `true` to enable project unit, or `false` to disable them.' })),
    has_releases: Type.Optional(Type.Boolean({ description: 'either `true` to enable releases unit, or `false` to disable them.' })),
    has_packages: Type.Optional(Type.Boolean({ description: 'either `true` to enable packages unit, or `false` to disable them.' })),
    has_actions: Type.Optional(Type.Boolean({ description: 'either `true` to enable actions unit, or `false` to disable them.' })),
    ignore_whitespace_conflicts: Type.Optional(Type.Boolean()),
    allow_merge_commits: Type.Optional(Type.Boolean()),
    allow_rebase: Type.Optional(Type.Boolean()),
    allow_rebase_explicit: Type.Optional(Type.Boolean()),
    allow_squash_merge: Type.Optional(Type.Boolean()),
    allow_fast_forward_only_merge: Type.Optional(Type.Boolean()),
    allow_manual_merge: Type.Optional(Type.Boolean()),
    autodetect_manual_merge: Type.Optional(Type.Boolean()),
    allow_rebase_update: Type.Optional(Type.Boolean()),
    default_delete_branch_after_merge: Type.Optional(Type.Boolean()),
    default_merge_style: Type.Optional(StringEnum(DEFAULT_MERGE_STYLES, { description: 'set to a merge style to be used by this repository' })),
    default_update_style: Type.Optional(StringEnum(UPDATE_STYLES, { description: 'set to a update style to be used by this repository: "rebase" or "merge"' })),
    default_allow_maintainer_edit: Type.Optional(Type.Boolean()),
    archived: Type.Optional(Type.Boolean({ description: 'set to `true` to archive this repository.' })),
    mirror_interval: Type.Optional(Type.String({ description: 'set to a string like `8h30m0s` to set the mirror interval time' })),
    enable_prune: Type.Optional(Type.Boolean({ description: 'enable prune - remove obsolete remote-tracking references when mirroring' })),
  },
  { $id: 'EditRepoOption', description: "EditRepoOption options when editing a repository's properties" },
);
export type EditRepoOption = Static<typeof EditRepoOptionSchema>;

export const TransferRepoOptionSchema = Type.Object(
  {
    new_owner: Type.String(),
    team_ids: Type.Optional(
      Type.Array(Type.Integer({ format: 'int64' }), {
        description: 'ID of the team or teams to add to the repository. Teams can only be added to organization-owned repositories.',
      }),
    ),
  },
  { $id: 'TransferRepoOption', description: "TransferRepoOption options when transfer a repository's ownership" },
);
export type TransferRepoOption = Static<typeof TransferRepoOptionSchema>;

export const RepositoryMetaSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    owner: Type.String(),
    full_name: Type.String(),
  },
  { $id: 'RepositoryMeta', description: 'RepositoryMeta basic repository information' },
);
export type ApiRepositoryMeta = Static<typeof RepositoryMetaSchema>;
