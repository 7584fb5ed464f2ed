// GENERATED FILE, do not edit: `node scripts/generate-client.mjs` writes it from the routes of @repohost/server
// (packages/client/test/generated.test.ts fails when it is stale).
/* eslint-disable */
import { filePath, pageRequest, segment, type CallOptions, type PageRequest, type Transport } from './transport.js';

// Wire types, by their Forgejo definition names.

/** ActionRun represents an action run */
export interface ActionRun {
  /** the action run id */
  id: number;
  /** the action run's title */
  title: string;
  repository?: Repository;
  owner_id?: number;
  /** the name of workflow file */
  workflow_id: string;
  /** a unique number for each run of a repository */
  index_in_repo: number;
  trigger_user?: User | null;
  /** the cron id for the schedule trigger */
  ScheduleID: number;
  /** the commit/tag/… the action run ran on */
  prettyref: string;
  /** has the commit/tag/… the action run ran on been deleted */
  is_ref_deleted: boolean;
  /** the commit sha the action run ran on */
  commit_sha: string;
  /** If this is triggered by a PR from a forked repository or an untrusted user, we need to check if it is approved and limit permissions when running the workflow. */
  is_fork_pull_request: boolean;
  /** may need approval if it's a fork pull request */
  need_approval: boolean;
  /** who approved this action run */
  approved_by: number;
  /** the webhook event that causes the workflow to run */
  event: string;
  /** the payload of the webhook event that causes the workflow to run */
  event_payload: string;
  /** the trigger event defined in the `on` configuration of the triggered workflow */
  trigger_event: string;
  /** the current status of this run */
  status: string;
  /** when the action run was started */
  started: string;
  /** when the action run was stopped */
  stopped: string;
  /** when the action run was created */
  created: string;
  /** when the action run was last updated */
  updated: string;
  /** how long the action run ran for (nanoseconds) */
  duration: number;
  /** the url of this action run */
  html_url: string;
  /** RepoHost's own, present only when the workflow could not run at all: why (its file does not parse, its jobs' needs are wrong) */
  pre_execution_error?: string;
}

/** Repository represents a repository */
export interface Repository {
  id: number;
  owner: User;
  name: string;
  full_name: string;
  description: string;
  empty: boolean;
  private: boolean;
  fork: boolean;
  template: boolean;
  parent: null | Record<string, unknown>;
  mirror: boolean;
  size: number;
  language: string;
  languages_url: string;
  html_url: string;
  url: string;
  link: string;
  ssh_url: string;
  clone_url: string;
  original_url: string;
  website: string;
  stars_count: number;
  forks_count: number;
  watchers_count: number;
  open_issues_count: number;
  open_pr_counter: number;
  release_counter: number;
  default_branch: string;
  archived: boolean;
  created_at: string;
  updated_at: string;
  archived_at: string;
  permissions: Permission;
  has_issues: boolean;
  internal_tracker: InternalTracker | null;
  external_tracker: ExternalTracker | null;
  has_wiki: boolean;
  external_wiki: ExternalWiki | null;
  has_wiki_contents: boolean;
  wiki_clone_url: string;
  wiki_ssh_url: string;
  wiki_branch: string;
  globally_editable_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_code: boolean;
  projects_mode: string;
  licenses: string[];
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_rebase_update: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  default_delete_branch_after_merge: boolean;
  default_merge_style: string;
  default_update_style: string;
  default_allow_maintainer_edit: boolean;
  avatar_url: string;
  internal: boolean;
  mirror_interval: string;
  object_format_name: "sha1" | "sha256";
  mirror_updated: string;
  topics: string[];
  repo_transfer: RepoTransfer | null;
}

/** User represents a user */
export interface User {
  id: number;
  login: string;
  username: string;
  login_name: string;
  source_id: number;
  full_name: string;
  email: string;
  avatar_url: string;
  html_url: string;
  language: string;
  is_admin: boolean;
  last_login: string;
  created: string;
  restricted: boolean;
  active: boolean;
  prohibit_login: boolean;
  location: string;
  pronouns: string;
  website: string;
  description: string;
  visibility: "public" | "limited" | "private";
  followers_count: number;
  following_count: number;
  starred_repos_count: number;
}

export interface Permission {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

/** InternalTracker represents settings for internal tracker */
export interface InternalTracker {
  /** Enable time tracking (Built-in issue tracker) */
  enable_time_tracker?: boolean;
  /** Let only contributors track time (Built-in issue tracker) */
  allow_only_contributors_to_track_time?: boolean;
  /** Enable dependencies for issues and pull requests (Built-in issue tracker) */
  enable_issue_dependencies?: boolean;
}

/** ExternalTracker represents settings for external tracker */
export interface ExternalTracker {
  /** URL of external issue tracker. */
  external_tracker_url?: string;
  /** External Issue Tracker URL Format. Use the placeholders {user}, {repo} and {index} for the username, repository name and issue index. */
  external_tracker_format?: string;
  /** External Issue Tracker Number Format, either `numeric`, `alphanumeric`, or `regexp` */
  external_tracker_style?: string;
  /** External Issue Tracker issue regular expression */
  external_tracker_regexp_pattern?: string;
}

/** ExternalWiki represents setting for external wiki */
export interface ExternalWiki {
  /** URL of external wiki. */
  external_wiki_url?: string;
}

/** RepoTransfer represents a pending repo transfer */
export interface RepoTransfer {
  doer: User;
  recipient: User;
  teams: unknown[];
}

/** DispatchWorkflowOption options when dispatching a workflow */
export interface DispatchWorkflowOption {
  /** Git reference for the workflow */
  ref: string;
  /** Input keys and values configured in the workflow file. */
  inputs?: Record<string, string>;
  /** Flag to return the run info */
  return_run_info?: boolean;
}

/** DispatchWorkflowRun represents a workflow run */
export interface DispatchWorkflowRun {
  /** the workflow run id */
  id: number;
  /** a unique number for each run of a repository */
  run_number: number;
  /** the jobs name */
  jobs: string[];
}

/** ActionArtifact represents an artifact of a workflow run */
export interface ActionArtifact {
  /** the artifact's ID */
  id: number;
  /** the artifact's name */
  name: string;
  /** the total size of the artifact in bytes */
  size_in_bytes: number;
  /** the URL to download the artifact zip archive */
  archive_download_url: string;
  /** whether the artifact has expired */
  expired: boolean;
  created_at: string;
  updated_at: string;
  expires_at: string;
  /** the ID of the workflow run that produced this artifact */
  run_id: number;
}

/** AnnotatedTag represents an annotated tag */
export interface AnnotatedTag {
  archive_download_count: TagArchiveDownloadCount;
  message: string;
  object: AnnotatedTagObject;
  sha: string;
  tag: string;
  tagger: CommitUser;
  url: string;
  verification: PayloadCommitVerification;
}

/** TagArchiveDownloadCount counts how many times a archive was downloaded */
export interface TagArchiveDownloadCount {
  tar_gz: number;
  zip: number;
}

/** AnnotatedTagObject contains meta information of the tag object */
export interface AnnotatedTagObject {
  sha: string;
  type: string;
  url: string;
}

export interface CommitUser {
  date: string;
  email: string;
  name: string;
}

/** PayloadCommitVerification represents the GPG verification of a commit */
export interface PayloadCommitVerification {
  payload: string;
  reason: string;
  signature: string;
  signer: PayloadUser | null;
  verified: boolean;
}

/** PayloadUser represents the author or committer of a commit */
export interface PayloadUser {
  email: string;
  /** Full name of the commit author */
  name: string;
  username: string;
}

/** GitBlob represents a git blob */
export interface GitBlob {
  content: string;
  encoding: string;
  sha: string;
  size: number;
  url: string;
}

/** GitTreeResponse returns a git tree */
export interface GitTreeResponse {
  page: number;
  sha: string;
  total_count: number;
  tree: GitEntry[];
  truncated: boolean;
  url: string;
}

/** GitEntry represents a git tree */
export interface GitEntry {
  mode: string;
  path: string;
  sha: string;
  size: number;
  type: string;
  url: string;
}

/** ActionRunJob represents a job of a run */
export interface ActionRunJob {
  /** Identifier of this job. */
  id: number;
  /** Identifier of the workflow run this job belongs to. */
  run_id?: number;
  /** the repository id */
  repo_id: number;
  /** the owner id */
  owner_id: number;
  /** the action run job name */
  name: string;
  /** the action run job needed ids */
  needs: string[];
  /** the action run job labels to run on */
  runs_on: string[];
  /** the action run job latest task id */
  task_id: number;
  /** the action run job status */
  status: string;
  /** How many times the job has been attempted including the current attempt. */
  attempt?: number;
  /** Opaque identifier that uniquely identifies a single attempt of a job. */
  handle?: string;
  /** HTMLURL is the URL where a user can view the job using their browser. */
  html_url?: string;
  steps?: ActionRunJobStep[];
}

/** ActionRunJobStep is a step in a workflow job's execution. */
export interface ActionRunJobStep {
  /** step name */
  name?: string;
  /** position in the job's step list */
  number?: number;
  /** step status (success, failure, running, waiting, skipped, cancelled, ...) */
  status?: string;
  /** when the step started */
  started?: string;
  /** when the step stopped */
  stopped?: string;
}

/** ListActionRunResponse return a list of ActionRun */
export interface ListActionRunResponse {
  total_count: number;
  workflow_runs: ActionRun[];
}

/** ActionTaskResponse returns a ActionTask */
export interface ActionTaskResponse {
  total_count: number;
  workflow_runs: ActionTask[];
}

/** ActionTask represents a ActionTask */
export interface ActionTask {
  id: number;
  name: string;
  head_branch: string;
  head_sha: string;
  run_number: number;
  event: string;
  display_title: string;
  status: string;
  workflow_id: string;
  url: string;
  created_at: string;
  updated_at: string;
  run_started_at: string;
}

/** ActivityPub type */
export interface ActivityPub {
  "@context"?: string | string[];
}

/** CreateHookOption options when create a hook */
export interface CreateHookOption {
  /** forgejo, dingtalk, discord, gitea, gogs, msteams, slack, telegram, feishu, wechatwork, packagist, matrix, sourcehut_builds */
  type: string;
  /**
   * CreateHookOptionConfig has all config options in it
   * required are "content_type" and "url" Required
   */
  config: Record<string, string>;
  events?: string[];
  branch_filter?: string;
  active?: boolean;
  authorization_header?: string;
}

/** Hook a hook is a web hook when one repository changed */
export interface Hook {
  id: number;
  type: string;
  branch_filter: string;
  url: string;
  /** Deprecated: use Metadata instead */
  config: Record<string, string>;
  events: string[];
  authorization_header: string;
  content_type: string;
  metadata: unknown;
  active: boolean;
  updated_at: string;
  created_at: string;
}

/** CreateOrgOption options for creating an organization */
export interface CreateOrgOption {
  username: string;
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  /** possible values are `public` (default), `limited` or `private` */
  visibility?: "public" | "limited" | "private";
  repo_admin_change_team_access?: boolean;
}

/** Organization represents an organization */
export interface Organization {
  id: number;
  name: string;
  full_name: string;
  email: string;
  avatar_url: string;
  description: string;
  website: string;
  location: string;
  visibility: string;
  repo_admin_change_team_access: boolean;
  username: string;
  created: string;
}

/** CreateKeyOption options when creating a key */
export interface CreateKeyOption {
  /** Title of the key to add */
  title: string;
  /** An armored SSH key to add */
  key: string;
  /** Describe if the key has only read access or read/write */
  read_only?: boolean;
}

/** PublicKey publickey is a user key to push code to repository */
export interface PublicKey {
  id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  updated_at?: string;
  key_type?: string;
  read_only?: boolean;
  verified: boolean;
  user?: User;
}

/** CreateQutaGroupOptions represents the options for creating a quota group */
export interface CreateQuotaGroupOptions {
  /** Name of the quota group to create */
  name?: string;
  /**
   * Rules to add to the newly created group.
   * If a rule does not exist, it will be created.
   */
  rules?: CreateQuotaRuleOptions[];
}

/** CreateQuotaRuleOptions represents the options for creating a quota rule */
export interface CreateQuotaRuleOptions {
  /** Name of the rule to create */
  name?: string;
  /** The limit set by the rule */
  limit?: number;
  /** The subjects affected by the rule */
  subjects?: string[];
}

/** QuotaGroup represents a quota group */
export interface QuotaGroup {
  /** Name of the group */
  name?: string;
  /** Rules associated with the group */
  rules: QuotaRuleInfo[];
}

/** QuotaRuleInfo contains information about a quota rule */
export interface QuotaRuleInfo {
  /** Name of the rule (only shown to admins) */
  name?: string;
  /** The limit set by the rule */
  limit: number;
  /** Subjects the rule affects */
  subjects?: string[];
}

/** CreateRepoOption options when creating repository */
export interface CreateRepoOption {
  /** Name of the repository to create */
  name: string;
  description?: string;
  private?: boolean;
  /** Whether the repository should be auto-initialized */
  auto_init?: boolean;
  gitignores?: string;
  license?: string;
  readme?: string;
  issue_labels?: string;
  default_branch?: string;
  template?: boolean;
  trust_model?: "default" | "collaborator" | "committer" | "collaboratorcommitter";
  object_format_name?: "sha1" | "sha256";
}

export interface CreateUserOption {
  username: string;
  email?: string;
  password?: string;
  full_name?: string;
  login_name?: string;
  source_id?: number;
  must_change_password?: boolean;
  send_notify?: boolean;
  restricted?: boolean;
  visibility?: "public" | "limited" | "private";
  created_at?: string;
  admin?: boolean;
}

/** CreateAccessTokenOption options when create access token */
export interface CreateAccessTokenOption {
  name: string;
  scopes?: string[];
  repositories?: RepoTargetOption[];
}

export interface RepoTargetOption {
  owner: string;
  name: string;
}

export interface AccessToken {
  id: number;
  name: string;
  sha1: string;
  token_last_eight: string;
  scopes: string[];
  created_at: string;
  repositories: RepositoryMeta[] | null;
}

/** RepositoryMeta basic repository information */
export interface RepositoryMeta {
  id: number;
  name: string;
  owner: string;
  full_name: string;
}

/** Cron represents a Cron task */
export interface Cron {
  name: string;
  schedule: string;
  next: string;
  prev: string;
  exec_times: number;
}

/** DeleteEmailOption options when deleting email addresses */
export interface DeleteEmailOption {
  /** email addresses to delete */
  emails?: string[];
}

/** EditHookOption options when modify one hook */
export interface EditHookOption {
  config?: Record<string, string>;
  events?: string[];
  branch_filter?: string;
  active?: boolean;
  authorization_header?: string;
}

/** EditQuotaRuleOptions represents the options for editing a quota rule */
export interface EditQuotaRuleOptions {
  /** The limit set by the rule */
  limit?: number;
  /** The subjects affected by the rule */
  subjects?: string[];
}

/** EditUserOption edit user options */
export interface EditUserOption {
  source_id?: number;
  login_name?: string;
  email?: string;
  full_name?: string;
  password?: string;
  must_change_password?: boolean;
  website?: string;
  location?: string;
  description?: string;
  pronouns?: string;
  active?: boolean;
  admin?: boolean;
  allow_git_hook?: boolean;
  allow_import_local?: boolean;
  max_repo_creation?: number;
  prohibit_login?: boolean;
  allow_create_organization?: boolean;
  restricted?: boolean;
  visibility?: "public" | "limited" | "private";
  hide_email?: boolean;
}

/** Email an email address belonging to a user */
export interface Email {
  email: string;
  verified: boolean;
  primary: boolean;
  user_id: number;
  username: string;
}

/** HookDelivery one attempt with its request and response (body truncated) */
export interface HookDelivery {
  /** the attempt */
  id: number;
  /** the delivery (X-Forgejo-Delivery), shared by its attempts */
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  /** seconds */
  duration: number;
  /** OK, the HTTP status text, or the error */
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  repository_id: number | null;
  url: string;
  request: {
    headers: Record<string, string>;
    payload: string | null;
  };
  response: {
    headers: Record<string, string>;
    payload: string | null;
  };
}

/** RegistrationToken is a string used to register a runner with a server */
export interface RegistrationToken {
  token: string;
}

/** QuotaInfo represents information about a user's quota */
export interface QuotaInfo {
  used: QuotaUsed;
  groups: QuotaGroupList;
}

/** QuotaUsed represents the quota usage of a user */
export interface QuotaUsed {
  size: QuotaUsedSize;
}

export interface QuotaUsedSize {
  repos: QuotaUsedSizeRepos;
  git: QuotaUsedSizeGit;
  assets: QuotaUsedSizeAssets;
}

export interface QuotaUsedSizeRepos {
  /** Storage size of the user's public repositories */
  public: number;
  /** Storage size of the user's private repositories */
  private: number;
}

export interface QuotaUsedSizeGit {
  /** Storage size of the user's Git LFS objects */
  LFS: number;
}

export interface QuotaUsedSizeAssets {
  attachments: QuotaUsedSizeAssetsAttachments;
  /** Storage size used for the user's artifacts */
  artifacts: number;
  packages: QuotaUsedSizeAssetsPackages;
}

export interface QuotaUsedSizeAssetsAttachments {
  /** Storage size used for the user's issue & comment attachments */
  issues: number;
  /** Storage size used for the user's release attachments */
  releases: number;
}

export interface QuotaUsedSizeAssetsPackages {
  /** Storage size used for the user's packages */
  all: number;
}

/** QuotaGroupList represents a list of quota groups */
export type QuotaGroupList = QuotaGroup[];

/** HookDeliveryItem one attempt to deliver a hook task */
export interface HookDeliveryItem {
  /** the attempt */
  id: number;
  /** the delivery (X-Forgejo-Delivery), shared by its attempts */
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  /** seconds */
  duration: number;
  /** OK, the HTTP status text, or the error */
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  repository_id: number | null;
  url: string;
}

/** RenameUserOption options when renaming a user */
export interface RenameUserOption {
  new_username: string;
}

/** SetUserQuotaGroupsOptions represents the quota groups of a user */
export interface SetUserQuotaGroupsOptions {
  /** Quota groups the user shall have */
  groups: string[];
}

/** CreateForkOption options for creating a fork */
export interface CreateForkOption {
  /** name of the forked repository */
  name?: string;
  /** organization name, if forking into an organization */
  organization?: string;
}

/** CreateVariableOption defines the properties of the variable to create. */
export interface CreateVariableOption {
  /** Value of the variable to create. Special characters will be retained. Line endings will be normalized to LF to match the behaviour of browsers. Encode the data with Base64 if line endings should be retained. */
  value: string;
}

/** GenerateRepoOption options when creating repository using a template */
export interface GenerateRepoOption {
  /** The organization or person who will own the new repository */
  owner: string;
  /** Name of the repository to create */
  name: string;
  /** Default branch of the new repository */
  default_branch?: string;
  description?: string;
  private?: boolean;
  /** include git content of default branch in template repo */
  git_content?: boolean;
  /** include topics in template repo */
  topics?: boolean;
  /** include git hooks in template repo */
  git_hooks?: boolean;
  /** include webhooks in template repo */
  webhooks?: boolean;
  /** include avatar of the template repo */
  avatar?: boolean;
  /** include labels in template repo */
  labels?: boolean;
  /** include protected branches in template repo */
  protected_branch?: boolean;
}

/** ActionRunner represents a runner */
export interface ActionRunner {
  /** ID uniquely identifies this runner. */
  id: number;
  /** UUID uniquely identifies this runner. */
  uuid: string;
  /** Name of the runner; not unique. */
  name: string;
  /**
   * OwnerID is the identifier of the user or organization this runner belongs to. O if the runner is owned by a
   * repository.
   */
  owner_id: number;
  /**
   * RepoID is the identifier of the repository this runner belongs to. 0 if the runner belongs to a user or
   * organization.
   */
  repo_id: number;
  /** Description provides optional details about this runner. */
  description: string;
  /** Labels is a list of labels attached to this runner. */
  labels: string[];
  /** Status indicates whether this runner is offline, or active, for example. */
  status: "offline" | "idle" | "active";
  /** Version is the self-reported version string of Forgejo Runner. */
  version: string;
  /** Indicates if runner is ephemeral runner */
  ephemeral: boolean;
}

export interface GeneralAPISettings {
  max_response_items: number;
  default_paging_num: number;
  default_git_trees_per_page: number;
  default_max_blob_size: number;
}

export interface GeneralAttachmentSettings {
  enabled: boolean;
  allowed_types: string;
  max_size: number;
  max_files: number;
}

export interface GeneralRepoSettings {
  mirrors_disabled: boolean;
  http_git_disabled: boolean;
  migrations_disabled: boolean;
  stars_disabled: boolean;
  forks_disabled: boolean;
  time_tracking_disabled: boolean;
  lfs_disabled: boolean;
}

export interface GeneralUISettings {
  default_theme: string;
  allowed_reactions: string[];
  custom_emojis: string[];
}

export interface GitignoreTemplateInfo {
  name: string;
  source: string;
}

export interface LabelTemplate {
  name: string;
  exclusive: boolean;
  color: string;
  description: string;
}

export interface LicenseTemplateInfo {
  key: string;
  name: string;
  url: string;
  body: string;
  implementation: string;
}

/** NodeInfo contains standardized way of exposing metadata about a server running one of the distributed social networks */
export interface NodeInfo {
  version: string;
  software: NodeInfoSoftware;
  protocols: string[];
  services: NodeInfoServices;
  openRegistrations: boolean;
  usage: NodeInfoUsage;
  metadata: Record<string, unknown>;
}

/** NodeInfoSoftware contains Metadata about server software in use */
export interface NodeInfoSoftware {
  name: string;
  version: string;
  repository: string;
  homepage: string;
}

/** NodeInfoServices contains the third party sites this server can connect to via their application API */
export interface NodeInfoServices {
  inbound: string[];
  outbound: string[];
}

/** NodeInfoUsage contains usage statistics for this server */
export interface NodeInfoUsage {
  users: NodeInfoUsageUsers;
  /** issues and pull requests */
  localPosts?: number;
  /** comments */
  localComments?: number;
}

/** NodeInfoUsageUsers contains statistics about the users of this server */
export interface NodeInfoUsageUsers {
  /** every individual account */
  total?: number;
  /** accounts signed in within six months */
  activeHalfyear?: number;
  /** accounts signed in within a month */
  activeMonth?: number;
}

/** ActionVariable return value of the query API */
export interface ActionVariable {
  /** the owner to which the variable belongs */
  owner_id: number;
  /** the repository to which the variable belongs */
  repo_id: number;
  /** the name of the variable */
  name: string;
  /** the value of the variable */
  data: string;
}

/** Package represents a package */
export interface Package {
  id: number;
  owner: User;
  repository: Repository | null;
  creator: User;
  type: string;
  name: string;
  version: string;
  html_url: string;
  created_at: string;
}

/** UserSettings represents user settings */
export interface UserSettings {
  full_name: string;
  website: string;
  description: string;
  location: string;
  pronouns: string;
  language: string;
  theme: string;
  diff_view_style: string;
  enable_repo_unit_hints: boolean;
  hide_email: boolean;
  hide_pronouns: boolean;
  hide_activity: boolean;
}

export interface ServerVersion {
  version: string;
}

/** IssueLabelsOption a collection of labels */
export interface IssueLabelsOption {
  /**
   * Labels can be a list of integers representing label IDs
   * or a list of strings representing label names
   */
  labels?: unknown[];
  updated_at?: string;
}

/** Label a label to an issue or a pr */
export interface Label {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

/** AddTimeOption options for adding time to an issue */
export interface AddTimeOption {
  /** time in seconds */
  time: number;
  created?: string;
  /** User who spent the time (optional) */
  user_name?: string;
}

/** TrackedTime worked time for an issue / pr */
export interface TrackedTime {
  id: number;
  created: string;
  /** Time in seconds */
  time: number;
  /** deprecated (only for backwards compatibility) */
  user_id: number;
  user_name: string;
  /** deprecated (only for backwards compatibility) */
  issue_id: number;
  issue: Issue | null;
}

/** Issue represents an issue in a repository */
export interface Issue {
  id: number;
  url: string;
  html_url: string;
  number: number;
  user: User;
  original_author: string;
  original_author_id: number;
  title: string;
  body: string;
  ref: string;
  assets: Attachment[];
  labels: Label[];
  milestone: Milestone | null;
  assignee: User | null;
  assignees: User[] | null;
  /** StateType issue state type */
  state: "open" | "closed";
  is_locked: boolean;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  due_date: string | null;
  pull_request: PullRequestMeta | null;
  repository: RepositoryMeta;
  pin_order: number;
  time_estimate: number;
}

/** Attachment a generic attachment */
export interface Attachment {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  uuid: string;
  browser_download_url: string;
  type: "attachment" | "external";
}

/** Milestone milestone is a collection of issues on one repository */
export interface Milestone {
  id: number;
  title: string;
  description: string;
  /** StateType issue state type */
  state: "open" | "closed";
  open_issues: number;
  closed_issues: number;
  created_at: string;
  updated_at: string | null;
  closed_at: string | null;
  due_on: string | null;
}

/** PullRequestMeta PR info if an issue is a PR */
export interface PullRequestMeta {
  merged: boolean;
  merged_at: string | null;
  draft: boolean;
  html_url: string;
}

/** WatchInfo represents an API watch status of one repository */
export interface WatchInfo {
  subscribed: boolean;
  ignored: boolean;
  reason: unknown;
  created_at: string;
  url: string;
  repository_url: string;
}

/** DeleteLabelOption options for deleting a label */
export interface DeleteLabelsOption {
  updated_at?: string;
}

/** CreateIssueCommentOption options for creating a comment on an issue */
export interface CreateIssueCommentOption {
  /** The body of the comment */
  body: string;
  /** The time of the comment's update, needs admin or repository owner permission */
  updated_at?: string;
}

/** Comment represents a comment on a commit or issue */
export interface Comment {
  /** The identifier of the comment */
  id: number;
  /** The HTML URL of the comment */
  html_url: string;
  /** The HTML URL of the pull request if the comment is posted on a pull request, else empty string */
  pull_request_url: string;
  /** The HTML URL of the issue if the comment is posted on an issue, else empty string */
  issue_url: string;
  user: User;
  /** The original author that posted the comment if it was not posted locally, else empty string */
  original_author: string;
  /** The ID of the original author that posted the comment if it was not posted locally, else 0 */
  original_author_id: number;
  /** The body of the comment */
  body: string;
  /** The attachments to the comment */
  assets: Attachment[];
  /** The time of the comment's creation */
  created_at: string;
  /** The time of the comment's update */
  updated_at: string;
}

/** CreateIssueOption options to create one issue */
export interface CreateIssueOption {
  title: string;
  body?: string;
  ref?: string;
  /** deprecated */
  assignee?: string;
  assignees?: string[];
  due_date?: string;
  /** milestone id */
  milestone?: number;
  /** list of label ids */
  labels?: number[];
  closed?: boolean;
}

/** IssueMeta basic issue information */
export interface IssueMeta {
  index: number;
  owner: string;
  repo: string;
}

/** CreateLabelOption options for creating a label */
export interface CreateLabelOption {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
}

/** CreateMilestoneOption options for creating a milestone */
export interface CreateMilestoneOption {
  title?: string;
  description?: string;
  due_on?: string;
  state?: "open" | "closed";
}

/** EditReactionOption contain the reaction type */
export interface EditReactionOption {
  content?: string;
}

/** EditIssueCommentOption options for editing a comment */
export interface EditIssueCommentOption {
  /** The body of the comment */
  body: string;
  /** The time of the comment's update, needs admin or repository owner permission */
  updated_at?: string;
}

/** EditIssueOption options for editing an issue */
export interface EditIssueOption {
  title?: string;
  body?: string;
  ref?: string;
  /** deprecated */
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  state?: string;
  due_date?: string;
  unset_due_date?: boolean;
  updated_at?: string;
}

/** EditAttachmentOptions options for editing attachments */
export interface EditAttachmentOptions {
  name?: string;
  /** (Can only be set if existing attachment is of external type) */
  browser_download_url?: string;
}

/** EditDeadlineOption options for creating a deadline */
export interface EditDeadlineOption {
  due_date?: string;
}

/** IssueDeadline represents an issue deadline */
export interface IssueDeadline {
  due_date: string;
}

/** EditLabelOption options for editing a label */
export interface EditLabelOption {
  name?: string;
  color?: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
}

/** EditMilestoneOption options for editing a milestone */
export interface EditMilestoneOption {
  title?: string;
  description?: string;
  due_on?: string;
  state?: string;
}

/** Reaction contain one reaction */
export interface Reaction {
  user: User;
  content: string;
  created_at: string;
}

/** TimelineComment represents a timeline comment (comment of any type) on a commit or issue */
export interface TimelineComment {
  id: number;
  type: string;
  html_url: string;
  pull_request_url: string;
  issue_url: string;
  user: User;
  body: string;
  created_at: string;
  updated_at: string;
  old_project_id: number;
  project_id: number;
  old_milestone: Milestone | null;
  milestone: Milestone | null;
  tracked_time: TrackedTime | null;
  old_title: string;
  new_title: string;
  old_ref: string;
  new_ref: string;
  ref_issue: Issue | null;
  ref_comment: Comment | null;
  ref_action: string;
  /** commit SHA where issue/PR was referenced */
  ref_commit_sha: string;
  review_id: number;
  label: Label | null;
  assignee: User | null;
  assignee_team: Team | null;
  /** whether the assignees were removed or added */
  removed_assignee: boolean;
  resolve_doer: User | null;
  dependent_issue: Issue | null;
}

/** Team represents a team in an organization */
export interface Team {
  id: number;
  name: string;
  description: string;
  organization: Organization | null;
  includes_all_repositories: boolean;
  permission: "none" | "read" | "write" | "admin" | "owner";
  /**
   *
   * Deprecated: This variable should be replaced by UnitsMap and will be dropped in later versions.
   */
  units: string[];
  units_map: Record<string, string>;
  can_create_org_repo: boolean;
}

export interface LicensesTemplateListEntry {
  key: string;
  name: string;
  url: string;
}

/** PackageFile represents a package file */
export interface PackageFile {
  Size: number;
  id: number;
  name: string;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export interface IssueLockOption {
  reason?: string;
}

/** NotificationThread expose Notification on API */
export interface NotificationThread {
  id: number;
  /** Repository represents a repository */
  repository: {
    id: number;
    owner: User;
    name: string;
    full_name: string;
    description: string;
    empty: boolean;
    private: boolean;
    fork: boolean;
    template: boolean;
    parent: null | Record<string, unknown>;
    mirror: boolean;
    size: number;
    language: string;
    languages_url: string;
    html_url: string;
    url: string;
    link: string;
    ssh_url: string;
    clone_url: string;
    original_url: string;
    website: string;
    stars_count: number;
    forks_count: number;
    watchers_count: number;
    open_issues_count: number;
    open_pr_counter: number;
    release_counter: number;
    default_branch: string;
    archived: boolean;
    created_at: string;
    updated_at: string;
    archived_at: string;
    has_issues: boolean;
    internal_tracker: InternalTracker | null;
    external_tracker: ExternalTracker | null;
    has_wiki: boolean;
    external_wiki: ExternalWiki | null;
    has_wiki_contents: boolean;
    wiki_clone_url: string;
    wiki_ssh_url: string;
    wiki_branch: string;
    globally_editable_wiki: boolean;
    has_pull_requests: boolean;
    has_projects: boolean;
    has_code: boolean;
    projects_mode: string;
    licenses: string[];
    has_releases: boolean;
    has_packages: boolean;
    has_actions: boolean;
    ignore_whitespace_conflicts: boolean;
    allow_merge_commits: boolean;
    allow_rebase: boolean;
    allow_rebase_explicit: boolean;
    allow_squash_merge: boolean;
    allow_fast_forward_only_merge: boolean;
    allow_rebase_update: boolean;
    allow_manual_merge: boolean;
    autodetect_manual_merge: boolean;
    default_delete_branch_after_merge: boolean;
    default_merge_style: string;
    default_update_style: string;
    default_allow_maintainer_edit: boolean;
    avatar_url: string;
    internal: boolean;
    mirror_interval: string;
    object_format_name: "sha1" | "sha256";
    mirror_updated: string;
    topics: string[];
    repo_transfer: RepoTransfer | null;
  };
  subject: NotificationSubject;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
}

/** NotificationSubject contains the notification subject (Issue/Pull/Commit) */
export interface NotificationSubject {
  title: string;
  url: string;
  latest_comment_url: string;
  html_url: string;
  latest_comment_html_url: string;
  /** NotifySubjectType represent type of notification subject */
  type: "Issue" | "Pull" | "Commit" | "Repository";
  /** StateType issue state type */
  state: "open" | "closed" | "";
}

/** NotificationCount number of unread notifications */
export interface NotificationCount {
  new: number;
}

/** CreateTeamOption options for creating a team */
export interface CreateTeamOption {
  name: string;
  description?: string;
  includes_all_repositories?: boolean;
  permission?: "read" | "write" | "admin";
  /**
   *
   * Deprecated: This variable should be replaced by UnitsMap and will be dropped in later versions.
   */
  units?: string[];
  units_map?: Record<string, string>;
  can_create_org_repo?: boolean;
}

/** EditOrgOption options for editing an organization */
export interface EditOrgOption {
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: "public" | "limited" | "private";
  repo_admin_change_team_access?: boolean;
}

/** EditTeamOption options for editing a team */
export interface EditTeamOption {
  name?: string;
  description?: string;
  includes_all_repositories?: boolean;
  permission?: "read" | "write" | "admin";
  /**
   *
   * Deprecated: This variable should be replaced by UnitsMap and will be dropped in later versions.
   */
  units?: string[];
  units_map?: Record<string, string>;
  can_create_org_repo?: boolean;
}

/** OrganizationPermissions list different users permissions on an organization */
export interface OrganizationPermissions {
  is_owner: boolean;
  is_admin: boolean;
  can_write: boolean;
  can_read: boolean;
  can_create_repository: boolean;
}

/** Secret represents a secret */
export interface Secret {
  /** the secret's name */
  name: string;
  created_at: string;
}

export interface Activity {
  id: number;
  user_id: number;
  /** the type of action */
  op_type: "create_repo" | "rename_repo" | "star_repo" | "watch_repo" | "commit_repo" | "create_issue" | "create_pull_request" | "transfer_repo" | "push_tag" | "comment_issue" | "merge_pull_request" | "close_issue" | "reopen_issue" | "close_pull_request" | "reopen_pull_request" | "delete_tag" | "delete_branch" | "mirror_sync_push" | "mirror_sync_create" | "mirror_sync_delete" | "approve_pull_request" | "reject_pull_request" | "comment_pull" | "publish_release" | "pull_review_dismissed" | "pull_request_ready_for_review" | "auto_merge_pull_request";
  act_user_id: number;
  act_user: User;
  repo_id: number;
  repo: Repository;
  comment_id: number;
  comment: null | Record<string, unknown>;
  ref_name: string;
  is_private: boolean;
  content: string;
  created: string;
}

export interface BlockedUser {
  block_id: number;
  created_at: string;
}

/** QuotaUsedArtifact represents an artifact counting towards a user's quota */
export interface QuotaUsedArtifact {
  /** HTML URL to the action run containing the artifact */
  html_url: string;
  /** Name of the artifact */
  name: string;
  /** Size of the artifact (compressed) */
  size: number;
}

/** QuotaUsedAttachment represents an attachment counting towards a user's quota */
export interface QuotaUsedAttachment {
  /** API URL for the attachment */
  api_url: string;
  contained_in: {
    /** API URL for the object that contains this attachment */
    api_url: string;
    /** HTML URL for the object that contains this attachment */
    html_url: string;
  };
  /** Filename of the attachment */
  name: string;
  /** Size of the attachment (in bytes) */
  size: number;
}

/** QuotaUsedPackage represents a package counting towards a user's quota */
export interface QuotaUsedPackage {
  /** HTML URL to the package version */
  html_url: string;
  /** Name of the package */
  name: string;
  /** Size of the package version */
  size: number;
  /** Type of the package */
  type: string;
  /** Version of the package */
  version: string;
}

/** UpdateUserAvatarUserOption options when updating the user avatar */
export interface UpdateUserAvatarOption {
  /** image must be base64 encoded */
  image?: string;
}

export interface RegisterRunnerOptions {
  /** Name of the runner to register. The name of the runner does not have to be unique. */
  name: string;
  /** Description of the runner to register. */
  description?: string;
  /** Register as ephemeral runner https://forgejo.org/docs/latest/admin/actions/security/#ephemeral-runners */
  ephemeral?: boolean;
}

export interface RegisterRunnerResponse {
  id: number;
  uuid: string;
  token: string;
}

/** RenameOrgOption options when renaming an organization */
export interface RenameOrgOption {
  /** New username for this org. This name cannot be in use yet by any other user. */
  new_name: string;
}

/** MarkdownOption markdown options */
export interface MarkdownOption {
  /** Context to render */
  Context?: string;
  /** Mode to render (comment, gfm, markdown) */
  Mode?: string;
  /** Text markdown to render */
  Text?: string;
  /** Is it a wiki page ? */
  Wiki?: boolean;
}

/** MarkupOption markup options */
export interface MarkupOption {
  /** The current branch path where the form gets posted */
  BranchPath?: string;
  /** Context to render */
  Context?: string;
  /** File path for detecting extension in file mode */
  FilePath?: string;
  /** Mode to render (comment, gfm, markdown, file) */
  Mode?: string;
  /** Text markup to render */
  Text?: string;
  /** Is it a wiki page ? */
  Wiki?: boolean;
}

/** AddCollaboratorOption options when adding a user as a collaborator of a repository */
export interface AddCollaboratorOption {
  /** Permission level to grant the collaborator */
  permission?: "read" | "write" | "admin";
}

/** CreatePushMirrorOption represents need information to create a push mirror of a repository. */
export interface CreatePushMirrorOption {
  remote_address?: string;
  remote_username?: string;
  remote_password?: string;
  interval?: string;
  sync_on_commit?: boolean;
  branch_filter?: string;
  use_ssh?: boolean;
}

/** PushMirror represents information of a push mirror */
export interface PushMirror {
  repo_name: string;
  remote_name: string;
  remote_address: string;
  created: string;
  last_update: string | null;
  last_error: string;
  interval: string;
  sync_on_commit: boolean;
  branch_filter: string;
  public_key: string;
}

/** UpdateFileOptions options for updating files */
export interface UpdateFileOptions {
  author?: Identity;
  committer?: Identity;
  /** branch (optional) to base this file from. if not given, the default branch is used */
  branch?: string;
  /** new_branch (optional) will make a new branch from `branch` before creating the file */
  new_branch?: string;
  /** message (optional) for the commit of this file. if not supplied, a default message will be used */
  message?: string;
  dates?: CommitDateOptions;
  /** Add a Signed-off-by trailer by the committer at the end of the commit log message. */
  signoff?: boolean;
  /** (optional) will do a force-push if the new branch already exists */
  force_overwrite_new_branch?: boolean;
  /** content must be base64 encoded */
  content: string;
  /** sha is the SHA for the file that already exists */
  sha: string;
  /** from_path (optional) is the path of the original file which will be moved/renamed to the path in the URL */
  from_path?: string;
}

/** Identity for a person's identity like an author or committer */
export interface Identity {
  name?: string;
  email?: string;
}

/** CommitDateOptions store dates for GIT_AUTHOR_DATE and GIT_COMMITTER_DATE */
export interface CommitDateOptions {
  author?: string;
  committer?: string;
}

/** FileResponse contains information about a repo's file */
export interface FileResponse {
  content: ContentsResponse | null;
  commit: FileCommitResponse;
  verification: PayloadCommitVerification;
}

/** ContentsResponse contains information about a repo's entry's (dir, file, symlink, submodule) metadata and content */
export interface ContentsResponse {
  name: string;
  path: string;
  sha: string;
  last_commit_sha: string;
  last_commit_when: string;
  last_committer_date: string | null;
  last_author_date: string | null;
  /** `type` will be `file`, `dir`, `symlink`, or `submodule` */
  type: string;
  size: number;
  /** `encoding` is populated when `type` is `file`, otherwise null */
  encoding: string | null;
  /** `content` is populated when `type` is `file`, otherwise null */
  content: string | null;
  /** `target` is populated when `type` is `symlink`, otherwise null */
  target: string | null;
  url: string | null;
  html_url: string | null;
  git_url: string | null;
  download_url: string | null;
  /** `submodule_git_url` is populated when `type` is `submodule`, otherwise null */
  submodule_git_url: string | null;
  _links: FileLinksResponse;
}

/** FileLinksResponse contains the links for a repo's file */
export interface FileLinksResponse {
  git: string | null;
  html: string | null;
  self: string | null;
}

export interface FileCommitResponse {
  url: string;
  sha: string;
  created: string;
  html_url: string;
  author: CommitUser;
  committer: CommitUser;
  parents: CommitMeta[];
  message: string;
  tree: CommitMeta;
}

export interface CommitMeta {
  url: string;
  sha: string;
  created: string;
}

/** ChangeFilesOptions options for creating, updating or deleting multiple files */
export interface ChangeFilesOptions {
  author?: Identity;
  committer?: Identity;
  /** branch (optional) to base this file from. if not given, the default branch is used */
  branch?: string;
  /** new_branch (optional) will make a new branch from `branch` before creating the file */
  new_branch?: string;
  /** message (optional) for the commit of this file. if not supplied, a default message will be used */
  message?: string;
  dates?: CommitDateOptions;
  /** Add a Signed-off-by trailer by the committer at the end of the commit log message. */
  signoff?: boolean;
  /** (optional) will do a force-push if the new branch already exists */
  force_overwrite_new_branch?: boolean;
  /** list of file operations */
  files: ChangeFileOperation[];
}

/** ChangeFileOperation for creating, updating or deleting a file */
export interface ChangeFileOperation {
  /** indicates what to do with the file */
  operation: "create" | "update" | "delete";
  /** path to the existing or new file */
  path: string;
  /** new or updated file content, must be base64 encoded */
  content?: string;
  /** sha is the SHA for the file that already exists, required for update or delete */
  sha?: string;
  /** old path of the file to move */
  from_path?: string;
}

/** FilesResponse contains information about multiple files from a repo */
export interface FilesResponse {
  files: Array<ContentsResponse | null>;
  commit: FileCommitResponse;
  verification: PayloadCommitVerification;
}

export interface Compare {
  total_commits: number;
  commits: Commit[];
}

export interface Commit {
  url: string;
  sha: string;
  created: string;
  html_url: string;
  commit: RepoCommit;
  author: User | null;
  committer: User | null;
  parents: CommitMeta[];
  files: CommitAffectedFiles[] | null;
  stats: CommitStats | null;
}

export interface RepoCommit {
  url: string;
  author: CommitUser;
  committer: CommitUser;
  message: string;
  tree: CommitMeta;
  verification: PayloadCommitVerification | null;
}

/** CommitAffectedFiles store information about files affected by the commit */
export interface CommitAffectedFiles {
  filename: string;
  status: string;
}

/** CommitStats is statistics for a RepoCommit */
export interface CommitStats {
  total: number;
  additions: number;
  deletions: number;
}

/** CreateBranchRepoOption options when creating a branch in a repository */
export interface CreateBranchRepoOption {
  /** Name of the branch to create */
  new_branch_name: string;
  /** Name of the old branch to create from */
  old_branch_name?: string;
  /** Name of the old branch/tag/commit to create from */
  old_ref_name?: string;
}

/** Branch represents a repository branch */
export interface Branch {
  name: string;
  commit: PayloadCommit;
  protected: boolean;
  required_approvals: number;
  enable_status_check: boolean;
  status_check_contexts: string[];
  user_can_push: boolean;
  user_can_merge: boolean;
  effective_branch_protection_name: string;
}

/** PayloadCommit represents a commit */
export interface PayloadCommit {
  /** sha1 hash of the commit */
  id: string;
  message: string;
  url: string;
  author: PayloadUser;
  committer: PayloadUser;
  verification: PayloadCommitVerification | null;
  timestamp: string;
  added: string[] | null;
  removed: string[] | null;
  modified: string[] | null;
}

/** CreateBranchProtectionOption options for creating a branch protection */
export interface CreateBranchProtectionOption {
  apply_to_admins?: boolean;
  approvals_whitelist_teams?: string[];
  approvals_whitelist_username?: string[];
  block_on_official_review_requests?: boolean;
  block_on_outdated_branch?: boolean;
  block_on_rejected_reviews?: boolean;
  dismiss_stale_approvals?: boolean;
  enable_approvals_whitelist?: boolean;
  enable_merge_whitelist?: boolean;
  enable_push?: boolean;
  enable_push_whitelist?: boolean;
  enable_status_check?: boolean;
  ignore_stale_approvals?: boolean;
  merge_whitelist_teams?: string[];
  merge_whitelist_usernames?: string[];
  protected_file_patterns?: string;
  push_whitelist_deploy_keys?: boolean;
  push_whitelist_teams?: string[];
  push_whitelist_usernames?: string[];
  require_signed_commits?: boolean;
  required_approvals?: number;
  status_check_contexts?: string[];
  unprotected_file_patterns?: string;
  /** deprecated: use rule_name */
  branch_name?: string;
  rule_name?: string;
}

/** BranchProtection represents a branch protection for a repository */
export interface BranchProtection {
  apply_to_admins: boolean;
  approvals_whitelist_teams: string[];
  approvals_whitelist_username: string[];
  block_on_official_review_requests: boolean;
  block_on_outdated_branch: boolean;
  block_on_rejected_reviews: boolean;
  /** deprecated: use rule_name */
  branch_name: string;
  created_at: string;
  dismiss_stale_approvals: boolean;
  enable_approvals_whitelist: boolean;
  enable_merge_whitelist: boolean;
  enable_push: boolean;
  enable_push_whitelist: boolean;
  enable_status_check: boolean;
  ignore_stale_approvals: boolean;
  merge_whitelist_teams: string[];
  merge_whitelist_usernames: string[];
  protected_file_patterns: string;
  push_whitelist_deploy_keys: boolean;
  push_whitelist_teams: string[];
  push_whitelist_usernames: string[];
  require_signed_commits: boolean;
  required_approvals: number;
  rule_name: string;
  status_check_contexts: string[];
  unprotected_file_patterns: string;
  updated_at: string;
}

/** CreateFileOptions options for creating files */
export interface CreateFileOptions {
  author?: Identity;
  committer?: Identity;
  /** branch (optional) to base this file from. if not given, the default branch is used */
  branch?: string;
  /** new_branch (optional) will make a new branch from `branch` before creating the file */
  new_branch?: string;
  /** message (optional) for the commit of this file. if not supplied, a default message will be used */
  message?: string;
  dates?: CommitDateOptions;
  /** Add a Signed-off-by trailer by the committer at the end of the commit log message. */
  signoff?: boolean;
  /** (optional) will do a force-push if the new branch already exists */
  force_overwrite_new_branch?: boolean;
  /** content must be base64 encoded */
  content: string;
}

/** DeployKey a deploy key */
export interface DeployKey {
  id: number;
  key_id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  read_only: boolean;
  repository?: Repository;
}

/** CreatePullRequestOption options when creating a pull request */
export interface CreatePullRequestOption {
  head?: string;
  base?: string;
  title?: string;
  body?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  labels?: number[];
  due_date?: string;
}

/** PullRequest represents a pull request */
export interface PullRequest {
  id: number;
  url: string;
  number: number;
  user: User;
  title: string;
  body: string;
  labels: Label[];
  milestone: Milestone | null;
  assignee: User | null;
  assignees: User[] | null;
  requested_reviewers: User[] | null;
  requested_reviewers_teams: Team[] | null;
  /** StateType issue state type */
  state: "open" | "closed";
  draft: boolean;
  is_locked: boolean;
  comments: number;
  review_comments: number;
  additions: number | null;
  deletions: number | null;
  changed_files: number | null;
  html_url: string;
  diff_url: string;
  patch_url: string;
  mergeable: boolean;
  merged: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: User | null;
  allow_maintainer_edit: boolean;
  base: PRBranchInfo;
  head: PRBranchInfo;
  merge_base: string;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pin_order: number;
  flow: number;
}

/** PRBranchInfo information about a branch */
export interface PRBranchInfo {
  label: string;
  ref: string;
  sha: string;
  repo_id: number;
  repo: Repository | null;
}

/** CreatePullReviewOptions are options to create a pull review */
export interface CreatePullReviewOptions {
  /** ReviewStateType review state type */
  event?: string;
  body?: string;
  commit_id?: string;
  comments?: CreatePullReviewComment[];
}

/** CreatePullReviewComment represent a review comment for creation api */
export interface CreatePullReviewComment {
  /** the tree path */
  path?: string;
  body?: string;
  /** if comment to old file line or 0 */
  old_position?: number;
  /** if comment to new file line or 0 */
  new_position?: number;
  /** number of additional lines after the commented line (0 = single line comment) */
  extra_lines_count?: number;
}

/** PullReview represents a pull request review */
export interface PullReview {
  id: number;
  user: User | null;
  team: Team | null;
  /** ReviewStateType review state type */
  state: "APPROVED" | "PENDING" | "COMMENT" | "REQUEST_CHANGES" | "REQUEST_REVIEW" | "";
  body: string;
  commit_id: string;
  stale: boolean;
  official: boolean;
  dismissed: boolean;
  comments_count: number;
  submitted_at: string;
  updated_at: string;
  html_url: string;
  pull_request_url: string;
}

/** PullReviewComment represents a comment on a pull request review */
export interface PullReviewComment {
  id: number;
  body: string;
  user: User | null;
  resolver: User | null;
  pull_request_review_id: number;
  created_at: string;
  updated_at: string;
  path: string;
  commit_id: string;
  original_commit_id: string;
  diff_hunk: string;
  /** number of additional lines after the commented line (0 = single line comment) */
  extra_lines_count: number;
  position: number;
  original_position: number;
  html_url: string;
  pull_request_url: string;
}

/** CreatePullReviewCommentReplyOptions are options to reply to a pull review comment */
export interface CreatePullReviewCommentReplyOptions {
  body?: string;
}

/** PullReviewRequestOptions are options to add or remove pull review requests */
export interface PullReviewRequestOptions {
  reviewers?: string[];
  team_reviewers?: string[];
}

/** CreateReleaseOption options when creating a release */
export interface CreateReleaseOption {
  tag_name: string;
  target_commitish?: string;
  name?: string;
  body?: string;
  draft?: boolean;
  prerelease?: boolean;
  hide_archive_links?: boolean;
}

/** Release represents a repository release */
export interface Release {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  url: string;
  html_url: string;
  tarball_url: string;
  zipball_url: string;
  hide_archive_links: boolean;
  upload_url: string;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string;
  author: User;
  assets: Attachment[];
  archive_download_count: TagArchiveDownloadCount;
}

/** CreateStatusOption holds the information needed to create a new CommitStatus for a Commit */
export interface CreateStatusOption {
  /**
   * CommitStatusState holds the state of a CommitStatus
   * It can be "pending", "success", "error", "failure", and "warning"
   */
  state?: "pending" | "success" | "error" | "failure" | "warning";
  target_url?: string;
  description?: string;
  context?: string;
}

/** CommitStatus holds a single status of a single Commit */
export interface CommitStatus {
  id: number;
  /**
   * CommitStatusState holds the state of a CommitStatus
   * It can be "pending", "success", "error", "failure", and "warning"
   */
  status: "pending" | "success" | "error" | "failure" | "warning";
  target_url: string;
  description: string;
  url: string;
  context: string;
  creator: User | null;
  created_at: string;
  updated_at: string;
}

/** CreateTagOption options when creating a tag */
export interface CreateTagOption {
  tag_name: string;
  message?: string;
  target?: string;
}

/** Tag represents a repository tag */
export interface Tag {
  name: string;
  message: string;
  id: string;
  commit: CommitMeta;
  zipball_url: string;
  tarball_url: string;
  archive_download_count: TagArchiveDownloadCount;
}

/** CreateTagProtectionOption options for creating a tag protection */
export interface CreateTagProtectionOption {
  name_pattern?: string;
  whitelist_teams?: string[];
  whitelist_usernames?: string[];
}

/** TagProtection represents a tag protection */
export interface TagProtection {
  created_at: string;
  id: number;
  name_pattern: string;
  updated_at: string;
  whitelist_teams: string[];
  whitelist_usernames: string[];
}

/** CreateWikiPageOptions form for creating wiki */
export interface CreateWikiPageOptions {
  /** page title. leave empty to keep unchanged */
  title?: string;
  /** content must be base64 encoded */
  content_base64?: string;
  /** optional commit message summarizing the change */
  message?: string;
}

/** WikiPage a wiki page */
export interface WikiPage {
  title: string;
  html_url: string;
  sub_url: string;
  last_commit: WikiCommit;
  /** Page content, base64 encoded */
  content_base64: string;
  commit_count: number;
  sidebar: string;
  footer: string;
}

/** WikiCommit page commit/revision */
export interface WikiCommit {
  sha: string;
  author: CommitUser;
  commiter: CommitUser;
  message: string;
}

/** DeleteFileOptions options for deleting files (used for other File structs below) */
export interface DeleteFileOptions {
  author?: Identity;
  committer?: Identity;
  /** branch (optional) to base this file from. if not given, the default branch is used */
  branch?: string;
  /** new_branch (optional) will make a new branch from `branch` before creating the file */
  new_branch?: string;
  /** message (optional) for the commit of this file. if not supplied, a default message will be used */
  message?: string;
  dates?: CommitDateOptions;
  /** Add a Signed-off-by trailer by the committer at the end of the commit log message. */
  signoff?: boolean;
  /** (optional) will do a force-push if the new branch already exists */
  force_overwrite_new_branch?: boolean;
  /** sha is the SHA for the file that already exists */
  sha: string;
}

/** FileDeleteResponse contains information about a repo's file that was deleted */
export interface FileDeleteResponse {
  content: null;
  commit: FileCommitResponse;
  verification: PayloadCommitVerification;
}

/** DismissPullReviewOptions are options to dismiss a pull review */
export interface DismissPullReviewOptions {
  message?: string;
  priors?: boolean;
}

/** EditRepoOption options when editing a repository's properties */
export interface EditRepoOption {
  /** name of the repository */
  name?: string;
  /** a short description of the repository. */
  description?: string;
  /** a URL with more information about the repository. */
  website?: string;
  /** either `true` to make the repository private or `false` to make it public. */
  private?: boolean;
  /** either `true` to make this repository a template or `false` to make it a normal repository */
  template?: boolean;
  /** either `true` to enable issues for this repository or `false` to disable them. */
  has_issues?: boolean;
  internal_tracker?: InternalTracker;
  external_tracker?: ExternalTracker;
  /** either `true` to enable the wiki for this repository or `false` to disable it. */
  has_wiki?: boolean;
  external_wiki?: ExternalWiki;
  /** set the globally editable state of the wiki */
  globally_editable_wiki?: boolean;
  /** sets the default branch for this repository. */
  default_branch?: string;
  /** sets the branch used for this repository's wiki. */
  wiki_branch?: string;
  /** either `true` to allow pull requests, or `false` to prevent pull request. */
  has_pull_requests?: boolean;
  /** either `true` to enable project unit, or `false` to disable them. */
  has_projects?: boolean;
  /** either `true` to enable releases unit, or `false` to disable them. */
  has_releases?: boolean;
  /** either `true` to enable packages unit, or `false` to disable them. */
  has_packages?: boolean;
  /** either `true` to enable actions unit, or `false` to disable them. */
  has_actions?: boolean;
  ignore_whitespace_conflicts?: boolean;
  allow_merge_commits?: boolean;
  allow_rebase?: boolean;
  allow_rebase_explicit?: boolean;
  allow_squash_merge?: boolean;
  allow_fast_forward_only_merge?: boolean;
  allow_manual_merge?: boolean;
  autodetect_manual_merge?: boolean;
  allow_rebase_update?: boolean;
  default_delete_branch_after_merge?: boolean;
  /** set to a merge style to be used by this repository */
  default_merge_style?: "merge" | "rebase" | "rebase-merge" | "squash" | "fast-forward-only" | "manually-merged" | "rebase-update-only";
  /** set to a update style to be used by this repository: "rebase" or "merge" */
  default_update_style?: "merge" | "rebase";
  default_allow_maintainer_edit?: boolean;
  /** set to `true` to archive this repository. */
  archived?: boolean;
  /** set to a string like `8h30m0s` to set the mirror interval time */
  mirror_interval?: string;
  /** enable prune - remove obsolete remote-tracking references when mirroring */
  enable_prune?: boolean;
}

/** EditBranchProtectionOption options for editing a branch protection */
export interface EditBranchProtectionOption {
  apply_to_admins?: boolean;
  approvals_whitelist_teams?: string[];
  approvals_whitelist_username?: string[];
  block_on_official_review_requests?: boolean;
  block_on_outdated_branch?: boolean;
  block_on_rejected_reviews?: boolean;
  dismiss_stale_approvals?: boolean;
  enable_approvals_whitelist?: boolean;
  enable_merge_whitelist?: boolean;
  enable_push?: boolean;
  enable_push_whitelist?: boolean;
  enable_status_check?: boolean;
  ignore_stale_approvals?: boolean;
  merge_whitelist_teams?: string[];
  merge_whitelist_usernames?: string[];
  protected_file_patterns?: string;
  push_whitelist_deploy_keys?: boolean;
  push_whitelist_teams?: string[];
  push_whitelist_usernames?: string[];
  require_signed_commits?: boolean;
  required_approvals?: number;
  status_check_contexts?: string[];
  unprotected_file_patterns?: string;
}

/** EditGitHookOption options when modifying one Git hook */
export interface EditGitHookOption {
  content?: string;
}

/** GitHook represents a Git repository hook */
export interface GitHook {
  name: string;
  is_active: boolean;
  content: string;
}

/** EditPullRequestOption options when modify pull request */
export interface EditPullRequestOption {
  title?: string;
  body?: string;
  base?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  labels?: number[];
  state?: string;
  due_date?: string;
  unset_due_date?: boolean;
  allow_maintainer_edit?: boolean;
}

/** EditReleaseOption options when editing a release */
export interface EditReleaseOption {
  tag_name?: string;
  target_commitish?: string;
  name?: string;
  body?: string;
  draft?: boolean;
  prerelease?: boolean;
  hide_archive_links?: boolean;
}

/** EditTagProtectionOption options for editing a tag protection */
export interface EditTagProtectionOption {
  name_pattern?: string;
  whitelist_teams?: string[];
  whitelist_usernames?: string[];
}

/** CombinedStatus holds the combined state of several statuses for a single commit */
export interface CombinedStatus {
  state: "pending" | "success" | "error" | "failure" | "warning" | "";
  sha: string;
  total_count: number;
  statuses: CommitStatus[] | null;
  repository: Repository | null;
  commit_url: string;
  url: string;
}

export interface IssueConfig {
  blank_issues_enabled: boolean;
  contact_links: IssueConfigContactLink[];
}

export interface IssueConfigContactLink {
  name: string;
  url: string;
  about: string;
}

/** IssueTemplate represents an issue template for a repository */
export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  ref: string;
  content: string;
  body: IssueFormField[] | null;
  file_name: string;
}

/** IssueFormField represents a form field */
export interface IssueFormField {
  type: string;
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  visible: string[] | null;
}

/** Note contains information related to a git note */
export interface Note {
  commit: Commit;
  message: string;
}

/** ChangedFile store information about files affected by the pull request */
export interface ChangedFile {
  filename: string;
  previous_filename?: string;
  status: string;
  additions: number;
  deletions: number;
  changes: number;
  html_url: string;
  contents_url: string;
  raw_url: string;
}

/** RepoCollaboratorPermission to get repository permission for a collaborator */
export interface RepoCollaboratorPermission {
  /** Permission level of the collaborator */
  permission: string;
  /** RoleName is the name of the permission role */
  role_name: string;
  user: User;
}

/** WikiCommitList commit/revision list */
export interface WikiCommitList {
  commits: WikiCommit[];
  count: number;
}

/** WikiPageMetaData wiki page meta information */
export interface WikiPageMetaData {
  title: string;
  html_url: string;
  sub_url: string;
  last_commit: WikiCommit;
}

export interface Reference {
  object: GitObject;
  ref: string;
  url: string;
}

export interface GitObject {
  sha: string;
  type: string;
  url: string;
}

/** TopicName a list of repo topic names */
export interface TopicName {
  topics: string[];
}

/** MergePullRequestForm form for merging Pull Request */
export interface MergePullRequestOption {
  Do: "merge" | "rebase" | "rebase-merge" | "squash" | "fast-forward-only" | "manually-merged";
  MergeCommitID?: string;
  MergeMessageField?: string;
  MergeTitleField?: string;
  delete_branch_after_merge?: boolean;
  force_merge?: boolean;
  head_commit_id?: string;
  merge_when_checks_succeed?: boolean;
}

/**
 * MigrateRepoOptions options for migrating repository's
 * this is used to interact with api v1
 */
export interface MigrateRepoOptions {
  clone_addr: string;
  repo_name: string;
  /** Name of User or Organisation who will own Repo after migration */
  repo_owner?: string;
  /** deprecated (only for backwards compatibility) */
  uid?: number;
  auth_username?: string;
  auth_password?: string;
  auth_token?: string;
  description?: string;
  private?: boolean;
  mirror?: boolean;
  mirror_interval?: string;
  service?: "git" | "github" | "gitea" | "gitlab" | "gogs" | "onedev" | "gitbucket" | "codebase" | "forgejo" | "pagure" | "bitbucketdc";
  issues?: boolean;
  labels?: boolean;
  milestones?: boolean;
  releases?: boolean;
  pull_requests?: boolean;
  wiki?: boolean;
  lfs?: boolean;
  lfs_endpoint?: string;
}

/** NewIssuePinsAllowed represents an API response that says if new Issue Pins are allowed */
export interface NewIssuePinsAllowed {
  issues: boolean;
  pull_requests: boolean;
}

/** ReplaceFlagsOption options when replacing the flags of a repository */
export interface ReplaceFlagsOption {
  flags?: string[];
}

/** SearchResults results of a successful search */
export interface SearchResults {
  ok: boolean;
  data: Repository[];
}

export interface NoteOptions {
  message?: string;
}

/** SubmitPullReviewOptions are options to submit a pending pull review */
export interface SubmitPullReviewOptions {
  /** ReviewStateType review state type */
  event?: string;
  body?: string;
}

/** SyncForkInfo information about syncing a fork */
export interface SyncForkInfo {
  allowed: boolean;
  fork_commit: string;
  base_commit: string;
  commits_behind: number;
}

/** TransferRepoOption options when transfer a repository's ownership */
export interface TransferRepoOption {
  new_owner: string;
  /** ID of the team or teams to add to the repository. Teams can only be added to organization-owned repositories. */
  team_ids?: number[];
}

/** UpdateRepoAvatarUserOption options when updating the repo avatar */
export interface UpdateRepoAvatarOption {
  /** image must be base64 encoded */
  image?: string;
}

/** UpdateBranchRepoOption options when updating a branch in a repository */
export interface UpdateBranchRepoOption {
  /** New branch name */
  name: string;
}

/** RepoTopicOptions a collection of repo topic names */
export interface RepoTopicOptions {
  /** list of topic names */
  topics?: string[];
}

export interface IssueConfigValidation {
  valid: boolean;
  message: string;
}

/** SearchResults of a successful search */
export interface TeamSearchResults {
  ok: boolean;
  data: Team[];
}

/** TopicResponse for returning topics */
export interface TopicResponse {
  id: number;
  topic_name: string;
  repo_count: number;
  created: string;
  updated: string;
}

/** CreateOrUpdateSecretOption defines the properties of the secret to create or update. */
export interface CreateOrUpdateSecretOption {
  /** Data of the secret. Special characters will be retained. Line endings will be normalized to LF to match the behaviour of browsers. Encode the data with Base64 if line endings should be retained. */
  data: string;
}

/** UpdateVariableOption defines the properties of the variable to update. */
export interface UpdateVariableOption {
  /** New name for the variable. If the field is empty, the variable name won't be updated. Forgejo will convert it to uppercase. */
  name?: string;
  /** Value of the variable to update. Special characters will be retained. Line endings will be normalized to LF to match the behaviour of browsers. Encode the data with Base64 if line endings should be retained. */
  value: string;
}

/** UserSettingsOptions represents options to change user settings */
export interface UserSettingsOptions {
  full_name?: string;
  website?: string;
  description?: string;
  location?: string;
  pronouns?: string;
  language?: string;
  theme?: string;
  diff_view_style?: string;
  enable_repo_unit_hints?: boolean;
  hide_email?: boolean;
  hide_pronouns?: boolean;
  hide_activity?: boolean;
}

/** CreateEmailOption options when creating email addresses */
export interface CreateEmailOption {
  /** email addresses to add */
  emails?: string[];
}

/** CreateOAuth2ApplicationOptions holds options to create an oauth2 application */
export interface CreateOAuth2ApplicationOptions {
  name: string;
  confidential_client?: boolean;
  redirect_uris: string[];
}

export interface OAuth2Application {
  id: number;
  name: string;
  client_id: string;
  client_secret: string;
  confidential_client: boolean;
  redirect_uris: string[];
  created: string;
}

export interface APRemoteFollowOption {
  target?: string;
}

/** GPGKey a user GPG key to sign commit and tag in repository */
export interface GPGKey {
  id: number;
  primary_key_id: string;
  key_id: string;
  public_key: string;
  emails: GPGKeyEmail[];
  can_sign: boolean;
  can_encrypt_comms: boolean;
  can_encrypt_storage: boolean;
  can_certify: boolean;
  verified: boolean;
  created_at: string;
  expires_at: string;
  subkeys: GPGKey[];
}

/** GPGKeyEmail an email attached to a GPGKey */
export interface GPGKeyEmail {
  email: string;
  verified: boolean;
}

/** CreateGPGKeyOption options create user GPG key */
export interface CreateGPGKeyOption {
  /** An armored GPG key to add */
  armored_public_key: string;
  armored_signature?: string;
}

/** UserHeatmapData represents the data needed to create a heatmap */
export interface UserHeatmapData {
  timestamp: number;
  contributions: number;
}

/** StopWatch represent a running stopwatch */
export interface StopWatch {
  created: string;
  seconds: number;
  duration: string;
  issue_index: number;
  issue_title: string;
  repo_owner_name: string;
  repo_name: string;
}

/** VerifyGPGKeyOption options verifies user GPG key */
export interface VerifyGPGKeyOption {
  /** An Signature for a GPG key token */
  key_id: string;
  armored_signature?: string;
}

// Operations, by operationId: each takes the transport first (see `createTransport`).

/**
 * Get an action run
 *
 * `GET /repos/{owner}/{repo}/actions/runs/{run_id}`
 */
export function ActionRun(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<ActionRun> {
  return transport.json<ActionRun>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}`, options });
}

/**
 * Cancel a pending or running workflow run.
 *
 * `POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel`
 */
export function CancelActionRun(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}/cancel`, options });
}

/**
 * Mark an artifact for deletion
 *
 * `DELETE /repos/{owner}/{repo}/actions/artifacts/{artifact_id}`
 */
export function DeleteActionArtifact(transport: Transport, owner: string | number, repo: string | number, artifact_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/actions/artifacts/${segment(artifact_id)}`, options });
}

/**
 * Delete a completed workflow run.
 *
 * `DELETE /repos/{owner}/{repo}/actions/runs/{run_id}`
 */
export function DeleteActionRun(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}`, options });
}

/**
 * Dispatches a workflow
 *
 * `POST /repos/{owner}/{repo}/actions/workflows/{workflowfilename}/dispatches`
 */
export function DispatchWorkflow(transport: Transport, owner: string | number, repo: string | number, workflowfilename: string | number, body: DispatchWorkflowOption, options?: CallOptions): Promise<DispatchWorkflowRun> {
  return transport.json<DispatchWorkflowRun>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/workflows/${segment(workflowfilename)}/dispatches`, json: body, options });
}

/**
 * Download an artifact
 *
 * `GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip`
 */
export function DownloadActionArtifact(transport: Transport, owner: string | number, repo: string | number, artifact_id: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/artifacts/${segment(artifact_id)}/zip`, options });
}

/**
 * Get an artifact by ID
 *
 * `GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}`
 */
export function GetActionArtifact(transport: Transport, owner: string | number, repo: string | number, artifact_id: string | number, options?: CallOptions): Promise<ActionArtifact> {
  return transport.json<ActionArtifact>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/artifacts/${segment(artifact_id)}`, options });
}

/**
 * Gets the tag object of an annotated tag (not lightweight tags)
 *
 * `GET /repos/{owner}/{repo}/git/tags/{sha}`
 */
export function GetAnnotatedTag(transport: Transport, owner: string | number, repo: string | number, sha: string | number, options?: CallOptions): Promise<AnnotatedTag> {
  return transport.json<AnnotatedTag>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/tags/${segment(sha)}`, options });
}

/**
 * Gets the blob of a repository.
 *
 * `GET /repos/{owner}/{repo}/git/blobs/{sha}`
 */
export function GetBlob(transport: Transport, owner: string | number, repo: string | number, sha: string | number, options?: CallOptions): Promise<GitBlob> {
  return transport.json<GitBlob>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/blobs/${segment(sha)}`, options });
}

export type GetBlobsQuery = {
  /** a comma separated list of blob-sha (mind the overall URL-length limit of ~2,083 chars) */
  shas?: string;
};
/**
 * Gets multiple blobs of a repository.
 *
 * `GET /repos/{owner}/{repo}/git/blobs`
 */
export function GetBlobs(transport: Transport, owner: string | number, repo: string | number, query?: GetBlobsQuery, options?: CallOptions): Promise<GitBlob[]> {
  return transport.json<GitBlob[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/blobs`, query, options });
}

export type GetTreeQuery = {
  /** show all directories and files */
  recursive?: boolean;
  /** page number; the 'truncated' field in the response will be true if there are still more items after this page, false if the last page */
  page?: number;
  /** number of items per page */
  per_page?: number;
};
/**
 * Gets the tree of a repository.
 *
 * `GET /repos/{owner}/{repo}/git/trees/{sha}`
 */
export function GetTree(transport: Transport, owner: string | number, repo: string | number, sha: string | number, query?: GetTreeQuery, options?: CallOptions): Promise<GitTreeResponse> {
  return transport.json<GitTreeResponse>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/trees/${segment(sha)}`, query, options });
}

export type ListActionArtifactsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** filter by artifact name */
  name?: string;
};
/**
 * List a repository's artifacts
 *
 * `GET /repos/{owner}/{repo}/actions/artifacts` (a page: await it for one, iterate it for all)
 */
export function ListActionArtifacts(transport: Transport, owner: string | number, repo: string | number, query?: ListActionArtifactsQuery, options?: CallOptions): PageRequest<ActionArtifact> {
  return pageRequest<ActionArtifact>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/artifacts`, query, options });
}

export type ListActionRunArtifactsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** filter by artifact name */
  name?: string;
};
/**
 * List artifacts of a workflow run
 *
 * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts` (a page: await it for one, iterate it for all)
 */
export function ListActionRunArtifacts(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, query?: ListActionRunArtifactsQuery, options?: CallOptions): PageRequest<ActionArtifact> {
  return pageRequest<ActionArtifact>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}/artifacts`, query, options });
}

/**
 * List jobs of a workflow run
 *
 * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs`
 */
export function ListActionRunJobs(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}/jobs`, options });
}

export type ListActionRunsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results, default maximum page size is 50 */
  limit?: number;
  /** Returns workflow run triggered by the specified events. For example, `push`, `pull_request` or `workflow_dispatch`. */
  event?: string[];
  /** Returns workflow runs with the check run status or conclusion that is specified. */
  status?: string[];
  /** Returns the workflow run associated with the run number. */
  run_number?: number;
  /** Only returns workflow runs that are associated with the specified head_sha. */
  head_sha?: string;
  /** Only return workflow runs that involve the given Git reference, for example, `refs/heads/main`. */
  ref?: string;
  /** Only return workflow runs that involve the given workflow ID. */
  workflow_id?: string;
};
/**
 * List a repository's action runs
 *
 * `GET /repos/{owner}/{repo}/actions/runs`
 */
export function ListActionRuns(transport: Transport, owner: string | number, repo: string | number, query?: ListActionRunsQuery, options?: CallOptions): Promise<ListActionRunResponse> {
  return transport.json<ListActionRunResponse>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs`, query, options });
}

export type ListActionTasksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results, default maximum page size is 50 */
  limit?: number;
  /** Returns workflow tasks with the check run status or conclusion that is specified */
  status?: string[];
};
/**
 * List a repository's action tasks
 *
 * `GET /repos/{owner}/{repo}/actions/tasks`
 */
export function ListActionTasks(transport: Transport, owner: string | number, repo: string | number, query?: ListActionTasksQuery, options?: CallOptions): Promise<ActionTaskResponse> {
  return transport.json<ActionTaskResponse>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/tasks`, query, options });
}

/**
 * Rerun a finished (succeeded, failed, cancelled or skipped) workflow run.
 *
 * `POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun`
 */
export function RerunActionRun(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}/rerun`, options });
}

/**
 * Accept a repo transfer
 *
 * `POST /repos/{owner}/{repo}/transfer/accept`
 */
export function acceptRepoTransfer(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/transfer/accept`, options });
}

/**
 * Returns the instance's Actor
 *
 * `GET /activitypub/actor`
 */
export function activitypubInstanceActor(transport: Transport, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/actor`, options });
}

/**
 * Send to the inbox
 *
 * `POST /activitypub/actor/inbox`
 */
export function activitypubInstanceActorInbox(transport: Transport, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/activitypub/actor/inbox`, options });
}

/**
 * Display the outbox (always empty)
 *
 * `POST /activitypub/actor/outbox`
 */
export function activitypubInstanceActorOutbox(transport: Transport, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/activitypub/actor/outbox`, options });
}

/**
 * Returns the Person actor for a user
 *
 * `GET /activitypub/user-id/{user-id}`
 */
export function activitypubPerson(transport: Transport, userId: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/user-id/${segment(userId)}`, options });
}

/**
 * Get a specific activity of the user
 *
 * `GET /activitypub/user-id/{user-id}/activities/{activity-id}/activity`
 */
export function activitypubPersonActivity(transport: Transport, userId: string | number, activityId: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/user-id/${segment(userId)}/activities/${segment(activityId)}/activity`, options });
}

/**
 * Get a specific activity object of the user
 *
 * `GET /activitypub/user-id/{user-id}/activities/{activity-id}`
 */
export function activitypubPersonActivityNote(transport: Transport, userId: string | number, activityId: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/user-id/${segment(userId)}/activities/${segment(activityId)}`, options });
}

export type ActivitypubPersonFeedQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the user's recorded activity
 *
 * `GET /activitypub/user-id/{user-id}/outbox`
 */
export function activitypubPersonFeed(transport: Transport, userId: string | number, query?: ActivitypubPersonFeedQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/user-id/${segment(userId)}/outbox`, query, options });
}

/**
 * Send to the inbox
 *
 * `POST /activitypub/user-id/{user-id}/inbox`
 */
export function activitypubPersonInbox(transport: Transport, userId: string | number, options?: CallOptions): Promise<ActivityPub> {
  return transport.json<ActivityPub>({ method: 'POST', path: `/activitypub/user-id/${segment(userId)}/inbox`, options });
}

/**
 * Returns the Repository actor for a repo
 *
 * `GET /activitypub/repository-id/{repository-id}`
 */
export function activitypubRepository(transport: Transport, repositoryId: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/activitypub/repository-id/${segment(repositoryId)}`, options });
}

/**
 * Send to the inbox
 *
 * `POST /activitypub/repository-id/{repository-id}/inbox`
 */
export function activitypubRepositoryInbox(transport: Transport, repositoryId: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/activitypub/repository-id/${segment(repositoryId)}/inbox`, options });
}

/**
 * Display the outbox
 *
 * `POST /activitypub/repository-id/{repository-id}/outbox`
 */
export function activitypubRepositoryOutbox(transport: Transport, repositoryId: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/activitypub/repository-id/${segment(repositoryId)}/outbox`, options });
}

/**
 * Adds a rule to a quota group
 *
 * `PUT /admin/quota/groups/{quotagroup}/rules/{quotarule}`
 */
export function adminAddRuleToQuotaGroup(transport: Transport, quotagroup: string | number, quotarule: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/admin/quota/groups/${segment(quotagroup)}/rules/${segment(quotarule)}`, options });
}

/**
 * Add a user to a quota group
 *
 * `PUT /admin/quota/groups/{quotagroup}/users/{username}`
 */
export function adminAddUserToQuotaGroup(transport: Transport, quotagroup: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/admin/quota/groups/${segment(quotagroup)}/users/${segment(username)}`, options });
}

/**
 * Adopt unadopted files as a repository
 *
 * `POST /admin/unadopted/{owner}/{repo}`
 */
export function adminAdoptRepository(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/admin/unadopted/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Create a hook
 *
 * `POST /admin/hooks`
 */
export function adminCreateHook(transport: Transport, body: CreateHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'POST', path: `/admin/hooks`, json: body, options });
}

/**
 * Create an organization
 *
 * `POST /admin/users/{username}/orgs`
 */
export function adminCreateOrg(transport: Transport, username: string | number, body: CreateOrgOption, options?: CallOptions): Promise<Organization> {
  return transport.json<Organization>({ method: 'POST', path: `/admin/users/${segment(username)}/orgs`, json: body, options });
}

/**
 * Add an SSH public key to user's account
 *
 * `POST /admin/users/{username}/keys`
 */
export function adminCreatePublicKey(transport: Transport, username: string | number, body: CreateKeyOption, options?: CallOptions): Promise<PublicKey> {
  return transport.json<PublicKey>({ method: 'POST', path: `/admin/users/${segment(username)}/keys`, json: body, options });
}

/**
 * Create a new quota group
 *
 * `POST /admin/quota/groups`
 */
export function adminCreateQuotaGroup(transport: Transport, body: CreateQuotaGroupOptions, options?: CallOptions): Promise<QuotaGroup> {
  return transport.json<QuotaGroup>({ method: 'POST', path: `/admin/quota/groups`, json: body, options });
}

/**
 * Create a new quota rule
 *
 * `POST /admin/quota/rules`
 */
export function adminCreateQuotaRule(transport: Transport, body: CreateQuotaRuleOptions, options?: CallOptions): Promise<QuotaRuleInfo> {
  return transport.json<QuotaRuleInfo>({ method: 'POST', path: `/admin/quota/rules`, json: body, options });
}

/**
 * Create a repository on behalf of a user
 *
 * `POST /admin/users/{username}/repos`
 */
export function adminCreateRepo(transport: Transport, username: string | number, body: CreateRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/admin/users/${segment(username)}/repos`, json: body, options });
}

/**
 * Create a user
 *
 * `POST /admin/users`
 */
export function adminCreateUser(transport: Transport, body: CreateUserOption, options?: CallOptions): Promise<User> {
  return transport.json<User>({ method: 'POST', path: `/admin/users`, json: body, options });
}

/**
 * Generate an access token for the specified user
 *
 * `POST /admin/users/{username}/tokens`
 */
export function adminCreateUserAccessToken(transport: Transport, username: string | number, body: CreateAccessTokenOption, options?: CallOptions): Promise<AccessToken> {
  return transport.json<AccessToken>({ method: 'POST', path: `/admin/users/${segment(username)}/tokens`, json: body, options });
}

export type AdminCronListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List cron tasks
 *
 * `GET /admin/cron` (a page: await it for one, iterate it for all)
 */
export function adminCronList(transport: Transport, query?: AdminCronListQuery, options?: CallOptions): PageRequest<Cron> {
  return pageRequest<Cron>(transport, { method: 'GET', path: `/admin/cron`, query, options });
}

/**
 * Run cron task
 *
 * `POST /admin/cron/{task}`
 */
export function adminCronRun(transport: Transport, task: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/admin/cron/${segment(task)}`, options });
}

/**
 * Deletes a quota rule
 *
 * `DELETE /admin/quota/rules/{quotarule}`
 */
export function adminDEleteQuotaRule(transport: Transport, quotarule: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/quota/rules/${segment(quotarule)}`, options });
}

/**
 * Delete a hook
 *
 * `DELETE /admin/hooks/{id}`
 */
export function adminDeleteHook(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/hooks/${segment(id)}`, options });
}

/**
 * Delete a quota group
 *
 * `DELETE /admin/quota/groups/{quotagroup}`
 */
export function adminDeleteQuotaGroup(transport: Transport, quotagroup: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/quota/groups/${segment(quotagroup)}`, options });
}

/**
 * Delete unadopted files
 *
 * `DELETE /admin/unadopted/{owner}/{repo}`
 */
export function adminDeleteUnadoptedRepository(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/unadopted/${segment(owner)}/${segment(repo)}`, options });
}

export type AdminDeleteUserQuery = {
  /** purge the user from the system completely */
  purge?: boolean;
};
/**
 * Delete user account
 *
 * `DELETE /admin/users/{username}`
 */
export function adminDeleteUser(transport: Transport, username: string | number, query?: AdminDeleteUserQuery, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/users/${segment(username)}`, query, options });
}

/**
 * Delete an access token from the specified user's account
 *
 * `DELETE /admin/users/{username}/tokens/{token}`
 */
export function adminDeleteUserAccessToken(transport: Transport, username: string | number, token: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/users/${segment(username)}/tokens/${segment(token)}`, options });
}

/**
 * Delete email addresses from a user's account
 *
 * `DELETE /admin/users/{username}/emails`
 */
export function adminDeleteUserEmails(transport: Transport, username: string | number, body: DeleteEmailOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/users/${segment(username)}/emails`, json: body, options });
}

/**
 * Remove a public key from user's account
 *
 * `DELETE /admin/users/{username}/keys/{id}`
 */
export function adminDeleteUserPublicKey(transport: Transport, username: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/users/${segment(username)}/keys/${segment(id)}`, options });
}

/**
 * Update a hook
 *
 * `PATCH /admin/hooks/{id}`
 */
export function adminEditHook(transport: Transport, id: string | number, body: EditHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'PATCH', path: `/admin/hooks/${segment(id)}`, json: body, options });
}

/**
 * Change an existing quota rule
 *
 * `PATCH /admin/quota/rules/{quotarule}`
 */
export function adminEditQuotaRule(transport: Transport, quotarule: string | number, body: EditQuotaRuleOptions, options?: CallOptions): Promise<QuotaRuleInfo> {
  return transport.json<QuotaRuleInfo>({ method: 'PATCH', path: `/admin/quota/rules/${segment(quotarule)}`, json: body, options });
}

/**
 * Edit an existing user
 *
 * `PATCH /admin/users/{username}`
 */
export function adminEditUser(transport: Transport, username: string | number, body: EditUserOption, options?: CallOptions): Promise<User> {
  return transport.json<User>({ method: 'PATCH', path: `/admin/users/${segment(username)}`, json: body, options });
}

export type AdminGetActionRunJobsQuery = {
  /** a comma separated list of run job labels to search for */
  labels?: string;
};
/**
 * Get action run jobs
 *
 * `GET /admin/actions/runners/jobs`
 */
export function adminGetActionRunJobs(transport: Transport, query?: AdminGetActionRunJobsQuery, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/admin/actions/runners/jobs`, query, options });
}

export type AdminGetAllEmailsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List all users' email addresses
 *
 * `GET /admin/emails` (a page: await it for one, iterate it for all)
 */
export function adminGetAllEmails(transport: Transport, query?: AdminGetAllEmailsQuery, options?: CallOptions): PageRequest<Email> {
  return pageRequest<Email>(transport, { method: 'GET', path: `/admin/emails`, query, options });
}

export type AdminGetAllOrgsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List all organizations
 *
 * `GET /admin/orgs` (a page: await it for one, iterate it for all)
 */
export function adminGetAllOrgs(transport: Transport, query?: AdminGetAllOrgsQuery, options?: CallOptions): PageRequest<Organization> {
  return pageRequest<Organization>(transport, { method: 'GET', path: `/admin/orgs`, query, options });
}

/**
 * Get a hook
 *
 * `GET /admin/hooks/{id}`
 */
export function adminGetHook(transport: Transport, id: string | number, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'GET', path: `/admin/hooks/${segment(id)}`, options });
}

/**
 * Get one delivery of a hook, with its request and response
 *
 * `GET /admin/hooks/{id}/deliveries/{delivery_id}`
 */
export function adminGetHookDelivery(transport: Transport, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<HookDelivery> {
  return transport.json<HookDelivery>({ method: 'GET', path: `/admin/hooks/${segment(id)}/deliveries/${segment(delivery_id)}`, options });
}

/**
 * Get information about the quota group
 *
 * `GET /admin/quota/groups/{quotagroup}`
 */
export function adminGetQuotaGroup(transport: Transport, quotagroup: string | number, options?: CallOptions): Promise<QuotaGroup> {
  return transport.json<QuotaGroup>({ method: 'GET', path: `/admin/quota/groups/${segment(quotagroup)}`, options });
}

/**
 * Get information about a quota rule
 *
 * `GET /admin/quota/rules/{quotarule}`
 */
export function adminGetQuotaRule(transport: Transport, quotarule: string | number, options?: CallOptions): Promise<QuotaRuleInfo> {
  return transport.json<QuotaRuleInfo>({ method: 'GET', path: `/admin/quota/rules/${segment(quotarule)}`, options });
}

/**
 * Get a runner registration token for registering global runners
 *
 * `GET /admin/runners/registration-token`
 */
export function adminGetRegistrationToken(transport: Transport, options?: CallOptions): Promise<RegistrationToken> {
  return transport.json<RegistrationToken>({ method: 'GET', path: `/admin/runners/registration-token`, options });
}

/**
 * Get a runner registration token for registering global runners
 *
 * `GET /admin/actions/runners/registration-token`
 */
export function adminGetRunnerRegistrationToken(transport: Transport, options?: CallOptions): Promise<RegistrationToken> {
  return transport.json<RegistrationToken>({ method: 'GET', path: `/admin/actions/runners/registration-token`, options });
}

/**
 * Get the user's quota info
 *
 * `GET /admin/users/{username}/quota`
 */
export function adminGetUserQuota(transport: Transport, username: string | number, options?: CallOptions): Promise<QuotaInfo> {
  return transport.json<QuotaInfo>({ method: 'GET', path: `/admin/users/${segment(username)}/quota`, options });
}

export type AdminListHookDeliveriesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a hook's deliveries (one per attempt), newest first
 *
 * `GET /admin/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
 */
export function adminListHookDeliveries(transport: Transport, id: string | number, query?: AdminListHookDeliveriesQuery, options?: CallOptions): PageRequest<HookDeliveryItem> {
  return pageRequest<HookDeliveryItem>(transport, { method: 'GET', path: `/admin/hooks/${segment(id)}/deliveries`, query, options });
}

export type AdminListHooksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** system, default or both (default: system) */
  type?: "system" | "default" | "all";
};
/**
 * List the hooks
 *
 * `GET /admin/hooks` (a page: await it for one, iterate it for all)
 */
export function adminListHooks(transport: Transport, query?: AdminListHooksQuery, options?: CallOptions): PageRequest<Hook> {
  return pageRequest<Hook>(transport, { method: 'GET', path: `/admin/hooks`, query, options });
}

/**
 * List the available quota groups
 *
 * `GET /admin/quota/groups`
 */
export function adminListQuotaGroups(transport: Transport, options?: CallOptions): Promise<QuotaGroupList> {
  return transport.json<QuotaGroupList>({ method: 'GET', path: `/admin/quota/groups`, options });
}

/**
 * List the available quota rules
 *
 * `GET /admin/quota/rules`
 */
export function adminListQuotaRules(transport: Transport, options?: CallOptions): Promise<QuotaRuleInfo[]> {
  return transport.json<QuotaRuleInfo[]>({ method: 'GET', path: `/admin/quota/rules`, options });
}

export type AdminListUserAccessTokensQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the specified user's access tokens
 *
 * `GET /admin/users/{username}/tokens` (a page: await it for one, iterate it for all)
 */
export function adminListUserAccessTokens(transport: Transport, username: string | number, query?: AdminListUserAccessTokensQuery, options?: CallOptions): PageRequest<AccessToken> {
  return pageRequest<AccessToken>(transport, { method: 'GET', path: `/admin/users/${segment(username)}/tokens`, query, options });
}

/**
 * List all email addresses for a user
 *
 * `GET /admin/users/{username}/emails`
 */
export function adminListUserEmails(transport: Transport, username: string | number, options?: CallOptions): Promise<Email[]> {
  return transport.json<Email[]>({ method: 'GET', path: `/admin/users/${segment(username)}/emails`, options });
}

/**
 * List users in a quota group
 *
 * `GET /admin/quota/groups/{quotagroup}/users`
 */
export function adminListUsersInQuotaGroup(transport: Transport, quotagroup: string | number, options?: CallOptions): Promise<User[]> {
  return transport.json<User[]>({ method: 'GET', path: `/admin/quota/groups/${segment(quotagroup)}/users`, options });
}

/**
 * Deliver a delivery again (same delivery id and body), as a new attempt
 *
 * `POST /admin/hooks/{id}/deliveries/{delivery_id}/attempts`
 */
export function adminRedeliverHook(transport: Transport, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<Record<string, unknown>> {
  return transport.json<Record<string, unknown>>({ method: 'POST', path: `/admin/hooks/${segment(id)}/deliveries/${segment(delivery_id)}/attempts`, options });
}

/**
 * Removes a rule from a quota group
 *
 * `DELETE /admin/quota/groups/{quotagroup}/rules/{quotarule}`
 */
export function adminRemoveRuleFromQuotaGroup(transport: Transport, quotagroup: string | number, quotarule: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/quota/groups/${segment(quotagroup)}/rules/${segment(quotarule)}`, options });
}

/**
 * Remove a user from a quota group
 *
 * `DELETE /admin/quota/groups/{quotagroup}/users/{username}`
 */
export function adminRemoveUserFromQuotaGroup(transport: Transport, quotagroup: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/quota/groups/${segment(quotagroup)}/users/${segment(username)}`, options });
}

/**
 * Rename a user
 *
 * `POST /admin/users/{username}/rename`
 */
export function adminRenameUser(transport: Transport, username: string | number, body: RenameUserOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/admin/users/${segment(username)}/rename`, json: body, options });
}

export type AdminSearchEmailsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** keyword */
  q?: string;
};
/**
 * Search users' email addresses
 *
 * `GET /admin/emails/search` (a page: await it for one, iterate it for all)
 */
export function adminSearchEmails(transport: Transport, query?: AdminSearchEmailsQuery, options?: CallOptions): PageRequest<Email> {
  return pageRequest<Email>(transport, { method: 'GET', path: `/admin/emails/search`, query, options });
}

export type AdminSearchRunJobsQuery = {
  /** a comma separated list of run job labels to search for */
  labels?: string;
};
/**
 * Search action jobs according to filter conditions
 *
 * `GET /admin/runners/jobs`
 */
export function adminSearchRunJobs(transport: Transport, query?: AdminSearchRunJobsQuery, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/admin/runners/jobs`, query, options });
}

export type AdminSearchUsersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** ID of the user's login source to search for */
  source_id?: number;
  /** user's login name to search for */
  login_name?: string;
  /** whether or not to filter users with the 2fa enabled */
  is_2fa_enabled?: boolean;
  /** sort order of results: oldest, newest, alphabetically, reversealphabetically, recentupdate, leastupdate */
  sort?: string;
};
/**
 * Search users according filter conditions
 *
 * `GET /admin/users` (a page: await it for one, iterate it for all)
 */
export function adminSearchUsers(transport: Transport, query?: AdminSearchUsersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/admin/users`, query, options });
}

/**
 * Set the user's quota groups to a given list.
 *
 * `POST /admin/users/{username}/quota/groups`
 */
export function adminSetUserQuotaGroups(transport: Transport, username: string | number, body: SetUserQuotaGroupsOptions, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/admin/users/${segment(username)}/quota/groups`, json: body, options });
}

export type AdminUnadoptedListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** pattern of repositories to search for */
  pattern?: string;
  /** the same, under the name Forgejo reads */
  query?: string;
};
/**
 * List unadopted repositories
 *
 * `GET /admin/unadopted` (a page: await it for one, iterate it for all)
 */
export function adminUnadoptedList(transport: Transport, query?: AdminUnadoptedListQuery, options?: CallOptions): PageRequest<string> {
  return pageRequest<string>(transport, { method: 'GET', path: `/admin/unadopted`, query, options });
}

/**
 * Create a repository
 *
 * `POST /user/repos`
 */
export function createCurrentUserRepo(transport: Transport, body: CreateRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/user/repos`, json: body, options });
}

/**
 * Fork a repository
 *
 * `POST /repos/{owner}/{repo}/forks`
 */
export function createFork(transport: Transport, owner: string | number, repo: string | number, body: CreateForkOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/forks`, json: body, options });
}

/**
 * Create a repository in an organization
 *
 * `POST /orgs/{org}/repos`
 */
export function createOrgRepo(transport: Transport, org: string | number, body: CreateRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/orgs/${segment(org)}/repos`, json: body, options });
}

/**
 * Create a repository in an organization
 *
 * `POST /org/{org}/repos`
 */
export function createOrgRepoDeprecated(transport: Transport, org: string | number, body: CreateRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/org/${segment(org)}/repos`, json: body, options });
}

/**
 * Create a new variable in organization
 *
 * `POST /orgs/{org}/actions/variables/{variablename}`
 */
export function createOrgVariable(transport: Transport, org: string | number, variablename: string | number, body: CreateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/orgs/${segment(org)}/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Create a repo-level variable
 *
 * `POST /repos/{owner}/{repo}/actions/variables/{variablename}`
 */
export function createRepoVariable(transport: Transport, owner: string | number, repo: string | number, variablename: string | number, body: CreateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Create a user-level variable
 *
 * `POST /user/actions/variables/{variablename}`
 */
export function createUserVariable(transport: Transport, variablename: string | number, body: CreateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/user/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Delete a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository
 *
 * `DELETE /admin/actions/runners/{runner_id}`
 */
export function deleteAdminRunner(transport: Transport, runner_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/admin/actions/runners/${segment(runner_id)}`, options });
}

/**
 * Delete a particular runner that belongs to the organization
 *
 * `DELETE /orgs/{org}/actions/runners/{runner_id}`
 */
export function deleteOrgRunner(transport: Transport, org: string | number, runner_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/actions/runners/${segment(runner_id)}`, options });
}

/**
 * Delete a secret in an organization
 *
 * `DELETE /orgs/{org}/actions/secrets/{secretname}`
 */
export function deleteOrgSecret(transport: Transport, org: string | number, secretname: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/actions/secrets/${segment(secretname)}`, options });
}

/**
 * Delete organization's variable by name
 *
 * `DELETE /orgs/{org}/actions/variables/{variablename}`
 */
export function deleteOrgVariable(transport: Transport, org: string | number, variablename: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/actions/variables/${segment(variablename)}`, options });
}

/**
 * Delete a package
 *
 * `DELETE /packages/{owner}/{type}/{name}/{version}`
 */
export function deletePackage(transport: Transport, owner: string | number, type: string | number, name: string | number, version: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/packages/${segment(owner)}/${segment(type)}/${segment(name)}/${segment(version)}`, options });
}

/**
 * Delete a particular runner that belongs to a repository
 *
 * `DELETE /repos/{owner}/{repo}/actions/runners/{runner_id}`
 */
export function deleteRepoRunner(transport: Transport, owner: string | number, repo: string | number, runner_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners/${segment(runner_id)}`, options });
}

/**
 * Delete a secret in a repository
 *
 * `DELETE /repos/{owner}/{repo}/actions/secrets/{secretname}`
 */
export function deleteRepoSecret(transport: Transport, owner: string | number, repo: string | number, secretname: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/actions/secrets/${segment(secretname)}`, options });
}

/**
 * Delete a repo-level variable
 *
 * `DELETE /repos/{owner}/{repo}/actions/variables/{variablename}`
 */
export function deleteRepoVariable(transport: Transport, owner: string | number, repo: string | number, variablename: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/actions/variables/${segment(variablename)}`, options });
}

/**
 * Delete a particular user-level runner
 *
 * `DELETE /user/actions/runners/{runner_id}`
 */
export function deleteUserRunner(transport: Transport, runner_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/actions/runners/${segment(runner_id)}`, options });
}

/**
 * Delete a secret in a user scope
 *
 * `DELETE /user/actions/secrets/{secretname}`
 */
export function deleteUserSecret(transport: Transport, secretname: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/actions/secrets/${segment(secretname)}`, options });
}

/**
 * Delete a user-level variable which is created by current doer
 *
 * `DELETE /user/actions/variables/{variablename}`
 */
export function deleteUserVariable(transport: Transport, variablename: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/actions/variables/${segment(variablename)}`, options });
}

/**
 * Create a repository using a template
 *
 * `POST /repos/{owner}/{repo}/generate`
 */
export function generateRepo(transport: Transport, owner: string | number, repo: string | number, body: GenerateRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/generate`, json: body, options });
}

/**
 * Get a workflow run associated with a token
 *
 * `GET /actions/run`
 */
export function getActionsRun(transport: Transport, options?: CallOptions): Promise<ActionRun> {
  return transport.json<ActionRun>({ method: 'GET', path: `/actions/run`, options });
}

/**
 * Get a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository
 *
 * `GET /admin/actions/runners/{runner_id}`
 */
export function getAdminRunner(transport: Transport, runner_id: string | number, options?: CallOptions): Promise<ActionRunner> {
  return transport.json<ActionRunner>({ method: 'GET', path: `/admin/actions/runners/${segment(runner_id)}`, options });
}

export type GetAdminRunnersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** whether to include all visible runners (true) or only those that are directly owned by the instance (false) */
  visible?: boolean;
};
/**
 * Get all runners, no matter whether they are global runners or scoped to an organization, user, or repository
 *
 * `GET /admin/actions/runners` (a page: await it for one, iterate it for all)
 */
export function getAdminRunners(transport: Transport, query?: GetAdminRunnersQuery, options?: CallOptions): PageRequest<ActionRunner> {
  return pageRequest<ActionRunner>(transport, { method: 'GET', path: `/admin/actions/runners`, query, options });
}

/**
 * Get instance's global settings for api
 *
 * `GET /settings/api`
 */
export function getGeneralAPISettings(transport: Transport, options?: CallOptions): Promise<GeneralAPISettings> {
  return transport.json<GeneralAPISettings>({ method: 'GET', path: `/settings/api`, options });
}

/**
 * Get instance's global settings for Attachment
 *
 * `GET /settings/attachment`
 */
export function getGeneralAttachmentSettings(transport: Transport, options?: CallOptions): Promise<GeneralAttachmentSettings> {
  return transport.json<GeneralAttachmentSettings>({ method: 'GET', path: `/settings/attachment`, options });
}

/**
 * Get instance's global settings for repositories
 *
 * `GET /settings/repository`
 */
export function getGeneralRepositorySettings(transport: Transport, options?: CallOptions): Promise<GeneralRepoSettings> {
  return transport.json<GeneralRepoSettings>({ method: 'GET', path: `/settings/repository`, options });
}

/**
 * Get instance's global settings for ui
 *
 * `GET /settings/ui`
 */
export function getGeneralUISettings(transport: Transport, options?: CallOptions): Promise<GeneralUISettings> {
  return transport.json<GeneralUISettings>({ method: 'GET', path: `/settings/ui`, options });
}

/**
 * Returns information about a gitignore template
 *
 * `GET /gitignore/templates/{name}`
 */
export function getGitignoreTemplateInfo(transport: Transport, name: string | number, options?: CallOptions): Promise<GitignoreTemplateInfo> {
  return transport.json<GitignoreTemplateInfo>({ method: 'GET', path: `/gitignore/templates/${segment(name)}`, options });
}

/**
 * Returns all labels in a template
 *
 * `GET /label/templates/{name}`
 */
export function getLabelTemplateInfo(transport: Transport, name: string | number, options?: CallOptions): Promise<LabelTemplate[]> {
  return transport.json<LabelTemplate[]>({ method: 'GET', path: `/label/templates/${segment(name)}`, options });
}

/**
 * Returns information about a license template
 *
 * `GET /licenses/{name}`
 */
export function getLicenseTemplateInfo(transport: Transport, name: string | number, options?: CallOptions): Promise<LicenseTemplateInfo> {
  return transport.json<LicenseTemplateInfo>({ method: 'GET', path: `/licenses/${segment(name)}`, options });
}

/**
 * Returns the nodeinfo of the Forgejo application
 *
 * `GET /nodeinfo`
 */
export function getNodeInfo(transport: Transport, options?: CallOptions): Promise<NodeInfo> {
  return transport.json<NodeInfo>({ method: 'GET', path: `/nodeinfo`, options });
}

/**
 * Get a particular runner that belongs to the organization
 *
 * `GET /orgs/{org}/actions/runners/{runner_id}`
 */
export function getOrgRunner(transport: Transport, org: string | number, runner_id: string | number, options?: CallOptions): Promise<ActionRunner> {
  return transport.json<ActionRunner>({ method: 'GET', path: `/orgs/${segment(org)}/actions/runners/${segment(runner_id)}`, options });
}

export type GetOrgRunnersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** whether to include all visible runners (true) or only those that are directly owned by the organization (false) */
  visible?: boolean;
};
/**
 * Get the organization's runners
 *
 * `GET /orgs/{org}/actions/runners` (a page: await it for one, iterate it for all)
 */
export function getOrgRunners(transport: Transport, org: string | number, query?: GetOrgRunnersQuery, options?: CallOptions): PageRequest<ActionRunner> {
  return pageRequest<ActionRunner>(transport, { method: 'GET', path: `/orgs/${segment(org)}/actions/runners`, query, options });
}

/**
 * Get organization's variable by name
 *
 * `GET /orgs/{org}/actions/variables/{variablename}`
 */
export function getOrgVariable(transport: Transport, org: string | number, variablename: string | number, options?: CallOptions): Promise<ActionVariable> {
  return transport.json<ActionVariable>({ method: 'GET', path: `/orgs/${segment(org)}/actions/variables/${segment(variablename)}`, options });
}

export type GetOrgVariablesListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List variables of an organization
 *
 * `GET /orgs/{org}/actions/variables` (a page: await it for one, iterate it for all)
 */
export function getOrgVariablesList(transport: Transport, org: string | number, query?: GetOrgVariablesListQuery, options?: CallOptions): PageRequest<ActionVariable> {
  return pageRequest<ActionVariable>(transport, { method: 'GET', path: `/orgs/${segment(org)}/actions/variables`, query, options });
}

/**
 * Gets a package
 *
 * `GET /packages/{owner}/{type}/{name}/{version}`
 */
export function getPackage(transport: Transport, owner: string | number, type: string | number, name: string | number, version: string | number, options?: CallOptions): Promise<Package> {
  return transport.json<Package>({ method: 'GET', path: `/packages/${segment(owner)}/${segment(type)}/${segment(name)}/${segment(version)}`, options });
}

/**
 * Get a particular runner that belongs to the repository
 *
 * `GET /repos/{owner}/{repo}/actions/runners/{runner_id}`
 */
export function getRepoRunner(transport: Transport, owner: string | number, repo: string | number, runner_id: string | number, options?: CallOptions): Promise<ActionRunner> {
  return transport.json<ActionRunner>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners/${segment(runner_id)}`, options });
}

export type GetRepoRunnersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** whether to include all visible runners (true) or only those that are directly owned by the repository (false) */
  visible?: boolean;
};
/**
 * Get runners belonging to the repository
 *
 * `GET /repos/{owner}/{repo}/actions/runners` (a page: await it for one, iterate it for all)
 */
export function getRepoRunners(transport: Transport, owner: string | number, repo: string | number, query?: GetRepoRunnersQuery, options?: CallOptions): PageRequest<ActionRunner> {
  return pageRequest<ActionRunner>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners`, query, options });
}

/**
 * Get a repo-level variable
 *
 * `GET /repos/{owner}/{repo}/actions/variables/{variablename}`
 */
export function getRepoVariable(transport: Transport, owner: string | number, repo: string | number, variablename: string | number, options?: CallOptions): Promise<ActionVariable> {
  return transport.json<ActionVariable>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/variables/${segment(variablename)}`, options });
}

export type GetRepoVariablesListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get repo-level variables list
 *
 * `GET /repos/{owner}/{repo}/actions/variables` (a page: await it for one, iterate it for all)
 */
export function getRepoVariablesList(transport: Transport, owner: string | number, repo: string | number, query?: GetRepoVariablesListQuery, options?: CallOptions): PageRequest<ActionVariable> {
  return pageRequest<ActionVariable>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/variables`, query, options });
}

/**
 * Get default signing-key.ssh
 *
 * `GET /signing-key.ssh`
 */
export function getSSHSigningKey(transport: Transport, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/signing-key.ssh`, options });
}

/**
 * Get default signing-key.gpg
 *
 * `GET /signing-key.gpg`
 */
export function getSigningKey(transport: Transport, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/signing-key.gpg`, options });
}

/**
 * Get a particular runner that belongs to the user
 *
 * `GET /user/actions/runners/{runner_id}`
 */
export function getUserRunner(transport: Transport, runner_id: string | number, options?: CallOptions): Promise<ActionRunner> {
  return transport.json<ActionRunner>({ method: 'GET', path: `/user/actions/runners/${segment(runner_id)}`, options });
}

export type GetUserRunnersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** whether to include all visible runners (true) or only those that are directly owned by the user (false) */
  visible?: boolean;
};
/**
 * Get the user's runners
 *
 * `GET /user/actions/runners` (a page: await it for one, iterate it for all)
 */
export function getUserRunners(transport: Transport, query?: GetUserRunnersQuery, options?: CallOptions): PageRequest<ActionRunner> {
  return pageRequest<ActionRunner>(transport, { method: 'GET', path: `/user/actions/runners`, query, options });
}

/**
 * Get current user's account settings
 *
 * `GET /user/settings`
 */
export function getUserSettings(transport: Transport, options?: CallOptions): Promise<UserSettings> {
  return transport.json<UserSettings>({ method: 'GET', path: `/user/settings`, options });
}

/**
 * Get a user-level variable which is created by current doer
 *
 * `GET /user/actions/variables/{variablename}`
 */
export function getUserVariable(transport: Transport, variablename: string | number, options?: CallOptions): Promise<ActionVariable> {
  return transport.json<ActionVariable>({ method: 'GET', path: `/user/actions/variables/${segment(variablename)}`, options });
}

export type GetUserVariablesListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get the user-level list of variables which is created by current doer
 *
 * `GET /user/actions/variables` (a page: await it for one, iterate it for all)
 */
export function getUserVariablesList(transport: Transport, query?: GetUserVariablesListQuery, options?: CallOptions): PageRequest<ActionVariable> {
  return pageRequest<ActionVariable>(transport, { method: 'GET', path: `/user/actions/variables`, query, options });
}

/**
 * Get a Token to verify
 *
 * `GET /user/gpg_key_token`
 */
export function getVerificationToken(transport: Transport, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/user/gpg_key_token`, options });
}

/**
 * Returns the version of the running application
 *
 * `GET /version`
 */
export function getVersion(transport: Transport, options?: CallOptions): Promise<ServerVersion> {
  return transport.json<ServerVersion>({ method: 'GET', path: `/version`, options });
}

/**
 * Add a label to an issue
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/labels`
 */
export function issueAddLabel(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueLabelsOption, options?: CallOptions): Promise<Label[]> {
  return transport.json<Label[]>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/labels`, json: body, options });
}

/**
 * Subscribe user to issue
 *
 * `PUT /repos/{owner}/{repo}/issues/{index}/subscriptions/{user}`
 */
export function issueAddSubscription(transport: Transport, owner: string | number, repo: string | number, index: string | number, user: string | number, options?: CallOptions): Promise<null> {
  return transport.json<null>({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/subscriptions/${segment(user)}`, options });
}

/**
 * Add tracked time to a issue
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/times`
 */
export function issueAddTime(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: AddTimeOption, options?: CallOptions): Promise<TrackedTime> {
  return transport.json<TrackedTime>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/times`, json: body, options });
}

/**
 * Check if user is subscribed to an issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/subscriptions/check`
 */
export function issueCheckSubscription(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<WatchInfo> {
  return transport.json<WatchInfo>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/subscriptions/check`, options });
}

/**
 * Remove all labels from an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/labels`
 */
export function issueClearLabels(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: DeleteLabelsOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/labels`, json: body, options });
}

/**
 * Add a comment to an issue
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/comments`
 */
export function issueCreateComment(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: CreateIssueCommentOption, options?: CallOptions): Promise<Comment> {
  return transport.json<Comment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/comments`, json: body, options });
}

/**
 * Create an issue. If using deadline only the date will be taken into account, and time of day ignored.
 *
 * `POST /repos/{owner}/{repo}/issues`
 */
export function issueCreateIssue(transport: Transport, owner: string | number, repo: string | number, body: CreateIssueOption, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues`, json: body, options });
}

export type IssueCreateIssueAttachmentQuery = {
  /** name of the attachment */
  name?: string;
  /** time of the attachment's creation. This is a timestamp in RFC 3339 format */
  updated_at?: string;
};
/**
 * Create an issue attachment
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/assets`
 */
export function issueCreateIssueAttachment(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueCreateIssueAttachmentQuery, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/assets`, query, options });
}

/**
 * Block the issue given in the body by the issue in path
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/blocks`
 */
export function issueCreateIssueBlocking(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueMeta, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/blocks`, json: body, options });
}

export type IssueCreateIssueCommentAttachmentQuery = {
  /** name of the attachment */
  name?: string;
  /** time of the attachment's creation. This is a timestamp in RFC 3339 format */
  updated_at?: string;
};
/**
 * Create a comment attachment
 *
 * `POST /repos/{owner}/{repo}/issues/comments/{id}/assets`
 */
export function issueCreateIssueCommentAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, query?: IssueCreateIssueCommentAttachmentQuery, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/assets`, query, options });
}

/**
 * Make the issue in the url depend on the issue in the form.
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/dependencies`
 */
export function issueCreateIssueDependencies(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueMeta, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/dependencies`, json: body, options });
}

/**
 * Create a label
 *
 * `POST /repos/{owner}/{repo}/labels`
 */
export function issueCreateLabel(transport: Transport, owner: string | number, repo: string | number, body: CreateLabelOption, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/labels`, json: body, options });
}

/**
 * Create a milestone
 *
 * `POST /repos/{owner}/{repo}/milestones`
 */
export function issueCreateMilestone(transport: Transport, owner: string | number, repo: string | number, body: CreateMilestoneOption, options?: CallOptions): Promise<Milestone> {
  return transport.json<Milestone>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/milestones`, json: body, options });
}

/**
 * Delete an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}`
 */
export function issueDelete(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}`, options });
}

/**
 * Delete a comment
 *
 * `DELETE /repos/{owner}/{repo}/issues/comments/{id}`
 */
export function issueDeleteComment(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}`, options });
}

/**
 * Delete a comment
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/comments/{id}`
 */
export function issueDeleteCommentDeprecated(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/comments/${segment(id)}`, options });
}

/**
 * Remove a reaction from a comment of an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/comments/{id}/reactions`
 */
export function issueDeleteCommentReaction(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditReactionOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/reactions`, json: body, options });
}

/**
 * Delete an issue attachment
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
 */
export function issueDeleteIssueAttachment(transport: Transport, owner: string | number, repo: string | number, index: string | number, attachment_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/assets/${segment(attachment_id)}`, options });
}

/**
 * Delete a comment attachment
 *
 * `DELETE /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
 */
export function issueDeleteIssueCommentAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/assets/${segment(attachment_id)}`, options });
}

/**
 * Remove a reaction from an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/reactions`
 */
export function issueDeleteIssueReaction(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: EditReactionOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/reactions`, json: body, options });
}

/**
 * Delete a label
 *
 * `DELETE /repos/{owner}/{repo}/labels/{id}`
 */
export function issueDeleteLabel(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/labels/${segment(id)}`, options });
}

/**
 * Delete a milestone
 *
 * `DELETE /repos/{owner}/{repo}/milestones/{id}`
 */
export function issueDeleteMilestone(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/milestones/${segment(id)}`, options });
}

/**
 * Delete an issue's existing stopwatch.
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/stopwatch/delete`
 */
export function issueDeleteStopWatch(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/stopwatch/delete`, options });
}

/**
 * Unsubscribe user from issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/subscriptions/{user}`
 */
export function issueDeleteSubscription(transport: Transport, owner: string | number, repo: string | number, index: string | number, user: string | number, options?: CallOptions): Promise<null> {
  return transport.json<null>({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/subscriptions/${segment(user)}`, options });
}

/**
 * Delete specific tracked time
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/times/{id}`
 */
export function issueDeleteTime(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/times/${segment(id)}`, options });
}

/**
 * Edit a comment
 *
 * `PATCH /repos/{owner}/{repo}/issues/comments/{id}`
 */
export function issueEditComment(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditIssueCommentOption, options?: CallOptions): Promise<Comment> {
  return transport.json<Comment>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}`, json: body, options });
}

/**
 * Edit a comment
 *
 * `PATCH /repos/{owner}/{repo}/issues/{index}/comments/{id}`
 */
export function issueEditCommentDeprecated(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, body: EditIssueCommentOption, options?: CallOptions): Promise<Comment> {
  return transport.json<Comment>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/comments/${segment(id)}`, json: body, options });
}

/**
 * Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.
 *
 * `PATCH /repos/{owner}/{repo}/issues/{index}`
 */
export function issueEditIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: EditIssueOption, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}`, json: body, options });
}

/**
 * Edit an issue attachment
 *
 * `PATCH /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
 */
export function issueEditIssueAttachment(transport: Transport, owner: string | number, repo: string | number, index: string | number, attachment_id: string | number, body: EditAttachmentOptions, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/assets/${segment(attachment_id)}`, json: body, options });
}

/**
 * Edit a comment attachment
 *
 * `PATCH /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
 */
export function issueEditIssueCommentAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, body: EditAttachmentOptions, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/assets/${segment(attachment_id)}`, json: body, options });
}

/**
 * Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/deadline`
 */
export function issueEditIssueDeadline(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: EditDeadlineOption, options?: CallOptions): Promise<IssueDeadline> {
  return transport.json<IssueDeadline>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/deadline`, json: body, options });
}

/**
 * Update a label
 *
 * `PATCH /repos/{owner}/{repo}/labels/{id}`
 */
export function issueEditLabel(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditLabelOption, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/labels/${segment(id)}`, json: body, options });
}

/**
 * Update a milestone
 *
 * `PATCH /repos/{owner}/{repo}/milestones/{id}`
 */
export function issueEditMilestone(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditMilestoneOption, options?: CallOptions): Promise<Milestone> {
  return transport.json<Milestone>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/milestones/${segment(id)}`, json: body, options });
}

/**
 * Get a comment
 *
 * `GET /repos/{owner}/{repo}/issues/comments/{id}`
 */
export function issueGetComment(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Comment> {
  return transport.json<Comment>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}`, options });
}

/**
 * Get a list of reactions from a comment of an issue
 *
 * `GET /repos/{owner}/{repo}/issues/comments/{id}/reactions`
 */
export function issueGetCommentReactions(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Reaction[]> {
  return transport.json<Reaction[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/reactions`, options });
}

export type IssueGetCommentsQuery = {
  /** if provided, only comments updated since the specified time are returned. (date-time) */
  since?: string;
  /** if provided, only comments updated before the provided time are returned. (date-time) */
  before?: string;
};
/**
 * List all comments on an issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/comments`
 */
export function issueGetComments(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueGetCommentsQuery, options?: CallOptions): Promise<Comment[]> {
  return transport.json<Comment[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/comments`, query, options });
}

export type IssueGetCommentsAndTimelineQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** if provided, only comments updated since the specified time are returned. (date-time) */
  since?: string;
  /** if provided, only comments updated before the provided time are returned. (date-time) */
  before?: string;
};
/**
 * List all comments and events on an issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/timeline` (a page: await it for one, iterate it for all)
 */
export function issueGetCommentsAndTimeline(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueGetCommentsAndTimelineQuery, options?: CallOptions): PageRequest<TimelineComment> {
  return pageRequest<TimelineComment>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/timeline`, query, options });
}

/**
 * Get an issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}`
 */
export function issueGetIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}`, options });
}

/**
 * Get an issue attachment
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
 */
export function issueGetIssueAttachment(transport: Transport, owner: string | number, repo: string | number, index: string | number, attachment_id: string | number, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/assets/${segment(attachment_id)}`, options });
}

/**
 * Get a comment attachment
 *
 * `GET /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
 */
export function issueGetIssueCommentAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/assets/${segment(attachment_id)}`, options });
}

export type IssueGetIssueReactionsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get a list reactions of an issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/reactions` (a page: await it for one, iterate it for all)
 */
export function issueGetIssueReactions(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueGetIssueReactionsQuery, options?: CallOptions): PageRequest<Reaction> {
  return pageRequest<Reaction>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/reactions`, query, options });
}

/**
 * Get a single label
 *
 * `GET /repos/{owner}/{repo}/labels/{id}`
 */
export function issueGetLabel(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/labels/${segment(id)}`, options });
}

/**
 * Get an issue's labels
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/labels`
 */
export function issueGetLabels(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<Label[]> {
  return transport.json<Label[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/labels`, options });
}

/**
 * Get a milestone
 *
 * `GET /repos/{owner}/{repo}/milestones/{id}`
 */
export function issueGetMilestone(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Milestone> {
  return transport.json<Milestone>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/milestones/${segment(id)}`, options });
}

export type IssueGetMilestonesListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** Milestone state, Recognized values are open, closed and all. Defaults to "open" */
  state?: string;
  /** filter by milestone name */
  name?: string;
};
/**
 * Get all of a repository's opened milestones
 *
 * `GET /repos/{owner}/{repo}/milestones` (a page: await it for one, iterate it for all)
 */
export function issueGetMilestonesList(transport: Transport, owner: string | number, repo: string | number, query?: IssueGetMilestonesListQuery, options?: CallOptions): PageRequest<Milestone> {
  return pageRequest<Milestone>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/milestones`, query, options });
}

export type IssueGetRepoCommentsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** if provided, only comments updated since the specified time are returned. (date-time) */
  since?: string;
  /** if provided, only comments updated before the provided time are returned. (date-time) */
  before?: string;
};
/**
 * List all comments in a repository
 *
 * `GET /repos/{owner}/{repo}/issues/comments` (a page: await it for one, iterate it for all)
 */
export function issueGetRepoComments(transport: Transport, owner: string | number, repo: string | number, query?: IssueGetRepoCommentsQuery, options?: CallOptions): PageRequest<Comment> {
  return pageRequest<Comment>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments`, query, options });
}

export type IssueListBlocksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List issues that are blocked by this issue
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/blocks`
 */
export function issueListBlocks(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueListBlocksQuery, options?: CallOptions): Promise<Issue[]> {
  return transport.json<Issue[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/blocks`, query, options });
}

/**
 * List issue's attachments
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/assets`
 */
export function issueListIssueAttachments(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<Attachment[]> {
  return transport.json<Attachment[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/assets`, options });
}

/**
 * List comment's attachments
 *
 * `GET /repos/{owner}/{repo}/issues/comments/{id}/assets`
 */
export function issueListIssueCommentAttachments(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Attachment[]> {
  return transport.json<Attachment[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/assets`, options });
}

export type IssueListIssueDependenciesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an issue's dependencies, i.e all issues that block this issue.
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/dependencies`
 */
export function issueListIssueDependencies(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueListIssueDependenciesQuery, options?: CallOptions): Promise<Issue[]> {
  return transport.json<Issue[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/dependencies`, query, options });
}

export type IssueListIssuesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** whether issue is open or closed */
  state?: "closed" | "open" | "all";
  /** comma separated list of labels. Fetch only issues that have any of this labels. Non existent labels are discarded */
  labels?: string;
  /** search string */
  q?: string;
  /** filter by type (issues / pulls) if set */
  type?: "issues" | "pulls";
  /** comma separated list of milestone names or ids. It uses names and fall back to ids. Fetch only issues that have any of this milestones. Non existent milestones are discarded */
  milestones?: string;
  /** Only show items updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show items updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
  /** Only show items which were created by the given user */
  created_by?: string;
  /** Only show items for which the given user is assigned */
  assigned_by?: string;
  /** Only show items in which the given user was mentioned */
  mentioned_by?: string;
  /** Type of sort */
  sort?: "relevance" | "latest" | "oldest" | "recentupdate" | "leastupdate" | "mostcomment" | "leastcomment" | "nearduedate" | "farduedate";
};
/**
 * List a repository's issues
 *
 * `GET /repos/{owner}/{repo}/issues` (a page: await it for one, iterate it for all)
 */
export function issueListIssues(transport: Transport, owner: string | number, repo: string | number, query?: IssueListIssuesQuery, options?: CallOptions): PageRequest<Issue> {
  return pageRequest<Issue>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues`, query, options });
}

export type IssueListLabelsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** Specifies the sorting method: mostissues, leastissues, or reversealphabetically. */
  sort?: "alphabetically" | "reversealphabetically" | "leastissues" | "mostissues";
};
/**
 * Get all of a repository's labels
 *
 * `GET /repos/{owner}/{repo}/labels` (a page: await it for one, iterate it for all)
 */
export function issueListLabels(transport: Transport, owner: string | number, repo: string | number, query?: IssueListLabelsQuery, options?: CallOptions): PageRequest<Label> {
  return pageRequest<Label>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/labels`, query, options });
}

/**
 * Add a reaction to a comment of an issue
 *
 * `POST /repos/{owner}/{repo}/issues/comments/{id}/reactions`
 */
export function issuePostCommentReaction(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditReactionOption, options?: CallOptions): Promise<Reaction> {
  return transport.json<Reaction>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/comments/${segment(id)}/reactions`, json: body, options });
}

/**
 * Add a reaction to an issue
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/reactions`
 */
export function issuePostIssueReaction(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: EditReactionOption, options?: CallOptions): Promise<Reaction> {
  return transport.json<Reaction>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/reactions`, json: body, options });
}

/**
 * Unblock the issue given in the body by the issue in path
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/blocks`
 */
export function issueRemoveIssueBlocking(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueMeta, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/blocks`, json: body, options });
}

/**
 * Remove an issue dependency
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/dependencies`
 */
export function issueRemoveIssueDependencies(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueMeta, options?: CallOptions): Promise<Issue> {
  return transport.json<Issue>({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/dependencies`, json: body, options });
}

/**
 * Remove a label from an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/labels/{identifier}`
 */
export function issueRemoveLabel(transport: Transport, owner: string | number, repo: string | number, index: string | number, identifier: string | number, body: DeleteLabelsOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/labels/${segment(identifier)}`, json: body, options });
}

/**
 * Replace an issue's labels
 *
 * `PUT /repos/{owner}/{repo}/issues/{index}/labels`
 */
export function issueReplaceLabels(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueLabelsOption, options?: CallOptions): Promise<Label[]> {
  return transport.json<Label[]>({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/labels`, json: body, options });
}

/**
 * Reset a tracked time of an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/times`
 */
export function issueResetTime(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/times`, options });
}

export type IssueSearchIssuesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** State of the issue */
  state?: "open" | "closed" | "all";
  /** Comma-separated list of label names. Fetch only issues that have any of these labels. Non existent labels are discarded. */
  labels?: string;
  /** Comma-separated list of milestone names. Fetch only issues that have any of these milestones. Non existent milestones are discarded. */
  milestones?: string;
  /** Search string */
  q?: string;
  /** Repository ID to prioritize in the results */
  priority_repo_id?: number;
  /** Filter by issue type */
  type?: "issues" | "pulls";
  /** Only show issues updated after the given time (RFC 3339 format) */
  since?: string;
  /** Only show issues updated before the given time (RFC 3339 format) */
  before?: string;
  /** Filter issues or pulls assigned to the authenticated user */
  assigned?: boolean;
  /** Filter issues or pulls created by the authenticated user */
  created?: boolean;
  /** Filter issues or pulls mentioning the authenticated user */
  mentioned?: boolean;
  /** Filter pull requests where the authenticated user's review was requested */
  review_requested?: boolean;
  /** Filter pull requests reviewed by the authenticated user */
  reviewed?: boolean;
  /** Filter by repository owner */
  owner?: string;
  /** Filter by team (requires organization owner parameter) */
  team?: string;
  /** Type of sort */
  sort?: "relevance" | "latest" | "oldest" | "recentupdate" | "leastupdate" | "mostcomment" | "leastcomment" | "nearduedate" | "farduedate";
};
/**
 * Search for issues across the repositories that the user has access to
 *
 * `GET /repos/issues/search` (a page: await it for one, iterate it for all)
 */
export function issueSearchIssues(transport: Transport, query?: IssueSearchIssuesQuery, options?: CallOptions): PageRequest<Issue> {
  return pageRequest<Issue>(transport, { method: 'GET', path: `/repos/issues/search`, query, options });
}

/**
 * Start stopwatch on an issue.
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/stopwatch/start`
 */
export function issueStartStopWatch(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<unknown> {
  return transport.json<unknown>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/stopwatch/start`, options });
}

/**
 * Stop an issue's existing stopwatch.
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/stopwatch/stop`
 */
export function issueStopStopWatch(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<unknown> {
  return transport.json<unknown>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/stopwatch/stop`, options });
}

export type IssueSubscriptionsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get users who subscribed on an issue.
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/subscriptions` (a page: await it for one, iterate it for all)
 */
export function issueSubscriptions(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueSubscriptionsQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/subscriptions`, query, options });
}

export type IssueTrackedTimesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** optional filter by user (available for issue managers) */
  user?: string;
  /** Only show times updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show times updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
};
/**
 * List an issue's tracked times
 *
 * `GET /repos/{owner}/{repo}/issues/{index}/times` (a page: await it for one, iterate it for all)
 */
export function issueTrackedTimes(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: IssueTrackedTimesQuery, options?: CallOptions): PageRequest<TrackedTime> {
  return pageRequest<TrackedTime>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/times`, query, options });
}

/**
 * Link a package to a repository
 *
 * `POST /packages/{owner}/{type}/{name}/-/link/{repo_name}`
 */
export function linkPackage(transport: Transport, owner: string | number, type: string | number, name: string | number, repo_name: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/packages/${segment(owner)}/${segment(type)}/${segment(name)}/-/link/${segment(repo_name)}`, options });
}

export type ListForksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repository's forks
 *
 * `GET /repos/{owner}/{repo}/forks` (a page: await it for one, iterate it for all)
 */
export function listForks(transport: Transport, owner: string | number, repo: string | number, query?: ListForksQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/forks`, query, options });
}

/**
 * Returns a list of all gitignore templates
 *
 * `GET /gitignore/templates`
 */
export function listGitignoresTemplates(transport: Transport, options?: CallOptions): Promise<string[]> {
  return transport.json<string[]>({ method: 'GET', path: `/gitignore/templates`, options });
}

/**
 * Returns a list of all label templates
 *
 * `GET /label/templates`
 */
export function listLabelTemplates(transport: Transport, options?: CallOptions): Promise<string[]> {
  return transport.json<string[]>({ method: 'GET', path: `/label/templates`, options });
}

/**
 * Returns a list of all license templates
 *
 * `GET /licenses`
 */
export function listLicenseTemplates(transport: Transport, options?: CallOptions): Promise<LicensesTemplateListEntry[]> {
  return transport.json<LicensesTemplateListEntry[]>({ method: 'GET', path: `/licenses`, options });
}

/**
 * Gets all files of a package
 *
 * `GET /packages/{owner}/{type}/{name}/{version}/files`
 */
export function listPackageFiles(transport: Transport, owner: string | number, type: string | number, name: string | number, version: string | number, options?: CallOptions): Promise<PackageFile[]> {
  return transport.json<PackageFile[]>({ method: 'GET', path: `/packages/${segment(owner)}/${segment(type)}/${segment(name)}/${segment(version)}/files`, options });
}

export type ListPackagesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** package type filter */
  type?: "alpine" | "cargo" | "chef" | "composer" | "conan" | "conda" | "container" | "cran" | "debian" | "generic" | "go" | "helm" | "maven" | "npm" | "nuget" | "pub" | "pypi" | "rpm" | "rubygems" | "swift" | "vagrant";
  /** name filter */
  q?: string;
};
/**
 * Gets all packages of an owner
 *
 * `GET /packages/{owner}` (a page: await it for one, iterate it for all)
 */
export function listPackages(transport: Transport, owner: string | number, query?: ListPackagesQuery, options?: CallOptions): PageRequest<Package> {
  return pageRequest<Package>(transport, { method: 'GET', path: `/packages/${segment(owner)}`, query, options });
}

/**
 * Lock an issue
 *
 * `PUT /repos/{owner}/{repo}/issues/{index}/lock`
 */
export function lockIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: IssueLockOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/lock`, json: body, options });
}

/**
 * Moves the Pin to the given Position
 *
 * `PATCH /repos/{owner}/{repo}/issues/{index}/pin/{position}`
 */
export function moveIssuePin(transport: Transport, owner: string | number, repo: string | number, index: string | number, position: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/pin/${segment(position)}`, options });
}

export type NotifyGetListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** If true, show notifications marked as read. Default value is false */
  all?: boolean;
  /** Show notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread & pinned. */
  "status-types"?: string[];
  /** filter notifications by subject type */
  "subject-type"?: string[];
  /** Only show notifications updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show notifications updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
};
/**
 * List users's notification threads
 *
 * `GET /notifications` (a page: await it for one, iterate it for all)
 */
export function notifyGetList(transport: Transport, query?: NotifyGetListQuery, options?: CallOptions): PageRequest<NotificationThread> {
  return pageRequest<NotificationThread>(transport, { method: 'GET', path: `/notifications`, query, options });
}

export type NotifyGetRepoListQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** If true, show notifications marked as read. Default value is false */
  all?: boolean;
  /** Show notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread & pinned. */
  "status-types"?: string[];
  /** filter notifications by subject type */
  "subject-type"?: string[];
  /** Only show notifications updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show notifications updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
};
/**
 * List users's notification threads on a specific repo
 *
 * `GET /repos/{owner}/{repo}/notifications` (a page: await it for one, iterate it for all)
 */
export function notifyGetRepoList(transport: Transport, owner: string | number, repo: string | number, query?: NotifyGetRepoListQuery, options?: CallOptions): PageRequest<NotificationThread> {
  return pageRequest<NotificationThread>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/notifications`, query, options });
}

/**
 * Get notification thread by ID
 *
 * `GET /notifications/threads/{id}`
 */
export function notifyGetThread(transport: Transport, id: string | number, options?: CallOptions): Promise<NotificationThread> {
  return transport.json<NotificationThread>({ method: 'GET', path: `/notifications/threads/${segment(id)}`, options });
}

/**
 * Check if unread notifications exist
 *
 * `GET /notifications/new`
 */
export function notifyNewAvailable(transport: Transport, options?: CallOptions): Promise<NotificationCount> {
  return transport.json<NotificationCount>({ method: 'GET', path: `/notifications/new`, options });
}

export type NotifyReadListQuery = {
  /** Describes the last point that notifications were checked. Anything updated since this time will not be updated. */
  last_read_at?: string;
  /** If true, mark all notifications on this repo. Default value is false */
  all?: boolean;
  /** Mark notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread. */
  "status-types"?: string[];
  /** Status to mark notifications as, Defaults to read. */
  "to-status"?: string;
};
/**
 * Mark notification threads as read, pinned or unread
 *
 * `PUT /notifications`
 */
export function notifyReadList(transport: Transport, query?: NotifyReadListQuery, options?: CallOptions): Promise<NotificationThread[]> {
  return transport.json<NotificationThread[]>({ method: 'PUT', path: `/notifications`, query, options });
}

export type NotifyReadRepoListQuery = {
  /** Describes the last point that notifications were checked. Anything updated since this time will not be updated. */
  last_read_at?: string;
  /** If true, mark all notifications on this repo. Default value is false */
  all?: boolean;
  /** Mark notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread. */
  "status-types"?: string[];
  /** Status to mark notifications as, Defaults to read. */
  "to-status"?: string;
};
/**
 * Mark notification threads as read, pinned or unread on a specific repo
 *
 * `PUT /repos/{owner}/{repo}/notifications`
 */
export function notifyReadRepoList(transport: Transport, owner: string | number, repo: string | number, query?: NotifyReadRepoListQuery, options?: CallOptions): Promise<NotificationThread[]> {
  return transport.json<NotificationThread[]>({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/notifications`, query, options });
}

export type NotifyReadThreadQuery = {
  /** Status to mark notifications as */
  "to-status"?: string;
};
/**
 * Mark notification thread as read by ID
 *
 * `PATCH /notifications/threads/{id}`
 */
export function notifyReadThread(transport: Transport, id: string | number, query?: NotifyReadThreadQuery, options?: CallOptions): Promise<NotificationThread> {
  return transport.json<NotificationThread>({ method: 'PATCH', path: `/notifications/threads/${segment(id)}`, query, options });
}

/**
 * Add a team member
 *
 * `PUT /teams/{id}/members/{username}`
 */
export function orgAddTeamMember(transport: Transport, id: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/teams/${segment(id)}/members/${segment(username)}`, options });
}

/**
 * Add a repository to a team
 *
 * `PUT /teams/{id}/repos/{org}/{repo}`
 */
export function orgAddTeamRepository(transport: Transport, id: string | number, org: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/teams/${segment(id)}/repos/${segment(org)}/${segment(repo)}`, options });
}

/**
 * Blocks a user from the organization
 *
 * `PUT /orgs/{org}/block/{username}`
 */
export function orgBlockUser(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/orgs/${segment(org)}/block/${segment(username)}`, options });
}

export type OrgCheckQuotaQuery = {
  /** subject of the quota */
  subject?: string;
};
/**
 * Check if the organization is over quota for a given subject
 *
 * `GET /orgs/{org}/quota/check`
 */
export function orgCheckQuota(transport: Transport, org: string | number, query?: OrgCheckQuotaQuery, options?: CallOptions): Promise<boolean> {
  return transport.json<boolean>({ method: 'GET', path: `/orgs/${segment(org)}/quota/check`, query, options });
}

/**
 * Conceal a user's membership
 *
 * `DELETE /orgs/{org}/public_members/{username}`
 */
export function orgConcealMember(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/public_members/${segment(username)}`, options });
}

/**
 * Create an organization
 *
 * `POST /orgs`
 */
export function orgCreate(transport: Transport, body: CreateOrgOption, options?: CallOptions): Promise<Organization> {
  return transport.json<Organization>({ method: 'POST', path: `/orgs`, json: body, options });
}

/**
 * Create a hook
 *
 * `POST /orgs/{org}/hooks`
 */
export function orgCreateHook(transport: Transport, org: string | number, body: CreateHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'POST', path: `/orgs/${segment(org)}/hooks`, json: body, options });
}

/**
 * Create a label for an organization
 *
 * `POST /orgs/{org}/labels`
 */
export function orgCreateLabel(transport: Transport, org: string | number, body: CreateLabelOption, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'POST', path: `/orgs/${segment(org)}/labels`, json: body, options });
}

/**
 * Create a team
 *
 * `POST /orgs/{org}/teams`
 */
export function orgCreateTeam(transport: Transport, org: string | number, body: CreateTeamOption, options?: CallOptions): Promise<Team> {
  return transport.json<Team>({ method: 'POST', path: `/orgs/${segment(org)}/teams`, json: body, options });
}

/**
 * Delete an organization
 *
 * `DELETE /orgs/{org}`
 */
export function orgDelete(transport: Transport, org: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}`, options });
}

/**
 * Delete Avatar
 *
 * `DELETE /orgs/{org}/avatar`
 */
export function orgDeleteAvatar(transport: Transport, org: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/avatar`, options });
}

/**
 * Delete a hook
 *
 * `DELETE /orgs/{org}/hooks/{id}`
 */
export function orgDeleteHook(transport: Transport, org: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/hooks/${segment(id)}`, options });
}

/**
 * Delete a label
 *
 * `DELETE /orgs/{org}/labels/{id}`
 */
export function orgDeleteLabel(transport: Transport, org: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/labels/${segment(id)}`, options });
}

/**
 * Remove a member from an organization
 *
 * `DELETE /orgs/{org}/members/{username}`
 */
export function orgDeleteMember(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/orgs/${segment(org)}/members/${segment(username)}`, options });
}

/**
 * Delete a team
 *
 * `DELETE /teams/{id}`
 */
export function orgDeleteTeam(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/teams/${segment(id)}`, options });
}

/**
 * Edit an organization
 *
 * `PATCH /orgs/{org}`
 */
export function orgEdit(transport: Transport, org: string | number, body: EditOrgOption, options?: CallOptions): Promise<Organization> {
  return transport.json<Organization>({ method: 'PATCH', path: `/orgs/${segment(org)}`, json: body, options });
}

/**
 * Update a hook
 *
 * `PATCH /orgs/{org}/hooks/{id}`
 */
export function orgEditHook(transport: Transport, org: string | number, id: string | number, body: EditHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'PATCH', path: `/orgs/${segment(org)}/hooks/${segment(id)}`, json: body, options });
}

/**
 * Update a label
 *
 * `PATCH /orgs/{org}/labels/{id}`
 */
export function orgEditLabel(transport: Transport, org: string | number, id: string | number, body: EditLabelOption, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'PATCH', path: `/orgs/${segment(org)}/labels/${segment(id)}`, json: body, options });
}

/**
 * Edit a team
 *
 * `PATCH /teams/{id}`
 */
export function orgEditTeam(transport: Transport, id: string | number, body: EditTeamOption, options?: CallOptions): Promise<Team> {
  return transport.json<Team>({ method: 'PATCH', path: `/teams/${segment(id)}`, json: body, options });
}

/**
 * Get an organization
 *
 * `GET /orgs/{org}`
 */
export function orgGet(transport: Transport, org: string | number, options?: CallOptions): Promise<Organization> {
  return transport.json<Organization>({ method: 'GET', path: `/orgs/${segment(org)}`, options });
}

export type OrgGetAllQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List all organizations
 *
 * `GET /orgs` (a page: await it for one, iterate it for all)
 */
export function orgGetAll(transport: Transport, query?: OrgGetAllQuery, options?: CallOptions): PageRequest<Organization> {
  return pageRequest<Organization>(transport, { method: 'GET', path: `/orgs`, query, options });
}

/**
 * Get a hook
 *
 * `GET /orgs/{org}/hooks/{id}`
 */
export function orgGetHook(transport: Transport, org: string | number, id: string | number, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'GET', path: `/orgs/${segment(org)}/hooks/${segment(id)}`, options });
}

/**
 * Get one delivery of a hook, with its request and response
 *
 * `GET /orgs/{org}/hooks/{id}/deliveries/{delivery_id}`
 */
export function orgGetHookDelivery(transport: Transport, org: string | number, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<HookDelivery> {
  return transport.json<HookDelivery>({ method: 'GET', path: `/orgs/${segment(org)}/hooks/${segment(id)}/deliveries/${segment(delivery_id)}`, options });
}

/**
 * Get a single label
 *
 * `GET /orgs/{org}/labels/{id}`
 */
export function orgGetLabel(transport: Transport, org: string | number, id: string | number, options?: CallOptions): Promise<Label> {
  return transport.json<Label>({ method: 'GET', path: `/orgs/${segment(org)}/labels/${segment(id)}`, options });
}

/**
 * Get quota information for an organization
 *
 * `GET /orgs/{org}/quota`
 */
export function orgGetQuota(transport: Transport, org: string | number, options?: CallOptions): Promise<QuotaInfo> {
  return transport.json<QuotaInfo>({ method: 'GET', path: `/orgs/${segment(org)}/quota`, options });
}

/**
 * Get the organization's runner registration token
 *
 * `GET /orgs/{org}/actions/runners/registration-token`
 */
export function orgGetRunnerRegistrationToken(transport: Transport, org: string | number, options?: CallOptions): Promise<RegistrationToken> {
  return transport.json<RegistrationToken>({ method: 'GET', path: `/orgs/${segment(org)}/actions/runners/registration-token`, options });
}

/**
 * Get a team
 *
 * `GET /teams/{id}`
 */
export function orgGetTeam(transport: Transport, id: string | number, options?: CallOptions): Promise<Team> {
  return transport.json<Team>({ method: 'GET', path: `/teams/${segment(id)}`, options });
}

/**
 * Get user permissions in organization
 *
 * `GET /users/{username}/orgs/{org}/permissions`
 */
export function orgGetUserPermissions(transport: Transport, username: string | number, org: string | number, options?: CallOptions): Promise<OrganizationPermissions> {
  return transport.json<OrganizationPermissions>({ method: 'GET', path: `/users/${segment(username)}/orgs/${segment(org)}/permissions`, options });
}

/**
 * Check if a user is a member of an organization
 *
 * `GET /orgs/{org}/members/{username}`
 */
export function orgIsMember(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/orgs/${segment(org)}/members/${segment(username)}`, options });
}

/**
 * Check if a user is a public member of an organization
 *
 * `GET /orgs/{org}/public_members/{username}`
 */
export function orgIsPublicMember(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/orgs/${segment(org)}/public_members/${segment(username)}`, options });
}

export type OrgListActionsSecretsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List actions secrets of an organization
 *
 * `GET /orgs/{org}/actions/secrets` (a page: await it for one, iterate it for all)
 */
export function orgListActionsSecrets(transport: Transport, org: string | number, query?: OrgListActionsSecretsQuery, options?: CallOptions): PageRequest<Secret> {
  return pageRequest<Secret>(transport, { method: 'GET', path: `/orgs/${segment(org)}/actions/secrets`, query, options });
}

export type OrgListActivityFeedsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** the date of the activities to be found */
  date?: string;
};
/**
 * List an organization's activity feeds
 *
 * `GET /orgs/{org}/activities/feeds` (a page: await it for one, iterate it for all)
 */
export function orgListActivityFeeds(transport: Transport, org: string | number, query?: OrgListActivityFeedsQuery, options?: CallOptions): PageRequest<Activity> {
  return pageRequest<Activity>(transport, { method: 'GET', path: `/orgs/${segment(org)}/activities/feeds`, query, options });
}

export type OrgListBlockedUsersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the organization's blocked users
 *
 * `GET /orgs/{org}/list_blocked` (a page: await it for one, iterate it for all)
 */
export function orgListBlockedUsers(transport: Transport, org: string | number, query?: OrgListBlockedUsersQuery, options?: CallOptions): PageRequest<BlockedUser> {
  return pageRequest<BlockedUser>(transport, { method: 'GET', path: `/orgs/${segment(org)}/list_blocked`, query, options });
}

export type OrgListCurrentUserOrgsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the current user's organizations
 *
 * `GET /user/orgs` (a page: await it for one, iterate it for all)
 */
export function orgListCurrentUserOrgs(transport: Transport, query?: OrgListCurrentUserOrgsQuery, options?: CallOptions): PageRequest<Organization> {
  return pageRequest<Organization>(transport, { method: 'GET', path: `/user/orgs`, query, options });
}

export type OrgListHookDeliveriesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a hook's deliveries (one per attempt), newest first
 *
 * `GET /orgs/{org}/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
 */
export function orgListHookDeliveries(transport: Transport, org: string | number, id: string | number, query?: OrgListHookDeliveriesQuery, options?: CallOptions): PageRequest<HookDeliveryItem> {
  return pageRequest<HookDeliveryItem>(transport, { method: 'GET', path: `/orgs/${segment(org)}/hooks/${segment(id)}/deliveries`, query, options });
}

export type OrgListHooksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the hooks
 *
 * `GET /orgs/{org}/hooks` (a page: await it for one, iterate it for all)
 */
export function orgListHooks(transport: Transport, org: string | number, query?: OrgListHooksQuery, options?: CallOptions): PageRequest<Hook> {
  return pageRequest<Hook>(transport, { method: 'GET', path: `/orgs/${segment(org)}/hooks`, query, options });
}

export type OrgListLabelsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** Specifies the sorting method: mostissues, leastissues, or reversealphabetically. */
  sort?: "alphabetically" | "reversealphabetically" | "leastissues" | "mostissues";
};
/**
 * List an organization's labels
 *
 * `GET /orgs/{org}/labels` (a page: await it for one, iterate it for all)
 */
export function orgListLabels(transport: Transport, org: string | number, query?: OrgListLabelsQuery, options?: CallOptions): PageRequest<Label> {
  return pageRequest<Label>(transport, { method: 'GET', path: `/orgs/${segment(org)}/labels`, query, options });
}

export type OrgListMembersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an organization's members
 *
 * `GET /orgs/{org}/members` (a page: await it for one, iterate it for all)
 */
export function orgListMembers(transport: Transport, org: string | number, query?: OrgListMembersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/orgs/${segment(org)}/members`, query, options });
}

export type OrgListPublicMembersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an organization's public members
 *
 * `GET /orgs/{org}/public_members` (a page: await it for one, iterate it for all)
 */
export function orgListPublicMembers(transport: Transport, org: string | number, query?: OrgListPublicMembersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/orgs/${segment(org)}/public_members`, query, options });
}

export type OrgListQuotaArtifactsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the artifacts affecting the organization's quota
 *
 * `GET /orgs/{org}/quota/artifacts` (a page: await it for one, iterate it for all)
 */
export function orgListQuotaArtifacts(transport: Transport, org: string | number, query?: OrgListQuotaArtifactsQuery, options?: CallOptions): PageRequest<QuotaUsedArtifact> {
  return pageRequest<QuotaUsedArtifact>(transport, { method: 'GET', path: `/orgs/${segment(org)}/quota/artifacts`, query, options });
}

export type OrgListQuotaAttachmentsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the attachments affecting the organization's quota
 *
 * `GET /orgs/{org}/quota/attachments` (a page: await it for one, iterate it for all)
 */
export function orgListQuotaAttachments(transport: Transport, org: string | number, query?: OrgListQuotaAttachmentsQuery, options?: CallOptions): PageRequest<QuotaUsedAttachment> {
  return pageRequest<QuotaUsedAttachment>(transport, { method: 'GET', path: `/orgs/${segment(org)}/quota/attachments`, query, options });
}

export type OrgListQuotaPackagesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the packages affecting the organization's quota
 *
 * `GET /orgs/{org}/quota/packages` (a page: await it for one, iterate it for all)
 */
export function orgListQuotaPackages(transport: Transport, org: string | number, query?: OrgListQuotaPackagesQuery, options?: CallOptions): PageRequest<QuotaUsedPackage> {
  return pageRequest<QuotaUsedPackage>(transport, { method: 'GET', path: `/orgs/${segment(org)}/quota/packages`, query, options });
}

export type OrgListReposQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an organization's repos
 *
 * `GET /orgs/{org}/repos` (a page: await it for one, iterate it for all)
 */
export function orgListRepos(transport: Transport, org: string | number, query?: OrgListReposQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/orgs/${segment(org)}/repos`, query, options });
}

export type OrgListTeamActivityFeedsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** the date of the activities to be found */
  date?: string;
};
/**
 * List a team's activity feeds
 *
 * `GET /teams/{id}/activities/feeds` (a page: await it for one, iterate it for all)
 */
export function orgListTeamActivityFeeds(transport: Transport, id: string | number, query?: OrgListTeamActivityFeedsQuery, options?: CallOptions): PageRequest<Activity> {
  return pageRequest<Activity>(transport, { method: 'GET', path: `/teams/${segment(id)}/activities/feeds`, query, options });
}

/**
 * List a particular member of team
 *
 * `GET /teams/{id}/members/{username}`
 */
export function orgListTeamMember(transport: Transport, id: string | number, username: string | number, options?: CallOptions): Promise<User> {
  return transport.json<User>({ method: 'GET', path: `/teams/${segment(id)}/members/${segment(username)}`, options });
}

export type OrgListTeamMembersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a team's members
 *
 * `GET /teams/{id}/members` (a page: await it for one, iterate it for all)
 */
export function orgListTeamMembers(transport: Transport, id: string | number, query?: OrgListTeamMembersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/teams/${segment(id)}/members`, query, options });
}

/**
 * List a particular repo of team
 *
 * `GET /teams/{id}/repos/{org}/{repo}`
 */
export function orgListTeamRepo(transport: Transport, id: string | number, org: string | number, repo: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'GET', path: `/teams/${segment(id)}/repos/${segment(org)}/${segment(repo)}`, options });
}

export type OrgListTeamReposQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a team's repos
 *
 * `GET /teams/{id}/repos` (a page: await it for one, iterate it for all)
 */
export function orgListTeamRepos(transport: Transport, id: string | number, query?: OrgListTeamReposQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/teams/${segment(id)}/repos`, query, options });
}

export type OrgListTeamsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an organization's teams
 *
 * `GET /orgs/{org}/teams` (a page: await it for one, iterate it for all)
 */
export function orgListTeams(transport: Transport, org: string | number, query?: OrgListTeamsQuery, options?: CallOptions): PageRequest<Team> {
  return pageRequest<Team>(transport, { method: 'GET', path: `/orgs/${segment(org)}/teams`, query, options });
}

export type OrgListUserOrgsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a user's organizations
 *
 * `GET /users/{username}/orgs` (a page: await it for one, iterate it for all)
 */
export function orgListUserOrgs(transport: Transport, username: string | number, query?: OrgListUserOrgsQuery, options?: CallOptions): PageRequest<Organization> {
  return pageRequest<Organization>(transport, { method: 'GET', path: `/users/${segment(username)}/orgs`, query, options });
}

/**
 * Publicize a user's membership
 *
 * `PUT /orgs/{org}/public_members/{username}`
 */
export function orgPublicizeMember(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/orgs/${segment(org)}/public_members/${segment(username)}`, options });
}

/**
 * Deliver a delivery again (same delivery id and body), as a new attempt
 *
 * `POST /orgs/{org}/hooks/{id}/deliveries/{delivery_id}/attempts`
 */
export function orgRedeliverHook(transport: Transport, org: string | number, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<Record<string, unknown>> {
  return transport.json<Record<string, unknown>>({ method: 'POST', path: `/orgs/${segment(org)}/hooks/${segment(id)}/deliveries/${segment(delivery_id)}/attempts`, options });
}

/**
 * Remove a team member
 *
 * `DELETE /teams/{id}/members/{username}`
 */
export function orgRemoveTeamMember(transport: Transport, id: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/teams/${segment(id)}/members/${segment(username)}`, options });
}

/**
 * Remove a repository from a team
 *
 * `DELETE /teams/{id}/repos/{org}/{repo}`
 */
export function orgRemoveTeamRepository(transport: Transport, id: string | number, org: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/teams/${segment(id)}/repos/${segment(org)}/${segment(repo)}`, options });
}

export type OrgSearchRunJobsQuery = {
  /** a comma separated list of run job labels to search for */
  labels?: string;
};
/**
 * Search for organization's action jobs according filter conditions
 *
 * `GET /orgs/{org}/actions/runners/jobs`
 */
export function orgSearchRunJobs(transport: Transport, org: string | number, query?: OrgSearchRunJobsQuery, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/orgs/${segment(org)}/actions/runners/jobs`, query, options });
}

/**
 * Unblock a user from the organization
 *
 * `PUT /orgs/{org}/unblock/{username}`
 */
export function orgUnblockUser(transport: Transport, org: string | number, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/orgs/${segment(org)}/unblock/${segment(username)}`, options });
}

/**
 * Update Avatar
 *
 * `POST /orgs/{org}/avatar`
 */
export function orgUpdateAvatar(transport: Transport, org: string | number, body: UpdateUserAvatarOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/orgs/${segment(org)}/avatar`, json: body, options });
}

/**
 * Pin an Issue
 *
 * `POST /repos/{owner}/{repo}/issues/{index}/pin`
 */
export function pinIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/pin`, options });
}

/**
 * Register a new global runner
 *
 * `POST /admin/actions/runners`
 */
export function registerAdminRunner(transport: Transport, body: RegisterRunnerOptions, options?: CallOptions): Promise<RegisterRunnerResponse> {
  return transport.json<RegisterRunnerResponse>({ method: 'POST', path: `/admin/actions/runners`, json: body, options });
}

/**
 * Register a new organization-level runner
 *
 * `POST /orgs/{org}/actions/runners`
 */
export function registerOrgRunner(transport: Transport, org: string | number, body: RegisterRunnerOptions, options?: CallOptions): Promise<RegisterRunnerResponse> {
  return transport.json<RegisterRunnerResponse>({ method: 'POST', path: `/orgs/${segment(org)}/actions/runners`, json: body, options });
}

/**
 * Register a new repository-level runner
 *
 * `POST /repos/{owner}/{repo}/actions/runners`
 */
export function registerRepoRunner(transport: Transport, owner: string | number, repo: string | number, body: RegisterRunnerOptions, options?: CallOptions): Promise<RegisterRunnerResponse> {
  return transport.json<RegisterRunnerResponse>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners`, json: body, options });
}

/**
 * Register a new user-level runner
 *
 * `POST /user/actions/runners`
 */
export function registerUserRunner(transport: Transport, body: RegisterRunnerOptions, options?: CallOptions): Promise<RegisterRunnerResponse> {
  return transport.json<RegisterRunnerResponse>({ method: 'POST', path: `/user/actions/runners`, json: body, options });
}

/**
 * Reject a repo transfer
 *
 * `POST /repos/{owner}/{repo}/transfer/reject`
 */
export function rejectRepoTransfer(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/transfer/reject`, options });
}

/**
 * Rename an organization
 *
 * `POST /orgs/{org}/rename`
 */
export function renameOrg(transport: Transport, org: string | number, body: RenameOrgOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/orgs/${segment(org)}/rename`, json: body, options });
}

/**
 * Render a markdown document as HTML
 *
 * `POST /markdown`
 */
export function renderMarkdown(transport: Transport, body: MarkdownOption, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/markdown`, json: body, options });
}

/**
 * Render raw markdown as HTML
 *
 * `POST /markdown/raw`
 */
export function renderMarkdownRaw(transport: Transport, body: string, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/markdown/raw`, text: body, options });
}

/**
 * Render a markup document as HTML
 *
 * `POST /markup`
 */
export function renderMarkup(transport: Transport, body: MarkupOption, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/markup`, json: body, options });
}

/**
 * Add a collaborator to a repository
 *
 * `PUT /repos/{owner}/{repo}/collaborators/{collaborator}`
 */
export function repoAddCollaborator(transport: Transport, owner: string | number, repo: string | number, collaborator: string | number, body: AddCollaboratorOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/collaborators/${segment(collaborator)}`, json: body, options });
}

/**
 * Add a flag to a repository
 *
 * `PUT /repos/{owner}/{repo}/flags/{flag}`
 */
export function repoAddFlag(transport: Transport, owner: string | number, repo: string | number, flag: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/flags/${segment(flag)}`, options });
}

/**
 * Set up a new push mirror in a repository
 *
 * `POST /repos/{owner}/{repo}/push_mirrors`
 */
export function repoAddPushMirror(transport: Transport, owner: string | number, repo: string | number, body: CreatePushMirrorOption, options?: CallOptions): Promise<PushMirror> {
  return transport.json<PushMirror>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/push_mirrors`, json: body, options });
}

/**
 * Add a team to a repository
 *
 * `PUT /repos/{owner}/{repo}/teams/{team}`
 */
export function repoAddTeam(transport: Transport, owner: string | number, repo: string | number, team: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/teams/${segment(team)}`, options });
}

/**
 * Add a topic to a repository
 *
 * `PUT /repos/{owner}/{repo}/topics/{topic}`
 */
export function repoAddTopic(transport: Transport, owner: string | number, repo: string | number, topic: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/topics/${segment(topic)}`, options });
}

/**
 * Apply diff patch to repository
 *
 * `POST /repos/{owner}/{repo}/diffpatch`
 */
export function repoApplyDiffPatch(transport: Transport, owner: string | number, repo: string | number, body: UpdateFileOptions, options?: CallOptions): Promise<FileResponse> {
  return transport.json<FileResponse>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/diffpatch`, json: body, options });
}

/**
 * Cancel the scheduled auto merge for the given pull request
 *
 * `DELETE /repos/{owner}/{repo}/pulls/{index}/merge`
 */
export function repoCancelScheduledAutoMerge(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/merge`, options });
}

/**
 * Modify multiple files in a repository
 *
 * `POST /repos/{owner}/{repo}/contents`
 */
export function repoChangeFiles(transport: Transport, owner: string | number, repo: string | number, body: ChangeFilesOptions, options?: CallOptions): Promise<FilesResponse> {
  return transport.json<FilesResponse>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/contents`, json: body, options });
}

/**
 * Check if a user is a collaborator of a repository
 *
 * `GET /repos/{owner}/{repo}/collaborators/{collaborator}`
 */
export function repoCheckCollaborator(transport: Transport, owner: string | number, repo: string | number, collaborator: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/collaborators/${segment(collaborator)}`, options });
}

/**
 * Check if a repository has a given flag
 *
 * `GET /repos/{owner}/{repo}/flags/{flag}`
 */
export function repoCheckFlag(transport: Transport, owner: string | number, repo: string | number, flag: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/flags/${segment(flag)}`, options });
}

/**
 * Check if a team is assigned to a repository
 *
 * `GET /repos/{owner}/{repo}/teams/{team}`
 */
export function repoCheckTeam(transport: Transport, owner: string | number, repo: string | number, team: string | number, options?: CallOptions): Promise<Team> {
  return transport.json<Team>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/teams/${segment(team)}`, options });
}

export type RepoCompareDiffQuery = {
  /** include verification status for each commit */
  verification?: boolean;
  /** include which files changed by a commit */
  files?: boolean;
};
/**
 * Get commit comparison information
 *
 * `GET /repos/{owner}/{repo}/compare/{basehead}`
 */
export function repoCompareDiff(transport: Transport, owner: string | number, repo: string | number, basehead: string | number, query?: RepoCompareDiffQuery, options?: CallOptions): Promise<Compare> {
  return transport.json<Compare>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/compare/${segment(basehead)}`, query, options });
}

/**
 * Convert a mirror repo to a normal repo.
 *
 * `POST /repos/{owner}/{repo}/convert`
 */
export function repoConvert(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/convert`, options });
}

/**
 * Create a branch
 *
 * `POST /repos/{owner}/{repo}/branches`
 */
export function repoCreateBranch(transport: Transport, owner: string | number, repo: string | number, body: CreateBranchRepoOption, options?: CallOptions): Promise<Branch> {
  return transport.json<Branch>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/branches`, json: body, options });
}

/**
 * Create a branch protections for a repository
 *
 * `POST /repos/{owner}/{repo}/branch_protections`
 */
export function repoCreateBranchProtection(transport: Transport, owner: string | number, repo: string | number, body: CreateBranchProtectionOption, options?: CallOptions): Promise<BranchProtection> {
  return transport.json<BranchProtection>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/branch_protections`, json: body, options });
}

/**
 * Create a file in a repository
 *
 * `POST /repos/{owner}/{repo}/contents/{filepath}`
 */
export function repoCreateFile(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, body: CreateFileOptions, options?: CallOptions): Promise<FileResponse> {
  return transport.json<FileResponse>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/contents/${filePath(filepath)}`, json: body, options });
}

/**
 * Create a hook
 *
 * `POST /repos/{owner}/{repo}/hooks`
 */
export function repoCreateHook(transport: Transport, owner: string | number, repo: string | number, body: CreateHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/hooks`, json: body, options });
}

/**
 * Add a key to a repository
 *
 * `POST /repos/{owner}/{repo}/keys`
 */
export function repoCreateKey(transport: Transport, owner: string | number, repo: string | number, body: CreateKeyOption, options?: CallOptions): Promise<DeployKey> {
  return transport.json<DeployKey>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/keys`, json: body, options });
}

/**
 * Create a pull request
 *
 * `POST /repos/{owner}/{repo}/pulls`
 */
export function repoCreatePullRequest(transport: Transport, owner: string | number, repo: string | number, body: CreatePullRequestOption, options?: CallOptions): Promise<PullRequest> {
  return transport.json<PullRequest>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls`, json: body, options });
}

/**
 * Create a review to an pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/reviews`
 */
export function repoCreatePullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: CreatePullReviewOptions, options?: CallOptions): Promise<PullReview> {
  return transport.json<PullReview>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews`, json: body, options });
}

/**
 * Add a new comment to a pull request review
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments`
 */
export function repoCreatePullReviewComment(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, body: CreatePullReviewComment, options?: CallOptions): Promise<PullReviewComment> {
  return transport.json<PullReviewComment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/comments`, json: body, options });
}

/**
 * Reply to a pull review comment
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/comments/{id}/replies`
 */
export function repoCreatePullReviewCommentReply(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, body: CreatePullReviewCommentReplyOptions, options?: CallOptions): Promise<PullReviewComment> {
  return transport.json<PullReviewComment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/comments/${segment(id)}/replies`, json: body, options });
}

/**
 * create review requests for a pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/requested_reviewers`
 */
export function repoCreatePullReviewRequests(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: PullReviewRequestOptions, options?: CallOptions): Promise<PullReview[]> {
  return transport.json<PullReview[]>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/requested_reviewers`, json: body, options });
}

/**
 * Create a release
 *
 * `POST /repos/{owner}/{repo}/releases`
 */
export function repoCreateRelease(transport: Transport, owner: string | number, repo: string | number, body: CreateReleaseOption, options?: CallOptions): Promise<Release> {
  return transport.json<Release>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/releases`, json: body, options });
}

export type RepoCreateReleaseAttachmentQuery = {
  /** name of the attachment */
  name?: string;
  /** url to external asset (this parameter is incompatible with `attachment`) */
  external_url?: string;
};
/**
 * Create a release attachment
 *
 * `POST /repos/{owner}/{repo}/releases/{id}/assets`
 */
export function repoCreateReleaseAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, query?: RepoCreateReleaseAttachmentQuery, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}/assets`, query, options });
}

/**
 * Create a commit status
 *
 * `POST /repos/{owner}/{repo}/statuses/{sha}`
 */
export function repoCreateStatus(transport: Transport, owner: string | number, repo: string | number, sha: string | number, body: CreateStatusOption, options?: CallOptions): Promise<CommitStatus> {
  return transport.json<CommitStatus>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/statuses/${segment(sha)}`, json: body, options });
}

/**
 * Create a new git tag in a repository
 *
 * `POST /repos/{owner}/{repo}/tags`
 */
export function repoCreateTag(transport: Transport, owner: string | number, repo: string | number, body: CreateTagOption, options?: CallOptions): Promise<Tag> {
  return transport.json<Tag>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/tags`, json: body, options });
}

/**
 * Create a tag protections for a repository
 *
 * `POST /repos/{owner}/{repo}/tag_protections`
 */
export function repoCreateTagProtection(transport: Transport, owner: string | number, repo: string | number, body: CreateTagProtectionOption, options?: CallOptions): Promise<TagProtection> {
  return transport.json<TagProtection>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/tag_protections`, json: body, options });
}

/**
 * Create a wiki page
 *
 * `POST /repos/{owner}/{repo}/wiki/new`
 */
export function repoCreateWikiPage(transport: Transport, owner: string | number, repo: string | number, body: CreateWikiPageOptions, options?: CallOptions): Promise<WikiPage> {
  return transport.json<WikiPage>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/new`, json: body, options });
}

/**
 * Delete a repository
 *
 * `DELETE /repos/{owner}/{repo}`
 */
export function repoDelete(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Remove all flags from a repository
 *
 * `DELETE /repos/{owner}/{repo}/flags`
 */
export function repoDeleteAllFlags(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/flags`, options });
}

/**
 * Delete a repository's avatar
 *
 * `DELETE /repos/{owner}/{repo}/avatar`
 */
export function repoDeleteAvatar(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/avatar`, options });
}

/**
 * Delete a specific branch from a repository
 *
 * `DELETE /repos/{owner}/{repo}/branches/{branch}`
 */
export function repoDeleteBranch(transport: Transport, owner: string | number, repo: string | number, branch: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/branches/${segment(branch)}`, options });
}

/**
 * Delete a specific branch protection for the repository
 *
 * `DELETE /repos/{owner}/{repo}/branch_protections/{name}`
 */
export function repoDeleteBranchProtection(transport: Transport, owner: string | number, repo: string | number, name: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/branch_protections/${segment(name)}`, options });
}

/**
 * Delete a collaborator from a repository
 *
 * `DELETE /repos/{owner}/{repo}/collaborators/{collaborator}`
 */
export function repoDeleteCollaborator(transport: Transport, owner: string | number, repo: string | number, collaborator: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/collaborators/${segment(collaborator)}`, options });
}

/**
 * Delete a file in a repository
 *
 * `DELETE /repos/{owner}/{repo}/contents/{filepath}`
 */
export function repoDeleteFile(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, body: DeleteFileOptions, options?: CallOptions): Promise<FileDeleteResponse> {
  return transport.json<FileDeleteResponse>({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/contents/${filePath(filepath)}`, json: body, options });
}

/**
 * Remove a flag from a repository
 *
 * `DELETE /repos/{owner}/{repo}/flags/{flag}`
 */
export function repoDeleteFlag(transport: Transport, owner: string | number, repo: string | number, flag: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/flags/${segment(flag)}`, options });
}

/**
 * Delete a Git hook in a repository
 *
 * `DELETE /repos/{owner}/{repo}/hooks/git/{id}`
 */
export function repoDeleteGitHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/git/${segment(id)}`, options });
}

/**
 * Delete a hook
 *
 * `DELETE /repos/{owner}/{repo}/hooks/{id}`
 */
export function repoDeleteHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}`, options });
}

/**
 * Delete a key from a repository
 *
 * `DELETE /repos/{owner}/{repo}/keys/{id}`
 */
export function repoDeleteKey(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/keys/${segment(id)}`, options });
}

/**
 * Delete a specific review from a pull request
 *
 * `DELETE /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
 */
export function repoDeletePullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}`, options });
}

/**
 * Delete a pull review comment
 *
 * `DELETE /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}`
 */
export function repoDeletePullReviewComment(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, comment: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/comments/${segment(comment)}`, options });
}

/**
 * cancel review requests for a pull request
 *
 * `DELETE /repos/{owner}/{repo}/pulls/{index}/requested_reviewers`
 */
export function repoDeletePullReviewRequests(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: PullReviewRequestOptions, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/requested_reviewers`, json: body, options });
}

/**
 * Remove a push mirror from a repository by remoteName
 *
 * `DELETE /repos/{owner}/{repo}/push_mirrors/{name}`
 */
export function repoDeletePushMirror(transport: Transport, owner: string | number, repo: string | number, name: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/push_mirrors/${segment(name)}`, options });
}

/**
 * Delete a release
 *
 * `DELETE /repos/{owner}/{repo}/releases/{id}`
 */
export function repoDeleteRelease(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}`, options });
}

/**
 * Delete a release attachment
 *
 * `DELETE /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
 */
export function repoDeleteReleaseAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}/assets/${segment(attachment_id)}`, options });
}

/**
 * Delete a release by tag name
 *
 * `DELETE /repos/{owner}/{repo}/releases/tags/{tag}`
 */
export function repoDeleteReleaseByTag(transport: Transport, owner: string | number, repo: string | number, tag: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/releases/tags/${segment(tag)}`, options });
}

/**
 * Delete a repository's tag by name
 *
 * `DELETE /repos/{owner}/{repo}/tags/{tag}`
 */
export function repoDeleteTag(transport: Transport, owner: string | number, repo: string | number, tag: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/tags/${segment(tag)}`, options });
}

/**
 * Delete a specific tag protection for the repository
 *
 * `DELETE /repos/{owner}/{repo}/tag_protections/{id}`
 */
export function repoDeleteTagProtection(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/tag_protections/${segment(id)}`, options });
}

/**
 * Delete a team from a repository
 *
 * `DELETE /repos/{owner}/{repo}/teams/{team}`
 */
export function repoDeleteTeam(transport: Transport, owner: string | number, repo: string | number, team: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/teams/${segment(team)}`, options });
}

/**
 * Delete a topic from a repository
 *
 * `DELETE /repos/{owner}/{repo}/topics/{topic}`
 */
export function repoDeleteTopic(transport: Transport, owner: string | number, repo: string | number, topic: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/topics/${segment(topic)}`, options });
}

/**
 * Delete a wiki page
 *
 * `DELETE /repos/{owner}/{repo}/wiki/page/{pageName}`
 */
export function repoDeleteWikiPage(transport: Transport, owner: string | number, repo: string | number, pageName: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/page/${segment(pageName)}`, options });
}

/**
 * Dismiss a review for a pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals`
 */
export function repoDismissPullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, body: DismissPullReviewOptions, options?: CallOptions): Promise<PullReview> {
  return transport.json<PullReview>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/dismissals`, json: body, options });
}

/**
 * Get a commit's diff or patch
 *
 * `GET /repos/{owner}/{repo}/git/commits/{sha}.{diffType}`
 */
export function repoDownloadCommitDiffOrPatch(transport: Transport, owner: string | number, repo: string | number, sha: string | number, diffType: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/commits/${segment(sha)}.${segment(diffType)}`, options });
}

export type RepoDownloadPullDiffOrPatchQuery = {
  /** whether to include binary file changes. if true, the diff is applicable with `git apply` */
  binary?: boolean;
};
/**
 * Get a pull request diff or patch
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}.{diffType}`
 */
export function repoDownloadPullDiffOrPatch(transport: Transport, owner: string | number, repo: string | number, index: string | number, diffType: string | number, query?: RepoDownloadPullDiffOrPatchQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}.${segment(diffType)}`, query, options });
}

/**
 * Edit a repository's properties. Only fields that are set will be changed.
 *
 * `PATCH /repos/{owner}/{repo}`
 */
export function repoEdit(transport: Transport, owner: string | number, repo: string | number, body: EditRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}`, json: body, options });
}

/**
 * Edit a branch protections for a repository. Only fields that are set will be changed
 *
 * `PATCH /repos/{owner}/{repo}/branch_protections/{name}`
 */
export function repoEditBranchProtection(transport: Transport, owner: string | number, repo: string | number, name: string | number, body: EditBranchProtectionOption, options?: CallOptions): Promise<BranchProtection> {
  return transport.json<BranchProtection>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/branch_protections/${segment(name)}`, json: body, options });
}

/**
 * Edit a Git hook in a repository
 *
 * `PATCH /repos/{owner}/{repo}/hooks/git/{id}`
 */
export function repoEditGitHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditGitHookOption, options?: CallOptions): Promise<GitHook> {
  return transport.json<GitHook>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/git/${segment(id)}`, json: body, options });
}

/**
 * Update a hook
 *
 * `PATCH /repos/{owner}/{repo}/hooks/{id}`
 */
export function repoEditHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}`, json: body, options });
}

/**
 * Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.
 *
 * `PATCH /repos/{owner}/{repo}/pulls/{index}`
 */
export function repoEditPullRequest(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: EditPullRequestOption, options?: CallOptions): Promise<PullRequest> {
  return transport.json<PullRequest>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}`, json: body, options });
}

/**
 * Update a release
 *
 * `PATCH /repos/{owner}/{repo}/releases/{id}`
 */
export function repoEditRelease(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditReleaseOption, options?: CallOptions): Promise<Release> {
  return transport.json<Release>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}`, json: body, options });
}

/**
 * Edit a release attachment
 *
 * `PATCH /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
 */
export function repoEditReleaseAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, body: EditAttachmentOptions, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}/assets/${segment(attachment_id)}`, json: body, options });
}

/**
 * Edit a tag protections for a repository. Only fields that are set will be changed
 *
 * `PATCH /repos/{owner}/{repo}/tag_protections/{id}`
 */
export function repoEditTagProtection(transport: Transport, owner: string | number, repo: string | number, id: string | number, body: EditTagProtectionOption, options?: CallOptions): Promise<TagProtection> {
  return transport.json<TagProtection>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/tag_protections/${segment(id)}`, json: body, options });
}

/**
 * Edit a wiki page
 *
 * `PATCH /repos/{owner}/{repo}/wiki/page/{pageName}`
 */
export function repoEditWikiPage(transport: Transport, owner: string | number, repo: string | number, pageName: string | number, body: CreateWikiPageOptions, options?: CallOptions): Promise<WikiPage> {
  return transport.json<WikiPage>({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/page/${segment(pageName)}`, json: body, options });
}

/**
 * Get a repository
 *
 * `GET /repos/{owner}/{repo}`
 */
export function repoGet(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Get a single workflow run job, including its step list
 *
 * `GET /repos/{owner}/{repo}/actions/jobs/{job_id}`
 */
export function repoGetActionJob(transport: Transport, owner: string | number, repo: string | number, job_id: string | number, options?: CallOptions): Promise<ActionRunJob> {
  return transport.json<ActionRunJob>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/jobs/${segment(job_id)}`, options });
}

export type RepoGetActionJobLogsQuery = {
  /** 1-based attempt number matching the value of `attempt` in the job listing; omit for the latest attempt. */
  attempt?: number;
  /** Step number to filter to. Use the `number` field from `GET /repos/{owner}/{repo}/actions/jobs/{job_id}`. */
  step?: number;
  /** Substring filter applied to each line's content (the part after the timestamp prefix). */
  q?: string;
  /** Case-insensitive substring match (only meaningful when `q` is set). */
  qi?: boolean;
  /** Response shape. `text` (default) returns log content as plaintext lines. `ndjson` returns one JSON object per line. */
  format?: "text" | "ndjson";
};
/**
 * Download the plaintext logs of an action job
 *
 * `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`
 */
export function repoGetActionJobLogs(transport: Transport, owner: string | number, repo: string | number, job_id: string | number, query?: RepoGetActionJobLogsQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/jobs/${segment(job_id)}/logs`, query, options });
}

/**
 * Download a ZIP of plaintext logs for every job in an action run
 *
 * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs`
 */
export function repoGetActionRunLogs(transport: Transport, owner: string | number, repo: string | number, run_id: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runs/${segment(run_id)}/logs`, options });
}

export type RepoGetAllCommitsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** SHA or branch to start listing commits from (usually 'master') */
  sha?: string;
  /** filepath of a file/dir */
  path?: string;
  /** Only commits after this date will be returned (ISO 8601 format) */
  since?: string;
  /** Only commits before this date will be returned (ISO 8601 format) */
  until?: string;
  /** include diff stats for every commit (disable for speedup, default 'true') */
  stat?: boolean;
  /** include verification for every commit (disable for speedup, default 'true') */
  verification?: boolean;
  /** include a list of affected files for every commit (disable for speedup, default 'true') */
  files?: boolean;
  /** commits that match the given specifier will not be listed. */
  not?: string;
};
/**
 * Get a list of all commits from a repository
 *
 * `GET /repos/{owner}/{repo}/commits` (a page: await it for one, iterate it for all)
 */
export function repoGetAllCommits(transport: Transport, owner: string | number, repo: string | number, query?: RepoGetAllCommitsQuery, options?: CallOptions): PageRequest<Commit> {
  return pageRequest<Commit>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/commits`, query, options });
}

/**
 * Get an archive of a repository
 *
 * `GET /repos/{owner}/{repo}/archive/{archive}`
 */
export function repoGetArchive(transport: Transport, owner: string | number, repo: string | number, archive: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/archive/${segment(archive)}`, options });
}

/**
 * Return all users that have write access and can be assigned to issues
 *
 * `GET /repos/{owner}/{repo}/assignees`
 */
export function repoGetAssignees(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<User[]> {
  return transport.json<User[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/assignees`, options });
}

/**
 * Retrieve a specific branch from a repository, including its effective branch protection
 *
 * `GET /repos/{owner}/{repo}/branches/{branch}`
 */
export function repoGetBranch(transport: Transport, owner: string | number, repo: string | number, branch: string | number, options?: CallOptions): Promise<Branch> {
  return transport.json<Branch>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/branches/${segment(branch)}`, options });
}

/**
 * Get a specific branch protection for the repository
 *
 * `GET /repos/{owner}/{repo}/branch_protections/{name}`
 */
export function repoGetBranchProtection(transport: Transport, owner: string | number, repo: string | number, name: string | number, options?: CallOptions): Promise<BranchProtection> {
  return transport.json<BranchProtection>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/branch_protections/${segment(name)}`, options });
}

/**
 * Get a repository by id
 *
 * `GET /repositories/{id}`
 */
export function repoGetByID(transport: Transport, id: string | number, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'GET', path: `/repositories/${segment(id)}`, options });
}

export type RepoGetCombinedStatusByRefQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get a commit's combined status, by branch/tag/commit reference
 *
 * `GET /repos/{owner}/{repo}/commits/{ref}/status`
 */
export function repoGetCombinedStatusByRef(transport: Transport, owner: string | number, repo: string | number, ref: string | number, query?: RepoGetCombinedStatusByRefQuery, options?: CallOptions): Promise<CombinedStatus> {
  return transport.json<CombinedStatus>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/commits/${segment(ref)}/status`, query, options });
}

/**
 * Get the pull request of the commit
 *
 * `GET /repos/{owner}/{repo}/commits/{sha}/pull`
 */
export function repoGetCommitPullRequest(transport: Transport, owner: string | number, repo: string | number, sha: string | number, options?: CallOptions): Promise<PullRequest> {
  return transport.json<PullRequest>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/commits/${segment(sha)}/pull`, options });
}

export type RepoGetContentsQuery = {
  /** The name of the commit/branch/tag. Default the repository’s default branch (usually master) */
  ref?: string;
};
/**
 * Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir
 *
 * `GET /repos/{owner}/{repo}/contents/{filepath}`
 */
export function repoGetContents(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, query?: RepoGetContentsQuery, options?: CallOptions): Promise<ContentsResponse | ContentsResponse[]> {
  return transport.json<ContentsResponse | ContentsResponse[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/contents/${filePath(filepath)}`, query, options });
}

export type RepoGetContentsListQuery = {
  /** The name of the commit/branch/tag. Default the repository’s default branch (usually master) */
  ref?: string;
};
/**
 * Gets the metadata of all the entries of the root dir
 *
 * `GET /repos/{owner}/{repo}/contents`
 */
export function repoGetContentsList(transport: Transport, owner: string | number, repo: string | number, query?: RepoGetContentsListQuery, options?: CallOptions): Promise<ContentsResponse[]> {
  return transport.json<ContentsResponse[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/contents`, query, options });
}

export type RepoGetEditorConfigQuery = {
  /** The name of the commit/branch/tag. Default the repository’s default branch (usually master) */
  ref?: string;
};
/**
 * Get the EditorConfig definitions of a file in a repository
 *
 * `GET /repos/{owner}/{repo}/editorconfig/{filepath}`
 */
export function repoGetEditorConfig(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, query?: RepoGetEditorConfigQuery, options?: CallOptions): Promise<Record<string, string>> {
  return transport.json<Record<string, string>>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/editorconfig/${filePath(filepath)}`, query, options });
}

/**
 * Get a Git hook
 *
 * `GET /repos/{owner}/{repo}/hooks/git/{id}`
 */
export function repoGetGitHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<GitHook> {
  return transport.json<GitHook>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/git/${segment(id)}`, options });
}

/**
 * Get a hook
 *
 * `GET /repos/{owner}/{repo}/hooks/{id}`
 */
export function repoGetHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}`, options });
}

/**
 * Get one delivery of a hook, with its request and response
 *
 * `GET /repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}`
 */
export function repoGetHookDelivery(transport: Transport, owner: string | number, repo: string | number, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<HookDelivery> {
  return transport.json<HookDelivery>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}/deliveries/${segment(delivery_id)}`, options });
}

/**
 * Returns the issue config for a repo
 *
 * `GET /repos/{owner}/{repo}/issue_config`
 */
export function repoGetIssueConfig(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<IssueConfig> {
  return transport.json<IssueConfig>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issue_config`, options });
}

/**
 * Get available issue templates for a repository
 *
 * `GET /repos/{owner}/{repo}/issue_templates`
 */
export function repoGetIssueTemplates(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<IssueTemplate[]> {
  return transport.json<IssueTemplate[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issue_templates`, options });
}

/**
 * Get a repository's key by id
 *
 * `GET /repos/{owner}/{repo}/keys/{id}`
 */
export function repoGetKey(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<DeployKey> {
  return transport.json<DeployKey>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/keys/${segment(id)}`, options });
}

/**
 * Get languages and number of bytes of code written
 *
 * `GET /repos/{owner}/{repo}/languages`
 */
export function repoGetLanguages(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Record<string, number>> {
  return transport.json<Record<string, number>>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/languages`, options });
}

/**
 * Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at
 *
 * `GET /repos/{owner}/{repo}/releases/latest`
 */
export function repoGetLatestRelease(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Release> {
  return transport.json<Release>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases/latest`, options });
}

export type RepoGetNoteQuery = {
  /** include verification for every commit (disable for speedup, default 'true') */
  verification?: boolean;
  /** include a list of affected files for every commit (disable for speedup, default 'true') */
  files?: boolean;
};
/**
 * Get a note corresponding to a single commit from a repository
 *
 * `GET /repos/{owner}/{repo}/git/notes/{sha}`
 */
export function repoGetNote(transport: Transport, owner: string | number, repo: string | number, sha: string | number, query?: RepoGetNoteQuery, options?: CallOptions): Promise<Note> {
  return transport.json<Note>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/notes/${segment(sha)}`, query, options });
}

/**
 * Get a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}`
 */
export function repoGetPullRequest(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<PullRequest> {
  return transport.json<PullRequest>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}`, options });
}

/**
 * Get a pull request by base and head
 *
 * `GET /repos/{owner}/{repo}/pulls/{base}/{head}`
 */
export function repoGetPullRequestByBaseHead(transport: Transport, owner: string | number, repo: string | number, base: string | number, head: string | number, options?: CallOptions): Promise<PullRequest> {
  return transport.json<PullRequest>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(base)}/${segment(head)}`, options });
}

export type RepoGetPullRequestCommitsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** include verification for every commit (disable for speedup, default 'true') */
  verification?: boolean;
  /** include a list of affected files for every commit (disable for speedup, default 'true') */
  files?: boolean;
};
/**
 * Get commits for a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/commits` (a page: await it for one, iterate it for all)
 */
export function repoGetPullRequestCommits(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: RepoGetPullRequestCommitsQuery, options?: CallOptions): PageRequest<Commit> {
  return pageRequest<Commit>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/commits`, query, options });
}

export type RepoGetPullRequestFilesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** skip to given file */
  "skip-to"?: string;
  /** whitespace behavior */
  whitespace?: "ignore-all" | "ignore-change" | "ignore-eol" | "show-all";
};
/**
 * Get changed files for a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/files` (a page: await it for one, iterate it for all)
 */
export function repoGetPullRequestFiles(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: RepoGetPullRequestFilesQuery, options?: CallOptions): PageRequest<ChangedFile> {
  return pageRequest<ChangedFile>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/files`, query, options });
}

/**
 * Get a specific review for a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
 */
export function repoGetPullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<PullReview> {
  return transport.json<PullReview>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}`, options });
}

/**
 * Get a pull review comment
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}`
 */
export function repoGetPullReviewComment(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, comment: string | number, options?: CallOptions): Promise<PullReviewComment> {
  return transport.json<PullReviewComment>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/comments/${segment(comment)}`, options });
}

/**
 * Get a specific review for a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments`
 */
export function repoGetPullReviewComments(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<PullReviewComment[]> {
  return transport.json<PullReviewComment[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/comments`, options });
}

/**
 * Get push mirror of the repository by remoteName
 *
 * `GET /repos/{owner}/{repo}/push_mirrors/{name}`
 */
export function repoGetPushMirrorByRemoteName(transport: Transport, owner: string | number, repo: string | number, name: string | number, options?: CallOptions): Promise<PushMirror> {
  return transport.json<PushMirror>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/push_mirrors/${segment(name)}`, options });
}

export type RepoGetRawFileQuery = {
  /** The name of the commit/branch/tag. Default the repository’s default branch (usually master) */
  ref?: string;
};
/**
 * Get a file from a repository
 *
 * `GET /repos/{owner}/{repo}/raw/{filepath}`
 */
export function repoGetRawFile(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, query?: RepoGetRawFileQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/raw/${filePath(filepath)}`, query, options });
}

export type RepoGetRawFileOrLFSQuery = {
  /** The name of the commit/branch/tag. Default the repository’s default branch (usually master) */
  ref?: string;
};
/**
 * Get a file or it's LFS object from a repository
 *
 * `GET /repos/{owner}/{repo}/media/{filepath}`
 */
export function repoGetRawFileOrLFS(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, query?: RepoGetRawFileOrLFSQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/media/${filePath(filepath)}`, query, options });
}

/**
 * Get a release
 *
 * `GET /repos/{owner}/{repo}/releases/{id}`
 */
export function repoGetRelease(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Release> {
  return transport.json<Release>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}`, options });
}

/**
 * Get a release attachment
 *
 * `GET /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
 */
export function repoGetReleaseAttachment(transport: Transport, owner: string | number, repo: string | number, id: string | number, attachment_id: string | number, options?: CallOptions): Promise<Attachment> {
  return transport.json<Attachment>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}/assets/${segment(attachment_id)}`, options });
}

/**
 * Get a release by tag name
 *
 * `GET /repos/{owner}/{repo}/releases/tags/{tag}`
 */
export function repoGetReleaseByTag(transport: Transport, owner: string | number, repo: string | number, tag: string | number, options?: CallOptions): Promise<Release> {
  return transport.json<Release>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases/tags/${segment(tag)}`, options });
}

/**
 * Get repository permissions for a user
 *
 * `GET /repos/{owner}/{repo}/collaborators/{collaborator}/permission`
 */
export function repoGetRepoPermissions(transport: Transport, owner: string | number, repo: string | number, collaborator: string | number, options?: CallOptions): Promise<RepoCollaboratorPermission> {
  return transport.json<RepoCollaboratorPermission>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/collaborators/${segment(collaborator)}/permission`, options });
}

/**
 * Return all users that can be requested to review in this repo
 *
 * `GET /repos/{owner}/{repo}/reviewers`
 */
export function repoGetReviewers(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<User[]> {
  return transport.json<User[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/reviewers`, options });
}

/**
 * Get a repository's runner registration token
 *
 * `GET /repos/{owner}/{repo}/actions/runners/registration-token`
 */
export function repoGetRunnerRegistrationToken(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<RegistrationToken> {
  return transport.json<RegistrationToken>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners/registration-token`, options });
}

export type RepoGetSingleCommitQuery = {
  /** include diff stats for every commit (disable for speedup, default 'true') */
  stat?: boolean;
  /** include verification for every commit (disable for speedup, default 'true') */
  verification?: boolean;
  /** include a list of affected files for every commit (disable for speedup, default 'true') */
  files?: boolean;
};
/**
 * Get a single commit from a repository
 *
 * `GET /repos/{owner}/{repo}/git/commits/{sha}`
 */
export function repoGetSingleCommit(transport: Transport, owner: string | number, repo: string | number, sha: string | number, query?: RepoGetSingleCommitQuery, options?: CallOptions): Promise<Commit> {
  return transport.json<Commit>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/commits/${segment(sha)}`, query, options });
}

/**
 * Get the tag of a repository by tag name
 *
 * `GET /repos/{owner}/{repo}/tags/{tag}`
 */
export function repoGetTag(transport: Transport, owner: string | number, repo: string | number, tag: string | number, options?: CallOptions): Promise<Tag> {
  return transport.json<Tag>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/tags/${segment(tag)}`, options });
}

/**
 * Get a specific tag protection for the repository
 *
 * `GET /repos/{owner}/{repo}/tag_protections/{id}`
 */
export function repoGetTagProtection(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<TagProtection> {
  return transport.json<TagProtection>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/tag_protections/${segment(id)}`, options });
}

/**
 * Get a wiki page
 *
 * `GET /repos/{owner}/{repo}/wiki/page/{pageName}`
 */
export function repoGetWikiPage(transport: Transport, owner: string | number, repo: string | number, pageName: string | number, options?: CallOptions): Promise<WikiPage> {
  return transport.json<WikiPage>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/page/${segment(pageName)}`, options });
}

export type RepoGetWikiPageRevisionsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
};
/**
 * Get revisions of a wiki page
 *
 * `GET /repos/{owner}/{repo}/wiki/revisions/{pageName}`
 */
export function repoGetWikiPageRevisions(transport: Transport, owner: string | number, repo: string | number, pageName: string | number, query?: RepoGetWikiPageRevisionsQuery, options?: CallOptions): Promise<WikiCommitList> {
  return transport.json<WikiCommitList>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/revisions/${segment(pageName)}`, query, options });
}

export type RepoGetWikiPagesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get all wiki pages
 *
 * `GET /repos/{owner}/{repo}/wiki/pages` (a page: await it for one, iterate it for all)
 */
export function repoGetWikiPages(transport: Transport, owner: string | number, repo: string | number, query?: RepoGetWikiPagesQuery, options?: CallOptions): PageRequest<WikiPageMetaData> {
  return pageRequest<WikiPageMetaData>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/wiki/pages`, query, options });
}

export type RepoListActionsSecretsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List an repo's actions secrets
 *
 * `GET /repos/{owner}/{repo}/actions/secrets` (a page: await it for one, iterate it for all)
 */
export function repoListActionsSecrets(transport: Transport, owner: string | number, repo: string | number, query?: RepoListActionsSecretsQuery, options?: CallOptions): PageRequest<Secret> {
  return pageRequest<Secret>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/secrets`, query, options });
}

export type RepoListActivityFeedsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** the date of the activities to be found */
  date?: string;
};
/**
 * List a repository's activity feeds
 *
 * `GET /repos/{owner}/{repo}/activities/feeds` (a page: await it for one, iterate it for all)
 */
export function repoListActivityFeeds(transport: Transport, owner: string | number, repo: string | number, query?: RepoListActivityFeedsQuery, options?: CallOptions): PageRequest<Activity> {
  return pageRequest<Activity>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/activities/feeds`, query, options });
}

/**
 * Get specified ref or filtered repository's refs
 *
 * `GET /repos/{owner}/{repo}/git/refs`
 */
export function repoListAllGitRefs(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Reference[]> {
  return transport.json<Reference[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/refs`, options });
}

/**
 * List branch protections for a repository
 *
 * `GET /repos/{owner}/{repo}/branch_protections`
 */
export function repoListBranchProtection(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<BranchProtection[]> {
  return transport.json<BranchProtection[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/branch_protections`, options });
}

export type RepoListBranchesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repository's branches
 *
 * `GET /repos/{owner}/{repo}/branches` (a page: await it for one, iterate it for all)
 */
export function repoListBranches(transport: Transport, owner: string | number, repo: string | number, query?: RepoListBranchesQuery, options?: CallOptions): PageRequest<Branch> {
  return pageRequest<Branch>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/branches`, query, options });
}

export type RepoListCollaboratorsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repository's collaborators
 *
 * `GET /repos/{owner}/{repo}/collaborators` (a page: await it for one, iterate it for all)
 */
export function repoListCollaborators(transport: Transport, owner: string | number, repo: string | number, query?: RepoListCollaboratorsQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/collaborators`, query, options });
}

/**
 * List a repository's flags
 *
 * `GET /repos/{owner}/{repo}/flags`
 */
export function repoListFlags(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<string[]> {
  return transport.json<string[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/flags`, options });
}

/**
 * List the Git hooks in a repository
 *
 * `GET /repos/{owner}/{repo}/hooks/git`
 */
export function repoListGitHooks(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<GitHook[]> {
  return transport.json<GitHook[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/git`, options });
}

/**
 * Get specified ref or filtered repository's refs
 *
 * `GET /repos/{owner}/{repo}/git/refs/{ref}`
 */
export function repoListGitRefs(transport: Transport, owner: string | number, repo: string | number, ref: string | number, options?: CallOptions): Promise<Reference[]> {
  return transport.json<Reference[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/git/refs/${segment(ref)}`, options });
}

export type RepoListHookDeliveriesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a hook's deliveries (one per attempt), newest first
 *
 * `GET /repos/{owner}/{repo}/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
 */
export function repoListHookDeliveries(transport: Transport, owner: string | number, repo: string | number, id: string | number, query?: RepoListHookDeliveriesQuery, options?: CallOptions): PageRequest<HookDeliveryItem> {
  return pageRequest<HookDeliveryItem>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}/deliveries`, query, options });
}

export type RepoListHooksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the hooks
 *
 * `GET /repos/{owner}/{repo}/hooks` (a page: await it for one, iterate it for all)
 */
export function repoListHooks(transport: Transport, owner: string | number, repo: string | number, query?: RepoListHooksQuery, options?: CallOptions): PageRequest<Hook> {
  return pageRequest<Hook>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/hooks`, query, options });
}

export type RepoListKeysQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** the key_id to search for */
  key_id?: number;
  /** fingerprint of the key */
  fingerprint?: string;
};
/**
 * List a repository's keys
 *
 * `GET /repos/{owner}/{repo}/keys` (a page: await it for one, iterate it for all)
 */
export function repoListKeys(transport: Transport, owner: string | number, repo: string | number, query?: RepoListKeysQuery, options?: CallOptions): PageRequest<DeployKey> {
  return pageRequest<DeployKey>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/keys`, query, options });
}

/**
 * List a repo's pinned issues
 *
 * `GET /repos/{owner}/{repo}/issues/pinned`
 */
export function repoListPinnedIssues(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Issue[]> {
  return transport.json<Issue[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issues/pinned`, options });
}

/**
 * List a repo's pinned pull requests
 *
 * `GET /repos/{owner}/{repo}/pulls/pinned`
 */
export function repoListPinnedPullRequests(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<PullRequest[]> {
  return transport.json<PullRequest[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/pinned`, options });
}

export type RepoListPullRequestsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** State of pull request */
  state?: "open" | "closed" | "all";
  /** Type of sort */
  sort?: "oldest" | "recentupdate" | "recentclose" | "leastupdate" | "mostcomment" | "leastcomment" | "priority";
  /** ID of the milestone */
  milestone?: number;
  /** Label IDs */
  labels?: number[];
  /** Filter by pull request author */
  poster?: string;
  /** Filter by target base branch of the pull request */
  base?: string;
  /** Filter by head branch of the pull request */
  head?: string;
};
/**
 * List a repo's pull requests
 *
 * `GET /repos/{owner}/{repo}/pulls` (a page: await it for one, iterate it for all)
 */
export function repoListPullRequests(transport: Transport, owner: string | number, repo: string | number, query?: RepoListPullRequestsQuery, options?: CallOptions): PageRequest<PullRequest> {
  return pageRequest<PullRequest>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls`, query, options });
}

export type RepoListPullReviewsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List all reviews for a pull request
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/reviews` (a page: await it for one, iterate it for all)
 */
export function repoListPullReviews(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: RepoListPullReviewsQuery, options?: CallOptions): PageRequest<PullReview> {
  return pageRequest<PullReview>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews`, query, options });
}

export type RepoListPushMirrorsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get all push mirrors of the repository
 *
 * `GET /repos/{owner}/{repo}/push_mirrors` (a page: await it for one, iterate it for all)
 */
export function repoListPushMirrors(transport: Transport, owner: string | number, repo: string | number, query?: RepoListPushMirrorsQuery, options?: CallOptions): PageRequest<PushMirror> {
  return pageRequest<PushMirror>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/push_mirrors`, query, options });
}

/**
 * List release's attachments
 *
 * `GET /repos/{owner}/{repo}/releases/{id}/assets`
 */
export function repoListReleaseAttachments(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<Attachment[]> {
  return transport.json<Attachment[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases/${segment(id)}/assets`, options });
}

export type RepoListReleasesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** filter (exclude / include) drafts, if you dont have repo write access none will show */
  draft?: boolean;
  /** filter (exclude / include) pre-releases */
  "pre-release"?: boolean;
  /** Search string */
  q?: string;
};
/**
 * List a repo's releases
 *
 * `GET /repos/{owner}/{repo}/releases` (a page: await it for one, iterate it for all)
 */
export function repoListReleases(transport: Transport, owner: string | number, repo: string | number, query?: RepoListReleasesQuery, options?: CallOptions): PageRequest<Release> {
  return pageRequest<Release>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/releases`, query, options });
}

export type RepoListStargazersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repo's stargazers
 *
 * `GET /repos/{owner}/{repo}/stargazers` (a page: await it for one, iterate it for all)
 */
export function repoListStargazers(transport: Transport, owner: string | number, repo: string | number, query?: RepoListStargazersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/stargazers`, query, options });
}

export type RepoListStatusesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** type of sort */
  sort?: "oldest" | "recentupdate" | "leastupdate" | "leastindex" | "highestindex";
  /** type of state */
  state?: "pending" | "success" | "error" | "failure" | "warning";
};
/**
 * Get a commit's statuses
 *
 * `GET /repos/{owner}/{repo}/statuses/{sha}` (a page: await it for one, iterate it for all)
 */
export function repoListStatuses(transport: Transport, owner: string | number, repo: string | number, sha: string | number, query?: RepoListStatusesQuery, options?: CallOptions): PageRequest<CommitStatus> {
  return pageRequest<CommitStatus>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/statuses/${segment(sha)}`, query, options });
}

export type RepoListStatusesByRefQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** type of sort */
  sort?: "oldest" | "recentupdate" | "leastupdate" | "leastindex" | "highestindex";
  /** type of state */
  state?: "pending" | "success" | "error" | "failure" | "warning";
};
/**
 * Get a commit's statuses, by branch/tag/commit reference
 *
 * `GET /repos/{owner}/{repo}/commits/{ref}/statuses` (a page: await it for one, iterate it for all)
 */
export function repoListStatusesByRef(transport: Transport, owner: string | number, repo: string | number, ref: string | number, query?: RepoListStatusesByRefQuery, options?: CallOptions): PageRequest<CommitStatus> {
  return pageRequest<CommitStatus>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/commits/${segment(ref)}/statuses`, query, options });
}

export type RepoListSubscribersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repo's watchers
 *
 * `GET /repos/{owner}/{repo}/subscribers` (a page: await it for one, iterate it for all)
 */
export function repoListSubscribers(transport: Transport, owner: string | number, repo: string | number, query?: RepoListSubscribersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/subscribers`, query, options });
}

/**
 * List tag protections for a repository
 *
 * `GET /repos/{owner}/{repo}/tag_protections`
 */
export function repoListTagProtection(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<TagProtection[]> {
  return transport.json<TagProtection[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/tag_protections`, options });
}

export type RepoListTagsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a repository's tags
 *
 * `GET /repos/{owner}/{repo}/tags` (a page: await it for one, iterate it for all)
 */
export function repoListTags(transport: Transport, owner: string | number, repo: string | number, query?: RepoListTagsQuery, options?: CallOptions): PageRequest<Tag> {
  return pageRequest<Tag>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/tags`, query, options });
}

/**
 * List a repository's teams
 *
 * `GET /repos/{owner}/{repo}/teams`
 */
export function repoListTeams(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Team[]> {
  return transport.json<Team[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/teams`, options });
}

export type RepoListTopicsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get list of topics that a repository has
 *
 * `GET /repos/{owner}/{repo}/topics`
 */
export function repoListTopics(transport: Transport, owner: string | number, repo: string | number, query?: RepoListTopicsQuery, options?: CallOptions): Promise<TopicName> {
  return transport.json<TopicName>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/topics`, query, options });
}

/**
 * Merge a pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/merge`
 */
export function repoMergePullRequest(transport: Transport, owner: string | number, repo: string | number, index: string | number, body: MergePullRequestOption, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/merge`, json: body, options });
}

/**
 * Migrate a remote git repository
 *
 * `POST /repos/migrate`
 */
export function repoMigrate(transport: Transport, body: MigrateRepoOptions, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/migrate`, json: body, options });
}

/**
 * Sync a mirrored repository
 *
 * `POST /repos/{owner}/{repo}/mirror-sync`
 */
export function repoMirrorSync(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/mirror-sync`, options });
}

/**
 * Returns if new Issue Pins are allowed
 *
 * `GET /repos/{owner}/{repo}/new_pin_allowed`
 */
export function repoNewPinAllowed(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<NewIssuePinsAllowed> {
  return transport.json<NewIssuePinsAllowed>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/new_pin_allowed`, options });
}

/**
 * Check if a pull request has been merged
 *
 * `GET /repos/{owner}/{repo}/pulls/{index}/merge`
 */
export function repoPullRequestIsMerged(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/merge`, options });
}

/**
 * Sync all push mirrored repository
 *
 * `POST /repos/{owner}/{repo}/push_mirrors-sync`
 */
export function repoPushMirrorSync(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/push_mirrors-sync`, options });
}

/**
 * Deliver a delivery again (same delivery id and body), as a new attempt
 *
 * `POST /repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts`
 */
export function repoRedeliverHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<Record<string, unknown>> {
  return transport.json<Record<string, unknown>>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}/deliveries/${segment(delivery_id)}/attempts`, options });
}

/**
 * Removes a note corresponding to a single commit from a repository
 *
 * `DELETE /repos/{owner}/{repo}/git/notes/{sha}`
 */
export function repoRemoveNote(transport: Transport, owner: string | number, repo: string | number, sha: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/git/notes/${segment(sha)}`, options });
}

/**
 * Replace all flags of a repository
 *
 * `PUT /repos/{owner}/{repo}/flags`
 */
export function repoReplaceAllFlags(transport: Transport, owner: string | number, repo: string | number, body: ReplaceFlagsOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/flags`, json: body, options });
}

/**
 * Rerun a completed workflow job and its dependent jobs
 *
 * `POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun`
 */
export function repoRerunActionJob(transport: Transport, owner: string | number, repo: string | number, job_id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/actions/jobs/${segment(job_id)}/rerun`, options });
}

/**
 * Resolve a pull review comment
 *
 * `POST /repos/{owner}/{repo}/pulls/comments/{id}/resolve`
 */
export function repoResolvePullReviewComment(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/comments/${segment(id)}/resolve`, options });
}

export type RepoSearchQuery = {
  /** keyword */
  q?: string;
  /** Limit search to repositories with keyword as topic */
  topic?: boolean;
  /** include search of keyword within repository description */
  includeDesc?: boolean;
  /** search only for repos that the user with the given id owns or contributes to */
  uid?: number;
  /** repo owner to prioritize in the results */
  priority_owner_id?: number;
  /** search only for repos that belong to the given team id */
  team_id?: number;
  /** search only for repos that the user with the given id has starred */
  starredBy?: number;
  /** include private repositories this user has access to (defaults to true) */
  private?: boolean;
  /** show only public, private or all repositories (defaults to all) */
  is_private?: boolean;
  /** show only template, non-template or all repositories (defaults to all) */
  template?: boolean;
  /** show only archived, non-archived or all repositories (defaults to all) */
  archived?: boolean;
  /** type of repository to search for. Supported values are "fork", "source", "mirror" and "collaborative" */
  mode?: string;
  /** if `uid` is given, search only for repos that the user owns */
  exclusive?: boolean;
  /** sort repos by attribute. Supported values are "alpha", "created", "updated", "size", "git_size", "lfs_size", "stars", "forks" and "id". Default is "alpha" */
  sort?: "alpha" | "created" | "updated" | "size" | "git_size" | "lfs_size" | "id" | "stars" | "forks";
  /** sort order, either "asc" (ascending) or "desc" (descending). Default is "asc", ignored if "sort" is not specified. */
  order?: "asc" | "desc";
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Search for repositories
 *
 * `GET /repos/search`
 */
export function repoSearch(transport: Transport, query?: RepoSearchQuery, options?: CallOptions): Promise<SearchResults> {
  return transport.json<SearchResults>({ method: 'GET', path: `/repos/search`, query, options });
}

export type RepoSearchRunJobsQuery = {
  /** a comma separated list of run job labels to search for */
  labels?: string;
};
/**
 * Search for repository's action jobs according filter conditions
 *
 * `GET /repos/{owner}/{repo}/actions/runners/jobs`
 */
export function repoSearchRunJobs(transport: Transport, owner: string | number, repo: string | number, query?: RepoSearchRunJobsQuery, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/actions/runners/jobs`, query, options });
}

/**
 * Set a note corresponding to a single commit from a repository
 *
 * `POST /repos/{owner}/{repo}/git/notes/{sha}`
 */
export function repoSetNote(transport: Transport, owner: string | number, repo: string | number, sha: string | number, body: NoteOptions, options?: CallOptions): Promise<Note> {
  return transport.json<Note>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/git/notes/${segment(sha)}`, json: body, options });
}

/**
 * Get signing-key.gpg for given repository
 *
 * `GET /repos/{owner}/{repo}/signing-key.gpg`
 */
export function repoSigningKey(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/signing-key.gpg`, options });
}

/**
 * Submit a pending review to an pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
 */
export function repoSubmitPullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, body: SubmitPullReviewOptions, options?: CallOptions): Promise<PullReview> {
  return transport.json<PullReview>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}`, json: body, options });
}

/**
 * Syncs a fork branch with the base branch
 *
 * `POST /repos/{owner}/{repo}/sync_fork/{branch}`
 */
export function repoSyncForkBranch(transport: Transport, owner: string | number, repo: string | number, branch: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/sync_fork/${segment(branch)}`, options });
}

/**
 * Gets information about syncing a fork branch with the base branch
 *
 * `GET /repos/{owner}/{repo}/sync_fork/{branch}`
 */
export function repoSyncForkBranchInfo(transport: Transport, owner: string | number, repo: string | number, branch: string | number, options?: CallOptions): Promise<SyncForkInfo> {
  return transport.json<SyncForkInfo>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/sync_fork/${segment(branch)}`, options });
}

/**
 * Syncs the default branch of a fork with the base branch
 *
 * `POST /repos/{owner}/{repo}/sync_fork`
 */
export function repoSyncForkDefault(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/sync_fork`, options });
}

/**
 * Gets information about syncing the fork default branch with the base branch
 *
 * `GET /repos/{owner}/{repo}/sync_fork`
 */
export function repoSyncForkDefaultInfo(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<SyncForkInfo> {
  return transport.json<SyncForkInfo>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/sync_fork`, options });
}

export type RepoTestHookQuery = {
  /** The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload. */
  ref?: string;
};
/**
 * Test a push webhook
 *
 * `POST /repos/{owner}/{repo}/hooks/{id}/tests`
 */
export function repoTestHook(transport: Transport, owner: string | number, repo: string | number, id: string | number, query?: RepoTestHookQuery, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/hooks/${segment(id)}/tests`, query, options });
}

export type RepoTrackedTimesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** optional filter by user (available for issue managers) */
  user?: string;
  /** Only show times updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show times updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
};
/**
 * List a repo's tracked times
 *
 * `GET /repos/{owner}/{repo}/times` (a page: await it for one, iterate it for all)
 */
export function repoTrackedTimes(transport: Transport, owner: string | number, repo: string | number, query?: RepoTrackedTimesQuery, options?: CallOptions): PageRequest<TrackedTime> {
  return pageRequest<TrackedTime>(transport, { method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/times`, query, options });
}

/**
 * Transfer a repo ownership
 *
 * `POST /repos/{owner}/{repo}/transfer`
 */
export function repoTransfer(transport: Transport, owner: string | number, repo: string | number, body: TransferRepoOption, options?: CallOptions): Promise<Repository> {
  return transport.json<Repository>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/transfer`, json: body, options });
}

/**
 * Cancel to dismiss a review for a pull request
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/undismissals`
 */
export function repoUnDismissPullReview(transport: Transport, owner: string | number, repo: string | number, index: string | number, id: string | number, options?: CallOptions): Promise<PullReview> {
  return transport.json<PullReview>({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/reviews/${segment(id)}/undismissals`, options });
}

/**
 * Unresolve a pull review comment
 *
 * `POST /repos/{owner}/{repo}/pulls/comments/{id}/unresolve`
 */
export function repoUnresolvePullReviewComment(transport: Transport, owner: string | number, repo: string | number, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/comments/${segment(id)}/unresolve`, options });
}

/**
 * Update a repository's avatar
 *
 * `POST /repos/{owner}/{repo}/avatar`
 */
export function repoUpdateAvatar(transport: Transport, owner: string | number, repo: string | number, body: UpdateRepoAvatarOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/avatar`, json: body, options });
}

/**
 * Update a branch
 *
 * `PATCH /repos/{owner}/{repo}/branches/{branch}`
 */
export function repoUpdateBranch(transport: Transport, owner: string | number, repo: string | number, branch: string | number, body: UpdateBranchRepoOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PATCH', path: `/repos/${segment(owner)}/${segment(repo)}/branches/${segment(branch)}`, json: body, options });
}

export type RepoUpdateBranchRefBody = {
  new_commit_id: string;
  old_commit_id?: string;
  force?: boolean;
};
/**
 * Move a branch to another commit
 *
 * `PUT /repos/{owner}/{repo}/branches/{branch}`
 */
export function repoUpdateBranchRef(transport: Transport, owner: string | number, repo: string | number, branch: string | number, body: RepoUpdateBranchRefBody, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/branches/${segment(branch)}`, json: body, options });
}

/**
 * Update a file in a repository
 *
 * `PUT /repos/{owner}/{repo}/contents/{filepath}`
 */
export function repoUpdateFile(transport: Transport, owner: string | number, repo: string | number, filepath: string | number, body: UpdateFileOptions, options?: CallOptions): Promise<FileResponse> {
  return transport.json<FileResponse>({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/contents/${filePath(filepath)}`, json: body, options });
}

export type RepoUpdatePullRequestQuery = {
  /** how to update pull request */
  style?: "merge" | "rebase";
};
/**
 * Merge PR's baseBranch into headBranch
 *
 * `POST /repos/{owner}/{repo}/pulls/{index}/update`
 */
export function repoUpdatePullRequest(transport: Transport, owner: string | number, repo: string | number, index: string | number, query?: RepoUpdatePullRequestQuery, options?: CallOptions): Promise<Response> {
  return transport.raw({ method: 'POST', path: `/repos/${segment(owner)}/${segment(repo)}/pulls/${segment(index)}/update`, query, options });
}

/**
 * Replace list of topics for a repository
 *
 * `PUT /repos/{owner}/{repo}/topics`
 */
export function repoUpdateTopics(transport: Transport, owner: string | number, repo: string | number, body: RepoTopicOptions, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/topics`, json: body, options });
}

/**
 * Returns the validation information for a issue config
 *
 * `GET /repos/{owner}/{repo}/issue_config/validate`
 */
export function repoValidateIssueConfig(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<IssueConfigValidation> {
  return transport.json<IssueConfigValidation>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/issue_config/validate`, options });
}

export type TeamSearchQuery = {
  /** keywords to search */
  q?: string;
  /** include search within team description (defaults to true) */
  include_desc?: boolean;
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Search for teams within an organization
 *
 * `GET /orgs/{org}/teams/search`
 */
export function teamSearch(transport: Transport, org: string | number, query?: TeamSearchQuery, options?: CallOptions): Promise<TeamSearchResults> {
  return transport.json<TeamSearchResults>({ method: 'GET', path: `/orgs/${segment(org)}/teams/search`, query, options });
}

export type TopicSearchQuery = {
  /** keyword to search for */
  q?: string;
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Search for topics by keyword
 *
 * `GET /topics/search`
 */
export function topicSearch(transport: Transport, query?: TopicSearchQuery, options?: CallOptions): Promise<{
  topics: TopicResponse[];
}> {
  return transport.json<{
  topics: TopicResponse[];
}>({ method: 'GET', path: `/topics/search`, query, options });
}

/**
 * Unlink a package from a repository
 *
 * `POST /packages/{owner}/{type}/{name}/-/unlink`
 */
export function unlinkPackage(transport: Transport, owner: string | number, type: string | number, name: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/packages/${segment(owner)}/${segment(type)}/${segment(name)}/-/unlink`, options });
}

/**
 * Unlock an issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/lock`
 */
export function unlockIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/lock`, options });
}

/**
 * Unpin an Issue
 *
 * `DELETE /repos/{owner}/{repo}/issues/{index}/pin`
 */
export function unpinIssue(transport: Transport, owner: string | number, repo: string | number, index: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/issues/${segment(index)}/pin`, options });
}

/**
 * Create or Update a secret value in an organization
 *
 * `PUT /orgs/{org}/actions/secrets/{secretname}`
 */
export function updateOrgSecret(transport: Transport, org: string | number, secretname: string | number, body: CreateOrUpdateSecretOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/orgs/${segment(org)}/actions/secrets/${segment(secretname)}`, json: body, options });
}

/**
 * Update variable in organization
 *
 * `PUT /orgs/{org}/actions/variables/{variablename}`
 */
export function updateOrgVariable(transport: Transport, org: string | number, variablename: string | number, body: UpdateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/orgs/${segment(org)}/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Create or Update a secret value in a repository
 *
 * `PUT /repos/{owner}/{repo}/actions/secrets/{secretname}`
 */
export function updateRepoSecret(transport: Transport, owner: string | number, repo: string | number, secretname: string | number, body: CreateOrUpdateSecretOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/actions/secrets/${segment(secretname)}`, json: body, options });
}

/**
 * Update a repo-level variable
 *
 * `PUT /repos/{owner}/{repo}/actions/variables/{variablename}`
 */
export function updateRepoVariable(transport: Transport, owner: string | number, repo: string | number, variablename: string | number, body: UpdateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Create or Update a secret value in a user scope
 *
 * `PUT /user/actions/secrets/{secretname}`
 */
export function updateUserSecret(transport: Transport, secretname: string | number, body: CreateOrUpdateSecretOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/actions/secrets/${segment(secretname)}`, json: body, options });
}

/**
 * Update settings in current user's account
 *
 * `PATCH /user/settings`
 */
export function updateUserSettings(transport: Transport, body: UserSettingsOptions, options?: CallOptions): Promise<UserSettings> {
  return transport.json<UserSettings>({ method: 'PATCH', path: `/user/settings`, json: body, options });
}

/**
 * Update a user-level variable which is created by current doer
 *
 * `PUT /user/actions/variables/{variablename}`
 */
export function updateUserVariable(transport: Transport, variablename: string | number, body: UpdateVariableOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/actions/variables/${segment(variablename)}`, json: body, options });
}

/**
 * Add an email addresses to the current user's account
 *
 * `POST /user/emails`
 */
export function userAddEmail(transport: Transport, body: CreateEmailOption, options?: CallOptions): Promise<Email[]> {
  return transport.json<Email[]>({ method: 'POST', path: `/user/emails`, json: body, options });
}

/**
 * Blocks a user from the doer
 *
 * `PUT /user/block/{username}`
 */
export function userBlockUser(transport: Transport, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/block/${segment(username)}`, options });
}

/**
 * Check if one user is following another user
 *
 * `GET /users/{username}/following/{target}`
 */
export function userCheckFollowing(transport: Transport, username: string | number, target: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/users/${segment(username)}/following/${segment(target)}`, options });
}

export type UserCheckQuotaQuery = {
  /** subject of the quota */
  subject?: string;
};
/**
 * Check if the authenticated user is over quota for a given subject
 *
 * `GET /user/quota/check`
 */
export function userCheckQuota(transport: Transport, query?: UserCheckQuotaQuery, options?: CallOptions): Promise<boolean> {
  return transport.json<boolean>({ method: 'GET', path: `/user/quota/check`, query, options });
}

/**
 * Create a hook
 *
 * `POST /user/hooks`
 */
export function userCreateHook(transport: Transport, body: CreateHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'POST', path: `/user/hooks`, json: body, options });
}

/**
 * Creates a new OAuth2 application
 *
 * `POST /user/applications/oauth2`
 */
export function userCreateOAuth2Application(transport: Transport, body: CreateOAuth2ApplicationOptions, options?: CallOptions): Promise<OAuth2Application> {
  return transport.json<OAuth2Application>({ method: 'POST', path: `/user/applications/oauth2`, json: body, options });
}

/**
 * Generate an access token for the specified user
 *
 * `POST /users/{username}/tokens`
 */
export function userCreateToken(transport: Transport, username: string | number, body: CreateAccessTokenOption, options?: CallOptions): Promise<AccessToken> {
  return transport.json<AccessToken>({ method: 'POST', path: `/users/${segment(username)}/tokens`, json: body, options });
}

/**
 * Follow a remote activitypub account
 *
 * `POST /user/activitypub/follow`
 */
export function userCurrentActivityPubFollow(transport: Transport, body: APRemoteFollowOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/user/activitypub/follow`, json: body, options });
}

/**
 * Check whether a user is followed by the authenticated user
 *
 * `GET /user/following/{username}`
 */
export function userCurrentCheckFollowing(transport: Transport, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/user/following/${segment(username)}`, options });
}

/**
 * Whether the authenticated is starring the repo
 *
 * `GET /user/starred/{owner}/{repo}`
 */
export function userCurrentCheckStarring(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'GET', path: `/user/starred/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Check if the current user is watching a repo
 *
 * `GET /repos/{owner}/{repo}/subscription`
 */
export function userCurrentCheckSubscription(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<WatchInfo> {
  return transport.json<WatchInfo>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/subscription`, options });
}

/**
 * Unfollow a user
 *
 * `DELETE /user/following/{username}`
 */
export function userCurrentDeleteFollow(transport: Transport, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/following/${segment(username)}`, options });
}

/**
 * Remove a GPG public key from current user's account
 *
 * `DELETE /user/gpg_keys/{id}`
 */
export function userCurrentDeleteGPGKey(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/gpg_keys/${segment(id)}`, options });
}

/**
 * Delete a public key
 *
 * `DELETE /user/keys/{id}`
 */
export function userCurrentDeleteKey(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/keys/${segment(id)}`, options });
}

/**
 * Unstar the given repo
 *
 * `DELETE /user/starred/{owner}/{repo}`
 */
export function userCurrentDeleteStar(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/starred/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Unwatch a repo
 *
 * `DELETE /repos/{owner}/{repo}/subscription`
 */
export function userCurrentDeleteSubscription(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/repos/${segment(owner)}/${segment(repo)}/subscription`, options });
}

/**
 * Get a GPG key
 *
 * `GET /user/gpg_keys/{id}`
 */
export function userCurrentGetGPGKey(transport: Transport, id: string | number, options?: CallOptions): Promise<GPGKey> {
  return transport.json<GPGKey>({ method: 'GET', path: `/user/gpg_keys/${segment(id)}`, options });
}

/**
 * Get a public key
 *
 * `GET /user/keys/{id}`
 */
export function userCurrentGetKey(transport: Transport, id: string | number, options?: CallOptions): Promise<PublicKey> {
  return transport.json<PublicKey>({ method: 'GET', path: `/user/keys/${segment(id)}`, options });
}

export type UserCurrentListFollowersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the authenticated user's followers
 *
 * `GET /user/followers` (a page: await it for one, iterate it for all)
 */
export function userCurrentListFollowers(transport: Transport, query?: UserCurrentListFollowersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/user/followers`, query, options });
}

export type UserCurrentListFollowingQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the users that the authenticated user is following
 *
 * `GET /user/following` (a page: await it for one, iterate it for all)
 */
export function userCurrentListFollowing(transport: Transport, query?: UserCurrentListFollowingQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/user/following`, query, options });
}

export type UserCurrentListGPGKeysQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the authenticated user's GPG keys
 *
 * `GET /user/gpg_keys` (a page: await it for one, iterate it for all)
 */
export function userCurrentListGPGKeys(transport: Transport, query?: UserCurrentListGPGKeysQuery, options?: CallOptions): PageRequest<GPGKey> {
  return pageRequest<GPGKey>(transport, { method: 'GET', path: `/user/gpg_keys`, query, options });
}

export type UserCurrentListKeysQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** fingerprint of the key */
  fingerprint?: string;
};
/**
 * List the authenticated user's public keys
 *
 * `GET /user/keys` (a page: await it for one, iterate it for all)
 */
export function userCurrentListKeys(transport: Transport, query?: UserCurrentListKeysQuery, options?: CallOptions): PageRequest<PublicKey> {
  return pageRequest<PublicKey>(transport, { method: 'GET', path: `/user/keys`, query, options });
}

export type UserCurrentListReposQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** order the repositories by */
  order_by?: "name" | "id" | "alphabetically" | "reversealphabetically" | "newest" | "oldest" | "recentupdate" | "leastupdate" | "size" | "reversesize" | "moststars" | "feweststars" | "mostforks" | "fewestforks";
};
/**
 * List the repos that the authenticated user owns
 *
 * `GET /user/repos` (a page: await it for one, iterate it for all)
 */
export function userCurrentListRepos(transport: Transport, query?: UserCurrentListReposQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/user/repos`, query, options });
}

export type UserCurrentListStarredQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * The repos that the authenticated user has starred
 *
 * `GET /user/starred` (a page: await it for one, iterate it for all)
 */
export function userCurrentListStarred(transport: Transport, query?: UserCurrentListStarredQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/user/starred`, query, options });
}

export type UserCurrentListSubscriptionsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List repositories watched by the authenticated user
 *
 * `GET /user/subscriptions` (a page: await it for one, iterate it for all)
 */
export function userCurrentListSubscriptions(transport: Transport, query?: UserCurrentListSubscriptionsQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/user/subscriptions`, query, options });
}

/**
 * Add a GPG public key to current user's account
 *
 * `POST /user/gpg_keys`
 */
export function userCurrentPostGPGKey(transport: Transport, body: CreateGPGKeyOption, options?: CallOptions): Promise<GPGKey> {
  return transport.json<GPGKey>({ method: 'POST', path: `/user/gpg_keys`, json: body, options });
}

/**
 * Create a public key
 *
 * `POST /user/keys`
 */
export function userCurrentPostKey(transport: Transport, body: CreateKeyOption, options?: CallOptions): Promise<PublicKey> {
  return transport.json<PublicKey>({ method: 'POST', path: `/user/keys`, json: body, options });
}

/**
 * Follow a user
 *
 * `PUT /user/following/{username}`
 */
export function userCurrentPutFollow(transport: Transport, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/following/${segment(username)}`, options });
}

/**
 * Star the given repo
 *
 * `PUT /user/starred/{owner}/{repo}`
 */
export function userCurrentPutStar(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/starred/${segment(owner)}/${segment(repo)}`, options });
}

/**
 * Watch a repo
 *
 * `PUT /repos/{owner}/{repo}/subscription`
 */
export function userCurrentPutSubscription(transport: Transport, owner: string | number, repo: string | number, options?: CallOptions): Promise<WatchInfo> {
  return transport.json<WatchInfo>({ method: 'PUT', path: `/repos/${segment(owner)}/${segment(repo)}/subscription`, options });
}

export type UserCurrentTrackedTimesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** Only show times updated after the given time. This is a timestamp in RFC 3339 format */
  since?: string;
  /** Only show times updated before the given time. This is a timestamp in RFC 3339 format */
  before?: string;
};
/**
 * List the current user's tracked times
 *
 * `GET /user/times` (a page: await it for one, iterate it for all)
 */
export function userCurrentTrackedTimes(transport: Transport, query?: UserCurrentTrackedTimesQuery, options?: CallOptions): PageRequest<TrackedTime> {
  return pageRequest<TrackedTime>(transport, { method: 'GET', path: `/user/times`, query, options });
}

/**
 * Delete an access token from the specified user's account
 *
 * `DELETE /users/{username}/tokens/{token}`
 */
export function userDeleteAccessToken(transport: Transport, username: string | number, token: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/users/${segment(username)}/tokens/${segment(token)}`, options });
}

/**
 * Delete avatar of the current user. It will be replaced by a default one
 *
 * `DELETE /user/avatar`
 */
export function userDeleteAvatar(transport: Transport, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/avatar`, options });
}

/**
 * Delete email addresses from the current user's account
 *
 * `DELETE /user/emails`
 */
export function userDeleteEmail(transport: Transport, body: DeleteEmailOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/emails`, json: body, options });
}

/**
 * Delete a hook
 *
 * `DELETE /user/hooks/{id}`
 */
export function userDeleteHook(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/hooks/${segment(id)}`, options });
}

/**
 * Delete an OAuth2 application
 *
 * `DELETE /user/applications/oauth2/{id}`
 */
export function userDeleteOAuth2Application(transport: Transport, id: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'DELETE', path: `/user/applications/oauth2/${segment(id)}`, options });
}

/**
 * Update a hook
 *
 * `PATCH /user/hooks/{id}`
 */
export function userEditHook(transport: Transport, id: string | number, body: EditHookOption, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'PATCH', path: `/user/hooks/${segment(id)}`, json: body, options });
}

/**
 * Get a user
 *
 * `GET /users/{username}`
 */
export function userGet(transport: Transport, username: string | number, options?: CallOptions): Promise<User> {
  return transport.json<User>({ method: 'GET', path: `/users/${segment(username)}`, options });
}

/**
 * Get the authenticated user
 *
 * `GET /user`
 */
export function userGetCurrent(transport: Transport, options?: CallOptions): Promise<User> {
  return transport.json<User>({ method: 'GET', path: `/user`, options });
}

/**
 * Get a user's heatmap
 *
 * `GET /users/{username}/heatmap`
 */
export function userGetHeatmapData(transport: Transport, username: string | number, options?: CallOptions): Promise<UserHeatmapData[]> {
  return transport.json<UserHeatmapData[]>({ method: 'GET', path: `/users/${segment(username)}/heatmap`, options });
}

/**
 * Get a hook
 *
 * `GET /user/hooks/{id}`
 */
export function userGetHook(transport: Transport, id: string | number, options?: CallOptions): Promise<Hook> {
  return transport.json<Hook>({ method: 'GET', path: `/user/hooks/${segment(id)}`, options });
}

/**
 * Get one delivery of a hook, with its request and response
 *
 * `GET /user/hooks/{id}/deliveries/{delivery_id}`
 */
export function userGetHookDelivery(transport: Transport, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<HookDelivery> {
  return transport.json<HookDelivery>({ method: 'GET', path: `/user/hooks/${segment(id)}/deliveries/${segment(delivery_id)}`, options });
}

/**
 * Get an OAuth2 application
 *
 * `GET /user/applications/oauth2/{id}`
 */
export function userGetOAuth2Application(transport: Transport, id: string | number, options?: CallOptions): Promise<OAuth2Application> {
  return transport.json<OAuth2Application>({ method: 'GET', path: `/user/applications/oauth2/${segment(id)}`, options });
}

export type UserGetOAuth2ApplicationsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the authenticated user's oauth2 applications
 *
 * `GET /user/applications/oauth2` (a page: await it for one, iterate it for all)
 */
export function userGetOAuth2Applications(transport: Transport, query?: UserGetOAuth2ApplicationsQuery, options?: CallOptions): PageRequest<OAuth2Application> {
  return pageRequest<OAuth2Application>(transport, { method: 'GET', path: `/user/applications/oauth2`, query, options });
}

/**
 * Get quota information for the authenticated user
 *
 * `GET /user/quota`
 */
export function userGetQuota(transport: Transport, options?: CallOptions): Promise<QuotaInfo> {
  return transport.json<QuotaInfo>({ method: 'GET', path: `/user/quota`, options });
}

/**
 * Get the user's runner registration token
 *
 * `GET /user/actions/runners/registration-token`
 */
export function userGetRunnerRegistrationToken(transport: Transport, options?: CallOptions): Promise<RegistrationToken> {
  return transport.json<RegistrationToken>({ method: 'GET', path: `/user/actions/runners/registration-token`, options });
}

export type UserGetStopWatchesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Get list of all existing stopwatches
 *
 * `GET /user/stopwatches` (a page: await it for one, iterate it for all)
 */
export function userGetStopWatches(transport: Transport, query?: UserGetStopWatchesQuery, options?: CallOptions): PageRequest<StopWatch> {
  return pageRequest<StopWatch>(transport, { method: 'GET', path: `/user/stopwatches`, query, options });
}

export type UserGetTokensQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the specified user's access tokens
 *
 * `GET /users/{username}/tokens` (a page: await it for one, iterate it for all)
 */
export function userGetTokens(transport: Transport, username: string | number, query?: UserGetTokensQuery, options?: CallOptions): PageRequest<AccessToken> {
  return pageRequest<AccessToken>(transport, { method: 'GET', path: `/users/${segment(username)}/tokens`, query, options });
}

export type UserListActionsSecretsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List actions secrets of the current user
 *
 * `GET /user/actions/secrets` (a page: await it for one, iterate it for all)
 */
export function userListActionsSecrets(transport: Transport, query?: UserListActionsSecretsQuery, options?: CallOptions): PageRequest<Secret> {
  return pageRequest<Secret>(transport, { method: 'GET', path: `/user/actions/secrets`, query, options });
}

export type UserListActivityFeedsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** if true, only show actions performed by the requested user */
  "only-performed-by"?: boolean;
  /** the date of the activities to be found */
  date?: string;
};
/**
 * List a user's activity feeds
 *
 * `GET /users/{username}/activities/feeds` (a page: await it for one, iterate it for all)
 */
export function userListActivityFeeds(transport: Transport, username: string | number, query?: UserListActivityFeedsQuery, options?: CallOptions): PageRequest<Activity> {
  return pageRequest<Activity>(transport, { method: 'GET', path: `/users/${segment(username)}/activities/feeds`, query, options });
}

export type UserListBlockedUsersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the authenticated user's blocked users
 *
 * `GET /user/list_blocked` (a page: await it for one, iterate it for all)
 */
export function userListBlockedUsers(transport: Transport, query?: UserListBlockedUsersQuery, options?: CallOptions): PageRequest<BlockedUser> {
  return pageRequest<BlockedUser>(transport, { method: 'GET', path: `/user/list_blocked`, query, options });
}

/**
 * List all email addresses of the current user
 *
 * `GET /user/emails`
 */
export function userListEmails(transport: Transport, options?: CallOptions): Promise<Email[]> {
  return transport.json<Email[]>({ method: 'GET', path: `/user/emails`, options });
}

export type UserListFollowersQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the given user's followers
 *
 * `GET /users/{username}/followers` (a page: await it for one, iterate it for all)
 */
export function userListFollowers(transport: Transport, username: string | number, query?: UserListFollowersQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/users/${segment(username)}/followers`, query, options });
}

export type UserListFollowingQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the users that the given user is following
 *
 * `GET /users/{username}/following` (a page: await it for one, iterate it for all)
 */
export function userListFollowing(transport: Transport, username: string | number, query?: UserListFollowingQuery, options?: CallOptions): PageRequest<User> {
  return pageRequest<User>(transport, { method: 'GET', path: `/users/${segment(username)}/following`, query, options });
}

export type UserListGPGKeysQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the given user's GPG keys
 *
 * `GET /users/{username}/gpg_keys` (a page: await it for one, iterate it for all)
 */
export function userListGPGKeys(transport: Transport, username: string | number, query?: UserListGPGKeysQuery, options?: CallOptions): PageRequest<GPGKey> {
  return pageRequest<GPGKey>(transport, { method: 'GET', path: `/users/${segment(username)}/gpg_keys`, query, options });
}

export type UserListHookDeliveriesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List a hook's deliveries (one per attempt), newest first
 *
 * `GET /user/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
 */
export function userListHookDeliveries(transport: Transport, id: string | number, query?: UserListHookDeliveriesQuery, options?: CallOptions): PageRequest<HookDeliveryItem> {
  return pageRequest<HookDeliveryItem>(transport, { method: 'GET', path: `/user/hooks/${segment(id)}/deliveries`, query, options });
}

export type UserListHooksQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the hooks
 *
 * `GET /user/hooks` (a page: await it for one, iterate it for all)
 */
export function userListHooks(transport: Transport, query?: UserListHooksQuery, options?: CallOptions): PageRequest<Hook> {
  return pageRequest<Hook>(transport, { method: 'GET', path: `/user/hooks`, query, options });
}

export type UserListKeysQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
  /** fingerprint of the key */
  fingerprint?: string;
};
/**
 * List the given user's public keys
 *
 * `GET /users/{username}/keys` (a page: await it for one, iterate it for all)
 */
export function userListKeys(transport: Transport, username: string | number, query?: UserListKeysQuery, options?: CallOptions): PageRequest<PublicKey> {
  return pageRequest<PublicKey>(transport, { method: 'GET', path: `/users/${segment(username)}/keys`, query, options });
}

export type UserListQuotaArtifactsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the artifacts affecting the authenticated user's quota
 *
 * `GET /user/quota/artifacts` (a page: await it for one, iterate it for all)
 */
export function userListQuotaArtifacts(transport: Transport, query?: UserListQuotaArtifactsQuery, options?: CallOptions): PageRequest<QuotaUsedArtifact> {
  return pageRequest<QuotaUsedArtifact>(transport, { method: 'GET', path: `/user/quota/artifacts`, query, options });
}

export type UserListQuotaAttachmentsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the attachments affecting the authenticated user's quota
 *
 * `GET /user/quota/attachments` (a page: await it for one, iterate it for all)
 */
export function userListQuotaAttachments(transport: Transport, query?: UserListQuotaAttachmentsQuery, options?: CallOptions): PageRequest<QuotaUsedAttachment> {
  return pageRequest<QuotaUsedAttachment>(transport, { method: 'GET', path: `/user/quota/attachments`, query, options });
}

export type UserListQuotaPackagesQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the packages affecting the authenticated user's quota
 *
 * `GET /user/quota/packages` (a page: await it for one, iterate it for all)
 */
export function userListQuotaPackages(transport: Transport, query?: UserListQuotaPackagesQuery, options?: CallOptions): PageRequest<QuotaUsedPackage> {
  return pageRequest<QuotaUsedPackage>(transport, { method: 'GET', path: `/user/quota/packages`, query, options });
}

export type UserListReposQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the repos owned by the given user
 *
 * `GET /users/{username}/repos` (a page: await it for one, iterate it for all)
 */
export function userListRepos(transport: Transport, username: string | number, query?: UserListReposQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/users/${segment(username)}/repos`, query, options });
}

export type UserListStarredQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * The repos that the given user has starred
 *
 * `GET /users/{username}/starred` (a page: await it for one, iterate it for all)
 */
export function userListStarred(transport: Transport, username: string | number, query?: UserListStarredQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/users/${segment(username)}/starred`, query, options });
}

export type UserListSubscriptionsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List the repositories watched by a user
 *
 * `GET /users/{username}/subscriptions` (a page: await it for one, iterate it for all)
 */
export function userListSubscriptions(transport: Transport, username: string | number, query?: UserListSubscriptionsQuery, options?: CallOptions): PageRequest<Repository> {
  return pageRequest<Repository>(transport, { method: 'GET', path: `/users/${segment(username)}/subscriptions`, query, options });
}

export type UserListTeamsQuery = {
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * List all the teams a user belongs to
 *
 * `GET /user/teams` (a page: await it for one, iterate it for all)
 */
export function userListTeams(transport: Transport, query?: UserListTeamsQuery, options?: CallOptions): PageRequest<Team> {
  return pageRequest<Team>(transport, { method: 'GET', path: `/user/teams`, query, options });
}

/**
 * Deliver a delivery again (same delivery id and body), as a new attempt
 *
 * `POST /user/hooks/{id}/deliveries/{delivery_id}/attempts`
 */
export function userRedeliverHook(transport: Transport, id: string | number, delivery_id: string | number, options?: CallOptions): Promise<Record<string, unknown>> {
  return transport.json<Record<string, unknown>>({ method: 'POST', path: `/user/hooks/${segment(id)}/deliveries/${segment(delivery_id)}/attempts`, options });
}

export type UserSearchQuery = {
  /** keyword */
  q?: string;
  /** ID of the user to search for */
  uid?: number;
  /** sort order of results */
  sort?: "oldest" | "newest" | "alphabetically" | "reversealphabetically" | "recentupdate" | "leastupdate";
  /** page number of results to return (1-based) */
  page?: number;
  /** page size of results */
  limit?: number;
};
/**
 * Search for users
 *
 * `GET /users/search`
 */
export function userSearch(transport: Transport, query?: UserSearchQuery, options?: CallOptions): Promise<{
  ok: boolean;
  data: User[];
}> {
  return transport.json<{
  ok: boolean;
  data: User[];
}>({ method: 'GET', path: `/users/search`, query, options });
}

export type UserSearchRunJobsQuery = {
  /** a comma separated list of run job labels to search for */
  labels?: string;
};
/**
 * Search for user's action jobs according filter conditions
 *
 * `GET /user/actions/runners/jobs`
 */
export function userSearchRunJobs(transport: Transport, query?: UserSearchRunJobsQuery, options?: CallOptions): Promise<ActionRunJob[]> {
  return transport.json<ActionRunJob[]>({ method: 'GET', path: `/user/actions/runners/jobs`, query, options });
}

/**
 * List a user's tracked times in a repo
 *
 * `GET /repos/{owner}/{repo}/times/{user}`
 */
export function userTrackedTimes(transport: Transport, owner: string | number, repo: string | number, user: string | number, options?: CallOptions): Promise<TrackedTime[]> {
  return transport.json<TrackedTime[]>({ method: 'GET', path: `/repos/${segment(owner)}/${segment(repo)}/times/${segment(user)}`, options });
}

/**
 * Unblocks a user from the doer
 *
 * `PUT /user/unblock/{username}`
 */
export function userUnblockUser(transport: Transport, username: string | number, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'PUT', path: `/user/unblock/${segment(username)}`, options });
}

/**
 * Update avatar of the current user
 *
 * `POST /user/avatar`
 */
export function userUpdateAvatar(transport: Transport, body: UpdateUserAvatarOption, options?: CallOptions): Promise<void> {
  return transport.empty({ method: 'POST', path: `/user/avatar`, json: body, options });
}

/**
 * Update an OAuth2 application, this includes regenerating the client secret
 *
 * `PATCH /user/applications/oauth2/{id}`
 */
export function userUpdateOAuth2Application(transport: Transport, id: string | number, body: CreateOAuth2ApplicationOptions, options?: CallOptions): Promise<OAuth2Application> {
  return transport.json<OAuth2Application>({ method: 'PATCH', path: `/user/applications/oauth2/${segment(id)}`, json: body, options });
}

/**
 * Verify a GPG key
 *
 * `POST /user/gpg_key_verify`
 */
export function userVerifyGPGKey(transport: Transport, body: VerifyGPGKeyOption, options?: CallOptions): Promise<GPGKey> {
  return transport.json<GPGKey>({ method: 'POST', path: `/user/gpg_key_verify`, json: body, options });
}

// The groups of the client: one per tag, methods named by operationId without the tag's prefix.

/** The operations tagged `activitypub`. */
export const activitypub = {
  /**
   * Returns the instance's Actor
   *
   * `GET /activitypub/actor`
   */
  instanceActor: activitypubInstanceActor,
  /**
   * Send to the inbox
   *
   * `POST /activitypub/actor/inbox`
   */
  instanceActorInbox: activitypubInstanceActorInbox,
  /**
   * Display the outbox (always empty)
   *
   * `POST /activitypub/actor/outbox`
   */
  instanceActorOutbox: activitypubInstanceActorOutbox,
  /**
   * Returns the Person actor for a user
   *
   * `GET /activitypub/user-id/{user-id}`
   */
  person: activitypubPerson,
  /**
   * Get a specific activity of the user
   *
   * `GET /activitypub/user-id/{user-id}/activities/{activity-id}/activity`
   */
  personActivity: activitypubPersonActivity,
  /**
   * Get a specific activity object of the user
   *
   * `GET /activitypub/user-id/{user-id}/activities/{activity-id}`
   */
  personActivityNote: activitypubPersonActivityNote,
  /**
   * List the user's recorded activity
   *
   * `GET /activitypub/user-id/{user-id}/outbox`
   */
  personFeed: activitypubPersonFeed,
  /**
   * Send to the inbox
   *
   * `POST /activitypub/user-id/{user-id}/inbox`
   */
  personInbox: activitypubPersonInbox,
  /**
   * Returns the Repository actor for a repo
   *
   * `GET /activitypub/repository-id/{repository-id}`
   */
  repository: activitypubRepository,
  /**
   * Send to the inbox
   *
   * `POST /activitypub/repository-id/{repository-id}/inbox`
   */
  repositoryInbox: activitypubRepositoryInbox,
  /**
   * Display the outbox
   *
   * `POST /activitypub/repository-id/{repository-id}/outbox`
   */
  repositoryOutbox: activitypubRepositoryOutbox,
} as const;

/** The operations tagged `admin`. */
export const admin = {
  /**
   * Adds a rule to a quota group
   *
   * `PUT /admin/quota/groups/{quotagroup}/rules/{quotarule}`
   */
  addRuleToQuotaGroup: adminAddRuleToQuotaGroup,
  /**
   * Add a user to a quota group
   *
   * `PUT /admin/quota/groups/{quotagroup}/users/{username}`
   */
  addUserToQuotaGroup: adminAddUserToQuotaGroup,
  /**
   * Adopt unadopted files as a repository
   *
   * `POST /admin/unadopted/{owner}/{repo}`
   */
  adoptRepository: adminAdoptRepository,
  /**
   * Create a hook
   *
   * `POST /admin/hooks`
   */
  createHook: adminCreateHook,
  /**
   * Create an organization
   *
   * `POST /admin/users/{username}/orgs`
   */
  createOrg: adminCreateOrg,
  /**
   * Add an SSH public key to user's account
   *
   * `POST /admin/users/{username}/keys`
   */
  createPublicKey: adminCreatePublicKey,
  /**
   * Create a new quota group
   *
   * `POST /admin/quota/groups`
   */
  createQuotaGroup: adminCreateQuotaGroup,
  /**
   * Create a new quota rule
   *
   * `POST /admin/quota/rules`
   */
  createQuotaRule: adminCreateQuotaRule,
  /**
   * Create a repository on behalf of a user
   *
   * `POST /admin/users/{username}/repos`
   */
  createRepo: adminCreateRepo,
  /**
   * Create a user
   *
   * `POST /admin/users`
   */
  createUser: adminCreateUser,
  /**
   * Generate an access token for the specified user
   *
   * `POST /admin/users/{username}/tokens`
   */
  createUserAccessToken: adminCreateUserAccessToken,
  /**
   * List cron tasks
   *
   * `GET /admin/cron` (a page: await it for one, iterate it for all)
   */
  cronList: adminCronList,
  /**
   * Run cron task
   *
   * `POST /admin/cron/{task}`
   */
  cronRun: adminCronRun,
  /**
   * Deletes a quota rule
   *
   * `DELETE /admin/quota/rules/{quotarule}`
   */
  dEleteQuotaRule: adminDEleteQuotaRule,
  /**
   * Delete a hook
   *
   * `DELETE /admin/hooks/{id}`
   */
  deleteHook: adminDeleteHook,
  /**
   * Delete a quota group
   *
   * `DELETE /admin/quota/groups/{quotagroup}`
   */
  deleteQuotaGroup: adminDeleteQuotaGroup,
  /**
   * Delete unadopted files
   *
   * `DELETE /admin/unadopted/{owner}/{repo}`
   */
  deleteUnadoptedRepository: adminDeleteUnadoptedRepository,
  /**
   * Delete user account
   *
   * `DELETE /admin/users/{username}`
   */
  deleteUser: adminDeleteUser,
  /**
   * Delete an access token from the specified user's account
   *
   * `DELETE /admin/users/{username}/tokens/{token}`
   */
  deleteUserAccessToken: adminDeleteUserAccessToken,
  /**
   * Delete email addresses from a user's account
   *
   * `DELETE /admin/users/{username}/emails`
   */
  deleteUserEmails: adminDeleteUserEmails,
  /**
   * Remove a public key from user's account
   *
   * `DELETE /admin/users/{username}/keys/{id}`
   */
  deleteUserPublicKey: adminDeleteUserPublicKey,
  /**
   * Update a hook
   *
   * `PATCH /admin/hooks/{id}`
   */
  editHook: adminEditHook,
  /**
   * Change an existing quota rule
   *
   * `PATCH /admin/quota/rules/{quotarule}`
   */
  editQuotaRule: adminEditQuotaRule,
  /**
   * Edit an existing user
   *
   * `PATCH /admin/users/{username}`
   */
  editUser: adminEditUser,
  /**
   * Get action run jobs
   *
   * `GET /admin/actions/runners/jobs`
   */
  getActionRunJobs: adminGetActionRunJobs,
  /**
   * List all users' email addresses
   *
   * `GET /admin/emails` (a page: await it for one, iterate it for all)
   */
  getAllEmails: adminGetAllEmails,
  /**
   * List all organizations
   *
   * `GET /admin/orgs` (a page: await it for one, iterate it for all)
   */
  getAllOrgs: adminGetAllOrgs,
  /**
   * Get a hook
   *
   * `GET /admin/hooks/{id}`
   */
  getHook: adminGetHook,
  /**
   * Get one delivery of a hook, with its request and response
   *
   * `GET /admin/hooks/{id}/deliveries/{delivery_id}`
   */
  getHookDelivery: adminGetHookDelivery,
  /**
   * Get information about the quota group
   *
   * `GET /admin/quota/groups/{quotagroup}`
   */
  getQuotaGroup: adminGetQuotaGroup,
  /**
   * Get information about a quota rule
   *
   * `GET /admin/quota/rules/{quotarule}`
   */
  getQuotaRule: adminGetQuotaRule,
  /**
   * Get a runner registration token for registering global runners
   *
   * `GET /admin/runners/registration-token`
   */
  getRegistrationToken: adminGetRegistrationToken,
  /**
   * Get a runner registration token for registering global runners
   *
   * `GET /admin/actions/runners/registration-token`
   */
  getRunnerRegistrationToken: adminGetRunnerRegistrationToken,
  /**
   * Get the user's quota info
   *
   * `GET /admin/users/{username}/quota`
   */
  getUserQuota: adminGetUserQuota,
  /**
   * List a hook's deliveries (one per attempt), newest first
   *
   * `GET /admin/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
   */
  listHookDeliveries: adminListHookDeliveries,
  /**
   * List the hooks
   *
   * `GET /admin/hooks` (a page: await it for one, iterate it for all)
   */
  listHooks: adminListHooks,
  /**
   * List the available quota groups
   *
   * `GET /admin/quota/groups`
   */
  listQuotaGroups: adminListQuotaGroups,
  /**
   * List the available quota rules
   *
   * `GET /admin/quota/rules`
   */
  listQuotaRules: adminListQuotaRules,
  /**
   * List the specified user's access tokens
   *
   * `GET /admin/users/{username}/tokens` (a page: await it for one, iterate it for all)
   */
  listUserAccessTokens: adminListUserAccessTokens,
  /**
   * List all email addresses for a user
   *
   * `GET /admin/users/{username}/emails`
   */
  listUserEmails: adminListUserEmails,
  /**
   * List users in a quota group
   *
   * `GET /admin/quota/groups/{quotagroup}/users`
   */
  listUsersInQuotaGroup: adminListUsersInQuotaGroup,
  /**
   * Deliver a delivery again (same delivery id and body), as a new attempt
   *
   * `POST /admin/hooks/{id}/deliveries/{delivery_id}/attempts`
   */
  redeliverHook: adminRedeliverHook,
  /**
   * Removes a rule from a quota group
   *
   * `DELETE /admin/quota/groups/{quotagroup}/rules/{quotarule}`
   */
  removeRuleFromQuotaGroup: adminRemoveRuleFromQuotaGroup,
  /**
   * Remove a user from a quota group
   *
   * `DELETE /admin/quota/groups/{quotagroup}/users/{username}`
   */
  removeUserFromQuotaGroup: adminRemoveUserFromQuotaGroup,
  /**
   * Rename a user
   *
   * `POST /admin/users/{username}/rename`
   */
  renameUser: adminRenameUser,
  /**
   * Search users' email addresses
   *
   * `GET /admin/emails/search` (a page: await it for one, iterate it for all)
   */
  searchEmails: adminSearchEmails,
  /**
   * Search action jobs according to filter conditions
   *
   * `GET /admin/runners/jobs`
   */
  searchRunJobs: adminSearchRunJobs,
  /**
   * Search users according filter conditions
   *
   * `GET /admin/users` (a page: await it for one, iterate it for all)
   */
  searchUsers: adminSearchUsers,
  /**
   * Set the user's quota groups to a given list.
   *
   * `POST /admin/users/{username}/quota/groups`
   */
  setUserQuotaGroups: adminSetUserQuotaGroups,
  /**
   * List unadopted repositories
   *
   * `GET /admin/unadopted` (a page: await it for one, iterate it for all)
   */
  unadoptedList: adminUnadoptedList,
  /**
   * Delete a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository
   *
   * `DELETE /admin/actions/runners/{runner_id}`
   */
  deleteAdminRunner: deleteAdminRunner,
  /**
   * Get a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository
   *
   * `GET /admin/actions/runners/{runner_id}`
   */
  getAdminRunner: getAdminRunner,
  /**
   * Get all runners, no matter whether they are global runners or scoped to an organization, user, or repository
   *
   * `GET /admin/actions/runners` (a page: await it for one, iterate it for all)
   */
  getAdminRunners: getAdminRunners,
  /**
   * Register a new global runner
   *
   * `POST /admin/actions/runners`
   */
  registerAdminRunner: registerAdminRunner,
} as const;

/** The operations tagged `issue`. */
export const issues = {
  /**
   * Add a label to an issue
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/labels`
   */
  addLabel: issueAddLabel,
  /**
   * Subscribe user to issue
   *
   * `PUT /repos/{owner}/{repo}/issues/{index}/subscriptions/{user}`
   */
  addSubscription: issueAddSubscription,
  /**
   * Add tracked time to a issue
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/times`
   */
  addTime: issueAddTime,
  /**
   * Check if user is subscribed to an issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/subscriptions/check`
   */
  checkSubscription: issueCheckSubscription,
  /**
   * Remove all labels from an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/labels`
   */
  clearLabels: issueClearLabels,
  /**
   * Add a comment to an issue
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/comments`
   */
  createComment: issueCreateComment,
  /**
   * Create an issue. If using deadline only the date will be taken into account, and time of day ignored.
   *
   * `POST /repos/{owner}/{repo}/issues`
   */
  createIssue: issueCreateIssue,
  /**
   * Create an issue attachment
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/assets`
   */
  createIssueAttachment: issueCreateIssueAttachment,
  /**
   * Block the issue given in the body by the issue in path
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/blocks`
   */
  createIssueBlocking: issueCreateIssueBlocking,
  /**
   * Create a comment attachment
   *
   * `POST /repos/{owner}/{repo}/issues/comments/{id}/assets`
   */
  createIssueCommentAttachment: issueCreateIssueCommentAttachment,
  /**
   * Make the issue in the url depend on the issue in the form.
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/dependencies`
   */
  createIssueDependencies: issueCreateIssueDependencies,
  /**
   * Create a label
   *
   * `POST /repos/{owner}/{repo}/labels`
   */
  createLabel: issueCreateLabel,
  /**
   * Create a milestone
   *
   * `POST /repos/{owner}/{repo}/milestones`
   */
  createMilestone: issueCreateMilestone,
  /**
   * Delete an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}`
   */
  delete: issueDelete,
  /**
   * Delete a comment
   *
   * `DELETE /repos/{owner}/{repo}/issues/comments/{id}`
   */
  deleteComment: issueDeleteComment,
  /**
   * Delete a comment
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/comments/{id}`
   */
  deleteCommentDeprecated: issueDeleteCommentDeprecated,
  /**
   * Remove a reaction from a comment of an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/comments/{id}/reactions`
   */
  deleteCommentReaction: issueDeleteCommentReaction,
  /**
   * Delete an issue attachment
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
   */
  deleteIssueAttachment: issueDeleteIssueAttachment,
  /**
   * Delete a comment attachment
   *
   * `DELETE /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
   */
  deleteIssueCommentAttachment: issueDeleteIssueCommentAttachment,
  /**
   * Remove a reaction from an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/reactions`
   */
  deleteIssueReaction: issueDeleteIssueReaction,
  /**
   * Delete a label
   *
   * `DELETE /repos/{owner}/{repo}/labels/{id}`
   */
  deleteLabel: issueDeleteLabel,
  /**
   * Delete a milestone
   *
   * `DELETE /repos/{owner}/{repo}/milestones/{id}`
   */
  deleteMilestone: issueDeleteMilestone,
  /**
   * Delete an issue's existing stopwatch.
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/stopwatch/delete`
   */
  deleteStopWatch: issueDeleteStopWatch,
  /**
   * Unsubscribe user from issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/subscriptions/{user}`
   */
  deleteSubscription: issueDeleteSubscription,
  /**
   * Delete specific tracked time
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/times/{id}`
   */
  deleteTime: issueDeleteTime,
  /**
   * Edit a comment
   *
   * `PATCH /repos/{owner}/{repo}/issues/comments/{id}`
   */
  editComment: issueEditComment,
  /**
   * Edit a comment
   *
   * `PATCH /repos/{owner}/{repo}/issues/{index}/comments/{id}`
   */
  editCommentDeprecated: issueEditCommentDeprecated,
  /**
   * Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.
   *
   * `PATCH /repos/{owner}/{repo}/issues/{index}`
   */
  editIssue: issueEditIssue,
  /**
   * Edit an issue attachment
   *
   * `PATCH /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
   */
  editIssueAttachment: issueEditIssueAttachment,
  /**
   * Edit a comment attachment
   *
   * `PATCH /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
   */
  editIssueCommentAttachment: issueEditIssueCommentAttachment,
  /**
   * Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/deadline`
   */
  editIssueDeadline: issueEditIssueDeadline,
  /**
   * Update a label
   *
   * `PATCH /repos/{owner}/{repo}/labels/{id}`
   */
  editLabel: issueEditLabel,
  /**
   * Update a milestone
   *
   * `PATCH /repos/{owner}/{repo}/milestones/{id}`
   */
  editMilestone: issueEditMilestone,
  /**
   * Get a comment
   *
   * `GET /repos/{owner}/{repo}/issues/comments/{id}`
   */
  getComment: issueGetComment,
  /**
   * Get a list of reactions from a comment of an issue
   *
   * `GET /repos/{owner}/{repo}/issues/comments/{id}/reactions`
   */
  getCommentReactions: issueGetCommentReactions,
  /**
   * List all comments on an issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/comments`
   */
  getComments: issueGetComments,
  /**
   * List all comments and events on an issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/timeline` (a page: await it for one, iterate it for all)
   */
  getCommentsAndTimeline: issueGetCommentsAndTimeline,
  /**
   * Get an issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}`
   */
  getIssue: issueGetIssue,
  /**
   * Get an issue attachment
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}`
   */
  getIssueAttachment: issueGetIssueAttachment,
  /**
   * Get a comment attachment
   *
   * `GET /repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}`
   */
  getIssueCommentAttachment: issueGetIssueCommentAttachment,
  /**
   * Get a list reactions of an issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/reactions` (a page: await it for one, iterate it for all)
   */
  getIssueReactions: issueGetIssueReactions,
  /**
   * Get a single label
   *
   * `GET /repos/{owner}/{repo}/labels/{id}`
   */
  getLabel: issueGetLabel,
  /**
   * Get an issue's labels
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/labels`
   */
  getLabels: issueGetLabels,
  /**
   * Get a milestone
   *
   * `GET /repos/{owner}/{repo}/milestones/{id}`
   */
  getMilestone: issueGetMilestone,
  /**
   * Get all of a repository's opened milestones
   *
   * `GET /repos/{owner}/{repo}/milestones` (a page: await it for one, iterate it for all)
   */
  getMilestonesList: issueGetMilestonesList,
  /**
   * List all comments in a repository
   *
   * `GET /repos/{owner}/{repo}/issues/comments` (a page: await it for one, iterate it for all)
   */
  getRepoComments: issueGetRepoComments,
  /**
   * List issues that are blocked by this issue
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/blocks`
   */
  listBlocks: issueListBlocks,
  /**
   * List issue's attachments
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/assets`
   */
  listIssueAttachments: issueListIssueAttachments,
  /**
   * List comment's attachments
   *
   * `GET /repos/{owner}/{repo}/issues/comments/{id}/assets`
   */
  listIssueCommentAttachments: issueListIssueCommentAttachments,
  /**
   * List an issue's dependencies, i.e all issues that block this issue.
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/dependencies`
   */
  listIssueDependencies: issueListIssueDependencies,
  /**
   * List a repository's issues
   *
   * `GET /repos/{owner}/{repo}/issues` (a page: await it for one, iterate it for all)
   */
  listIssues: issueListIssues,
  /**
   * Get all of a repository's labels
   *
   * `GET /repos/{owner}/{repo}/labels` (a page: await it for one, iterate it for all)
   */
  listLabels: issueListLabels,
  /**
   * Add a reaction to a comment of an issue
   *
   * `POST /repos/{owner}/{repo}/issues/comments/{id}/reactions`
   */
  postCommentReaction: issuePostCommentReaction,
  /**
   * Add a reaction to an issue
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/reactions`
   */
  postIssueReaction: issuePostIssueReaction,
  /**
   * Unblock the issue given in the body by the issue in path
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/blocks`
   */
  removeIssueBlocking: issueRemoveIssueBlocking,
  /**
   * Remove an issue dependency
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/dependencies`
   */
  removeIssueDependencies: issueRemoveIssueDependencies,
  /**
   * Remove a label from an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/labels/{identifier}`
   */
  removeLabel: issueRemoveLabel,
  /**
   * Replace an issue's labels
   *
   * `PUT /repos/{owner}/{repo}/issues/{index}/labels`
   */
  replaceLabels: issueReplaceLabels,
  /**
   * Reset a tracked time of an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/times`
   */
  resetTime: issueResetTime,
  /**
   * Search for issues across the repositories that the user has access to
   *
   * `GET /repos/issues/search` (a page: await it for one, iterate it for all)
   */
  searchIssues: issueSearchIssues,
  /**
   * Start stopwatch on an issue.
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/stopwatch/start`
   */
  startStopWatch: issueStartStopWatch,
  /**
   * Stop an issue's existing stopwatch.
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/stopwatch/stop`
   */
  stopStopWatch: issueStopStopWatch,
  /**
   * Get users who subscribed on an issue.
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/subscriptions` (a page: await it for one, iterate it for all)
   */
  subscriptions: issueSubscriptions,
  /**
   * List an issue's tracked times
   *
   * `GET /repos/{owner}/{repo}/issues/{index}/times` (a page: await it for one, iterate it for all)
   */
  trackedTimes: issueTrackedTimes,
  /**
   * Lock an issue
   *
   * `PUT /repos/{owner}/{repo}/issues/{index}/lock`
   */
  lockIssue: lockIssue,
  /**
   * Moves the Pin to the given Position
   *
   * `PATCH /repos/{owner}/{repo}/issues/{index}/pin/{position}`
   */
  moveIssuePin: moveIssuePin,
  /**
   * Pin an Issue
   *
   * `POST /repos/{owner}/{repo}/issues/{index}/pin`
   */
  pinIssue: pinIssue,
  /**
   * Unlock an issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/lock`
   */
  unlockIssue: unlockIssue,
  /**
   * Unpin an Issue
   *
   * `DELETE /repos/{owner}/{repo}/issues/{index}/pin`
   */
  unpinIssue: unpinIssue,
} as const;

/** The operations tagged `miscellaneous`. */
export const misc = {
  /**
   * Get a workflow run associated with a token
   *
   * `GET /actions/run`
   */
  getActionsRun: getActionsRun,
  /**
   * Returns information about a gitignore template
   *
   * `GET /gitignore/templates/{name}`
   */
  getGitignoreTemplateInfo: getGitignoreTemplateInfo,
  /**
   * Returns all labels in a template
   *
   * `GET /label/templates/{name}`
   */
  getLabelTemplateInfo: getLabelTemplateInfo,
  /**
   * Returns information about a license template
   *
   * `GET /licenses/{name}`
   */
  getLicenseTemplateInfo: getLicenseTemplateInfo,
  /**
   * Returns the nodeinfo of the Forgejo application
   *
   * `GET /nodeinfo`
   */
  getNodeInfo: getNodeInfo,
  /**
   * Get default signing-key.ssh
   *
   * `GET /signing-key.ssh`
   */
  getSSHSigningKey: getSSHSigningKey,
  /**
   * Get default signing-key.gpg
   *
   * `GET /signing-key.gpg`
   */
  getSigningKey: getSigningKey,
  /**
   * Returns the version of the running application
   *
   * `GET /version`
   */
  getVersion: getVersion,
  /**
   * Returns a list of all gitignore templates
   *
   * `GET /gitignore/templates`
   */
  listGitignoresTemplates: listGitignoresTemplates,
  /**
   * Returns a list of all label templates
   *
   * `GET /label/templates`
   */
  listLabelTemplates: listLabelTemplates,
  /**
   * Returns a list of all license templates
   *
   * `GET /licenses`
   */
  listLicenseTemplates: listLicenseTemplates,
  /**
   * Render a markdown document as HTML
   *
   * `POST /markdown`
   */
  renderMarkdown: renderMarkdown,
  /**
   * Render raw markdown as HTML
   *
   * `POST /markdown/raw`
   */
  renderMarkdownRaw: renderMarkdownRaw,
  /**
   * Render a markup document as HTML
   *
   * `POST /markup`
   */
  renderMarkup: renderMarkup,
} as const;

/** The operations tagged `notification`. */
export const notifications = {
  /**
   * List users's notification threads
   *
   * `GET /notifications` (a page: await it for one, iterate it for all)
   */
  getList: notifyGetList,
  /**
   * List users's notification threads on a specific repo
   *
   * `GET /repos/{owner}/{repo}/notifications` (a page: await it for one, iterate it for all)
   */
  getRepoList: notifyGetRepoList,
  /**
   * Get notification thread by ID
   *
   * `GET /notifications/threads/{id}`
   */
  getThread: notifyGetThread,
  /**
   * Check if unread notifications exist
   *
   * `GET /notifications/new`
   */
  newAvailable: notifyNewAvailable,
  /**
   * Mark notification threads as read, pinned or unread
   *
   * `PUT /notifications`
   */
  readList: notifyReadList,
  /**
   * Mark notification threads as read, pinned or unread on a specific repo
   *
   * `PUT /repos/{owner}/{repo}/notifications`
   */
  readRepoList: notifyReadRepoList,
  /**
   * Mark notification thread as read by ID
   *
   * `PATCH /notifications/threads/{id}`
   */
  readThread: notifyReadThread,
} as const;

/** The operations tagged `organization`. */
export const orgs = {
  /**
   * Create a repository in an organization
   *
   * `POST /orgs/{org}/repos`
   */
  createOrgRepo: createOrgRepo,
  /**
   * Create a repository in an organization
   *
   * `POST /org/{org}/repos`
   */
  createOrgRepoDeprecated: createOrgRepoDeprecated,
  /**
   * Create a new variable in organization
   *
   * `POST /orgs/{org}/actions/variables/{variablename}`
   */
  createOrgVariable: createOrgVariable,
  /**
   * Delete a particular runner that belongs to the organization
   *
   * `DELETE /orgs/{org}/actions/runners/{runner_id}`
   */
  deleteOrgRunner: deleteOrgRunner,
  /**
   * Delete a secret in an organization
   *
   * `DELETE /orgs/{org}/actions/secrets/{secretname}`
   */
  deleteOrgSecret: deleteOrgSecret,
  /**
   * Delete organization's variable by name
   *
   * `DELETE /orgs/{org}/actions/variables/{variablename}`
   */
  deleteOrgVariable: deleteOrgVariable,
  /**
   * Get a particular runner that belongs to the organization
   *
   * `GET /orgs/{org}/actions/runners/{runner_id}`
   */
  getOrgRunner: getOrgRunner,
  /**
   * Get the organization's runners
   *
   * `GET /orgs/{org}/actions/runners` (a page: await it for one, iterate it for all)
   */
  getOrgRunners: getOrgRunners,
  /**
   * Get organization's variable by name
   *
   * `GET /orgs/{org}/actions/variables/{variablename}`
   */
  getOrgVariable: getOrgVariable,
  /**
   * List variables of an organization
   *
   * `GET /orgs/{org}/actions/variables` (a page: await it for one, iterate it for all)
   */
  getOrgVariablesList: getOrgVariablesList,
  /**
   * Add a team member
   *
   * `PUT /teams/{id}/members/{username}`
   */
  addTeamMember: orgAddTeamMember,
  /**
   * Add a repository to a team
   *
   * `PUT /teams/{id}/repos/{org}/{repo}`
   */
  addTeamRepository: orgAddTeamRepository,
  /**
   * Blocks a user from the organization
   *
   * `PUT /orgs/{org}/block/{username}`
   */
  blockUser: orgBlockUser,
  /**
   * Check if the organization is over quota for a given subject
   *
   * `GET /orgs/{org}/quota/check`
   */
  checkQuota: orgCheckQuota,
  /**
   * Conceal a user's membership
   *
   * `DELETE /orgs/{org}/public_members/{username}`
   */
  concealMember: orgConcealMember,
  /**
   * Create an organization
   *
   * `POST /orgs`
   */
  create: orgCreate,
  /**
   * Create a hook
   *
   * `POST /orgs/{org}/hooks`
   */
  createHook: orgCreateHook,
  /**
   * Create a label for an organization
   *
   * `POST /orgs/{org}/labels`
   */
  createLabel: orgCreateLabel,
  /**
   * Create a team
   *
   * `POST /orgs/{org}/teams`
   */
  createTeam: orgCreateTeam,
  /**
   * Delete an organization
   *
   * `DELETE /orgs/{org}`
   */
  delete: orgDelete,
  /**
   * Delete Avatar
   *
   * `DELETE /orgs/{org}/avatar`
   */
  deleteAvatar: orgDeleteAvatar,
  /**
   * Delete a hook
   *
   * `DELETE /orgs/{org}/hooks/{id}`
   */
  deleteHook: orgDeleteHook,
  /**
   * Delete a label
   *
   * `DELETE /orgs/{org}/labels/{id}`
   */
  deleteLabel: orgDeleteLabel,
  /**
   * Remove a member from an organization
   *
   * `DELETE /orgs/{org}/members/{username}`
   */
  deleteMember: orgDeleteMember,
  /**
   * Delete a team
   *
   * `DELETE /teams/{id}`
   */
  deleteTeam: orgDeleteTeam,
  /**
   * Edit an organization
   *
   * `PATCH /orgs/{org}`
   */
  edit: orgEdit,
  /**
   * Update a hook
   *
   * `PATCH /orgs/{org}/hooks/{id}`
   */
  editHook: orgEditHook,
  /**
   * Update a label
   *
   * `PATCH /orgs/{org}/labels/{id}`
   */
  editLabel: orgEditLabel,
  /**
   * Edit a team
   *
   * `PATCH /teams/{id}`
   */
  editTeam: orgEditTeam,
  /**
   * Get an organization
   *
   * `GET /orgs/{org}`
   */
  get: orgGet,
  /**
   * List all organizations
   *
   * `GET /orgs` (a page: await it for one, iterate it for all)
   */
  getAll: orgGetAll,
  /**
   * Get a hook
   *
   * `GET /orgs/{org}/hooks/{id}`
   */
  getHook: orgGetHook,
  /**
   * Get one delivery of a hook, with its request and response
   *
   * `GET /orgs/{org}/hooks/{id}/deliveries/{delivery_id}`
   */
  getHookDelivery: orgGetHookDelivery,
  /**
   * Get a single label
   *
   * `GET /orgs/{org}/labels/{id}`
   */
  getLabel: orgGetLabel,
  /**
   * Get quota information for an organization
   *
   * `GET /orgs/{org}/quota`
   */
  getQuota: orgGetQuota,
  /**
   * Get the organization's runner registration token
   *
   * `GET /orgs/{org}/actions/runners/registration-token`
   */
  getRunnerRegistrationToken: orgGetRunnerRegistrationToken,
  /**
   * Get a team
   *
   * `GET /teams/{id}`
   */
  getTeam: orgGetTeam,
  /**
   * Get user permissions in organization
   *
   * `GET /users/{username}/orgs/{org}/permissions`
   */
  getUserPermissions: orgGetUserPermissions,
  /**
   * Check if a user is a member of an organization
   *
   * `GET /orgs/{org}/members/{username}`
   */
  isMember: orgIsMember,
  /**
   * Check if a user is a public member of an organization
   *
   * `GET /orgs/{org}/public_members/{username}`
   */
  isPublicMember: orgIsPublicMember,
  /**
   * List actions secrets of an organization
   *
   * `GET /orgs/{org}/actions/secrets` (a page: await it for one, iterate it for all)
   */
  listActionsSecrets: orgListActionsSecrets,
  /**
   * List an organization's activity feeds
   *
   * `GET /orgs/{org}/activities/feeds` (a page: await it for one, iterate it for all)
   */
  listActivityFeeds: orgListActivityFeeds,
  /**
   * List the organization's blocked users
   *
   * `GET /orgs/{org}/list_blocked` (a page: await it for one, iterate it for all)
   */
  listBlockedUsers: orgListBlockedUsers,
  /**
   * List the current user's organizations
   *
   * `GET /user/orgs` (a page: await it for one, iterate it for all)
   */
  listCurrentUserOrgs: orgListCurrentUserOrgs,
  /**
   * List a hook's deliveries (one per attempt), newest first
   *
   * `GET /orgs/{org}/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
   */
  listHookDeliveries: orgListHookDeliveries,
  /**
   * List the hooks
   *
   * `GET /orgs/{org}/hooks` (a page: await it for one, iterate it for all)
   */
  listHooks: orgListHooks,
  /**
   * List an organization's labels
   *
   * `GET /orgs/{org}/labels` (a page: await it for one, iterate it for all)
   */
  listLabels: orgListLabels,
  /**
   * List an organization's members
   *
   * `GET /orgs/{org}/members` (a page: await it for one, iterate it for all)
   */
  listMembers: orgListMembers,
  /**
   * List an organization's public members
   *
   * `GET /orgs/{org}/public_members` (a page: await it for one, iterate it for all)
   */
  listPublicMembers: orgListPublicMembers,
  /**
   * List the artifacts affecting the organization's quota
   *
   * `GET /orgs/{org}/quota/artifacts` (a page: await it for one, iterate it for all)
   */
  listQuotaArtifacts: orgListQuotaArtifacts,
  /**
   * List the attachments affecting the organization's quota
   *
   * `GET /orgs/{org}/quota/attachments` (a page: await it for one, iterate it for all)
   */
  listQuotaAttachments: orgListQuotaAttachments,
  /**
   * List the packages affecting the organization's quota
   *
   * `GET /orgs/{org}/quota/packages` (a page: await it for one, iterate it for all)
   */
  listQuotaPackages: orgListQuotaPackages,
  /**
   * List an organization's repos
   *
   * `GET /orgs/{org}/repos` (a page: await it for one, iterate it for all)
   */
  listRepos: orgListRepos,
  /**
   * List a team's activity feeds
   *
   * `GET /teams/{id}/activities/feeds` (a page: await it for one, iterate it for all)
   */
  listTeamActivityFeeds: orgListTeamActivityFeeds,
  /**
   * List a particular member of team
   *
   * `GET /teams/{id}/members/{username}`
   */
  listTeamMember: orgListTeamMember,
  /**
   * List a team's members
   *
   * `GET /teams/{id}/members` (a page: await it for one, iterate it for all)
   */
  listTeamMembers: orgListTeamMembers,
  /**
   * List a particular repo of team
   *
   * `GET /teams/{id}/repos/{org}/{repo}`
   */
  listTeamRepo: orgListTeamRepo,
  /**
   * List a team's repos
   *
   * `GET /teams/{id}/repos` (a page: await it for one, iterate it for all)
   */
  listTeamRepos: orgListTeamRepos,
  /**
   * List an organization's teams
   *
   * `GET /orgs/{org}/teams` (a page: await it for one, iterate it for all)
   */
  listTeams: orgListTeams,
  /**
   * List a user's organizations
   *
   * `GET /users/{username}/orgs` (a page: await it for one, iterate it for all)
   */
  listUserOrgs: orgListUserOrgs,
  /**
   * Publicize a user's membership
   *
   * `PUT /orgs/{org}/public_members/{username}`
   */
  publicizeMember: orgPublicizeMember,
  /**
   * Deliver a delivery again (same delivery id and body), as a new attempt
   *
   * `POST /orgs/{org}/hooks/{id}/deliveries/{delivery_id}/attempts`
   */
  redeliverHook: orgRedeliverHook,
  /**
   * Remove a team member
   *
   * `DELETE /teams/{id}/members/{username}`
   */
  removeTeamMember: orgRemoveTeamMember,
  /**
   * Remove a repository from a team
   *
   * `DELETE /teams/{id}/repos/{org}/{repo}`
   */
  removeTeamRepository: orgRemoveTeamRepository,
  /**
   * Search for organization's action jobs according filter conditions
   *
   * `GET /orgs/{org}/actions/runners/jobs`
   */
  searchRunJobs: orgSearchRunJobs,
  /**
   * Unblock a user from the organization
   *
   * `PUT /orgs/{org}/unblock/{username}`
   */
  unblockUser: orgUnblockUser,
  /**
   * Update Avatar
   *
   * `POST /orgs/{org}/avatar`
   */
  updateAvatar: orgUpdateAvatar,
  /**
   * Register a new organization-level runner
   *
   * `POST /orgs/{org}/actions/runners`
   */
  registerOrgRunner: registerOrgRunner,
  /**
   * Rename an organization
   *
   * `POST /orgs/{org}/rename`
   */
  renameOrg: renameOrg,
  /**
   * Search for teams within an organization
   *
   * `GET /orgs/{org}/teams/search`
   */
  teamSearch: teamSearch,
  /**
   * Create or Update a secret value in an organization
   *
   * `PUT /orgs/{org}/actions/secrets/{secretname}`
   */
  updateOrgSecret: updateOrgSecret,
  /**
   * Update variable in organization
   *
   * `PUT /orgs/{org}/actions/variables/{variablename}`
   */
  updateOrgVariable: updateOrgVariable,
} as const;

/** The operations tagged `package`. */
export const packages = {
  /**
   * Delete a package
   *
   * `DELETE /packages/{owner}/{type}/{name}/{version}`
   */
  deletePackage: deletePackage,
  /**
   * Gets a package
   *
   * `GET /packages/{owner}/{type}/{name}/{version}`
   */
  getPackage: getPackage,
  /**
   * Link a package to a repository
   *
   * `POST /packages/{owner}/{type}/{name}/-/link/{repo_name}`
   */
  linkPackage: linkPackage,
  /**
   * Gets all files of a package
   *
   * `GET /packages/{owner}/{type}/{name}/{version}/files`
   */
  listPackageFiles: listPackageFiles,
  /**
   * Gets all packages of an owner
   *
   * `GET /packages/{owner}` (a page: await it for one, iterate it for all)
   */
  listPackages: listPackages,
  /**
   * Unlink a package from a repository
   *
   * `POST /packages/{owner}/{type}/{name}/-/unlink`
   */
  unlinkPackage: unlinkPackage,
} as const;

/** The operations tagged `repository`. */
export const repos = {
  /**
   * Get an action run
   *
   * `GET /repos/{owner}/{repo}/actions/runs/{run_id}`
   */
  actionRun: ActionRun,
  /**
   * Cancel a pending or running workflow run.
   *
   * `POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel`
   */
  cancelActionRun: CancelActionRun,
  /**
   * Mark an artifact for deletion
   *
   * `DELETE /repos/{owner}/{repo}/actions/artifacts/{artifact_id}`
   */
  deleteActionArtifact: DeleteActionArtifact,
  /**
   * Delete a completed workflow run.
   *
   * `DELETE /repos/{owner}/{repo}/actions/runs/{run_id}`
   */
  deleteActionRun: DeleteActionRun,
  /**
   * Dispatches a workflow
   *
   * `POST /repos/{owner}/{repo}/actions/workflows/{workflowfilename}/dispatches`
   */
  dispatchWorkflow: DispatchWorkflow,
  /**
   * Download an artifact
   *
   * `GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip`
   */
  downloadActionArtifact: DownloadActionArtifact,
  /**
   * Get an artifact by ID
   *
   * `GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}`
   */
  getActionArtifact: GetActionArtifact,
  /**
   * Gets the tag object of an annotated tag (not lightweight tags)
   *
   * `GET /repos/{owner}/{repo}/git/tags/{sha}`
   */
  getAnnotatedTag: GetAnnotatedTag,
  /**
   * Gets the blob of a repository.
   *
   * `GET /repos/{owner}/{repo}/git/blobs/{sha}`
   */
  getBlob: GetBlob,
  /**
   * Gets multiple blobs of a repository.
   *
   * `GET /repos/{owner}/{repo}/git/blobs`
   */
  getBlobs: GetBlobs,
  /**
   * Gets the tree of a repository.
   *
   * `GET /repos/{owner}/{repo}/git/trees/{sha}`
   */
  getTree: GetTree,
  /**
   * List a repository's artifacts
   *
   * `GET /repos/{owner}/{repo}/actions/artifacts` (a page: await it for one, iterate it for all)
   */
  listActionArtifacts: ListActionArtifacts,
  /**
   * List artifacts of a workflow run
   *
   * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts` (a page: await it for one, iterate it for all)
   */
  listActionRunArtifacts: ListActionRunArtifacts,
  /**
   * List jobs of a workflow run
   *
   * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs`
   */
  listActionRunJobs: ListActionRunJobs,
  /**
   * List a repository's action runs
   *
   * `GET /repos/{owner}/{repo}/actions/runs`
   */
  listActionRuns: ListActionRuns,
  /**
   * List a repository's action tasks
   *
   * `GET /repos/{owner}/{repo}/actions/tasks`
   */
  listActionTasks: ListActionTasks,
  /**
   * Rerun a finished (succeeded, failed, cancelled or skipped) workflow run.
   *
   * `POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun`
   */
  rerunActionRun: RerunActionRun,
  /**
   * Accept a repo transfer
   *
   * `POST /repos/{owner}/{repo}/transfer/accept`
   */
  acceptRepoTransfer: acceptRepoTransfer,
  /**
   * Create a repository
   *
   * `POST /user/repos`
   */
  createCurrentUserRepo: createCurrentUserRepo,
  /**
   * Fork a repository
   *
   * `POST /repos/{owner}/{repo}/forks`
   */
  createFork: createFork,
  /**
   * Create a repo-level variable
   *
   * `POST /repos/{owner}/{repo}/actions/variables/{variablename}`
   */
  createRepoVariable: createRepoVariable,
  /**
   * Delete a particular runner that belongs to a repository
   *
   * `DELETE /repos/{owner}/{repo}/actions/runners/{runner_id}`
   */
  deleteRepoRunner: deleteRepoRunner,
  /**
   * Delete a secret in a repository
   *
   * `DELETE /repos/{owner}/{repo}/actions/secrets/{secretname}`
   */
  deleteRepoSecret: deleteRepoSecret,
  /**
   * Delete a repo-level variable
   *
   * `DELETE /repos/{owner}/{repo}/actions/variables/{variablename}`
   */
  deleteRepoVariable: deleteRepoVariable,
  /**
   * Create a repository using a template
   *
   * `POST /repos/{owner}/{repo}/generate`
   */
  generateRepo: generateRepo,
  /**
   * Get a particular runner that belongs to the repository
   *
   * `GET /repos/{owner}/{repo}/actions/runners/{runner_id}`
   */
  getRepoRunner: getRepoRunner,
  /**
   * Get runners belonging to the repository
   *
   * `GET /repos/{owner}/{repo}/actions/runners` (a page: await it for one, iterate it for all)
   */
  getRepoRunners: getRepoRunners,
  /**
   * Get a repo-level variable
   *
   * `GET /repos/{owner}/{repo}/actions/variables/{variablename}`
   */
  getRepoVariable: getRepoVariable,
  /**
   * Get repo-level variables list
   *
   * `GET /repos/{owner}/{repo}/actions/variables` (a page: await it for one, iterate it for all)
   */
  getRepoVariablesList: getRepoVariablesList,
  /**
   * List a repository's forks
   *
   * `GET /repos/{owner}/{repo}/forks` (a page: await it for one, iterate it for all)
   */
  listForks: listForks,
  /**
   * Register a new repository-level runner
   *
   * `POST /repos/{owner}/{repo}/actions/runners`
   */
  registerRepoRunner: registerRepoRunner,
  /**
   * Reject a repo transfer
   *
   * `POST /repos/{owner}/{repo}/transfer/reject`
   */
  rejectRepoTransfer: rejectRepoTransfer,
  /**
   * Add a collaborator to a repository
   *
   * `PUT /repos/{owner}/{repo}/collaborators/{collaborator}`
   */
  addCollaborator: repoAddCollaborator,
  /**
   * Add a flag to a repository
   *
   * `PUT /repos/{owner}/{repo}/flags/{flag}`
   */
  addFlag: repoAddFlag,
  /**
   * Set up a new push mirror in a repository
   *
   * `POST /repos/{owner}/{repo}/push_mirrors`
   */
  addPushMirror: repoAddPushMirror,
  /**
   * Add a team to a repository
   *
   * `PUT /repos/{owner}/{repo}/teams/{team}`
   */
  addTeam: repoAddTeam,
  /**
   * Add a topic to a repository
   *
   * `PUT /repos/{owner}/{repo}/topics/{topic}`
   */
  addTopic: repoAddTopic,
  /**
   * Apply diff patch to repository
   *
   * `POST /repos/{owner}/{repo}/diffpatch`
   */
  applyDiffPatch: repoApplyDiffPatch,
  /**
   * Cancel the scheduled auto merge for the given pull request
   *
   * `DELETE /repos/{owner}/{repo}/pulls/{index}/merge`
   */
  cancelScheduledAutoMerge: repoCancelScheduledAutoMerge,
  /**
   * Modify multiple files in a repository
   *
   * `POST /repos/{owner}/{repo}/contents`
   */
  changeFiles: repoChangeFiles,
  /**
   * Check if a user is a collaborator of a repository
   *
   * `GET /repos/{owner}/{repo}/collaborators/{collaborator}`
   */
  checkCollaborator: repoCheckCollaborator,
  /**
   * Check if a repository has a given flag
   *
   * `GET /repos/{owner}/{repo}/flags/{flag}`
   */
  checkFlag: repoCheckFlag,
  /**
   * Check if a team is assigned to a repository
   *
   * `GET /repos/{owner}/{repo}/teams/{team}`
   */
  checkTeam: repoCheckTeam,
  /**
   * Get commit comparison information
   *
   * `GET /repos/{owner}/{repo}/compare/{basehead}`
   */
  compareDiff: repoCompareDiff,
  /**
   * Convert a mirror repo to a normal repo.
   *
   * `POST /repos/{owner}/{repo}/convert`
   */
  convert: repoConvert,
  /**
   * Create a branch
   *
   * `POST /repos/{owner}/{repo}/branches`
   */
  createBranch: repoCreateBranch,
  /**
   * Create a branch protections for a repository
   *
   * `POST /repos/{owner}/{repo}/branch_protections`
   */
  createBranchProtection: repoCreateBranchProtection,
  /**
   * Create a file in a repository
   *
   * `POST /repos/{owner}/{repo}/contents/{filepath}`
   */
  createFile: repoCreateFile,
  /**
   * Create a hook
   *
   * `POST /repos/{owner}/{repo}/hooks`
   */
  createHook: repoCreateHook,
  /**
   * Add a key to a repository
   *
   * `POST /repos/{owner}/{repo}/keys`
   */
  createKey: repoCreateKey,
  /**
   * Create a pull request
   *
   * `POST /repos/{owner}/{repo}/pulls`
   */
  createPullRequest: repoCreatePullRequest,
  /**
   * Create a review to an pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/reviews`
   */
  createPullReview: repoCreatePullReview,
  /**
   * Add a new comment to a pull request review
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments`
   */
  createPullReviewComment: repoCreatePullReviewComment,
  /**
   * Reply to a pull review comment
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/comments/{id}/replies`
   */
  createPullReviewCommentReply: repoCreatePullReviewCommentReply,
  /**
   * create review requests for a pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/requested_reviewers`
   */
  createPullReviewRequests: repoCreatePullReviewRequests,
  /**
   * Create a release
   *
   * `POST /repos/{owner}/{repo}/releases`
   */
  createRelease: repoCreateRelease,
  /**
   * Create a release attachment
   *
   * `POST /repos/{owner}/{repo}/releases/{id}/assets`
   */
  createReleaseAttachment: repoCreateReleaseAttachment,
  /**
   * Create a commit status
   *
   * `POST /repos/{owner}/{repo}/statuses/{sha}`
   */
  createStatus: repoCreateStatus,
  /**
   * Create a new git tag in a repository
   *
   * `POST /repos/{owner}/{repo}/tags`
   */
  createTag: repoCreateTag,
  /**
   * Create a tag protections for a repository
   *
   * `POST /repos/{owner}/{repo}/tag_protections`
   */
  createTagProtection: repoCreateTagProtection,
  /**
   * Create a wiki page
   *
   * `POST /repos/{owner}/{repo}/wiki/new`
   */
  createWikiPage: repoCreateWikiPage,
  /**
   * Delete a repository
   *
   * `DELETE /repos/{owner}/{repo}`
   */
  delete: repoDelete,
  /**
   * Remove all flags from a repository
   *
   * `DELETE /repos/{owner}/{repo}/flags`
   */
  deleteAllFlags: repoDeleteAllFlags,
  /**
   * Delete a repository's avatar
   *
   * `DELETE /repos/{owner}/{repo}/avatar`
   */
  deleteAvatar: repoDeleteAvatar,
  /**
   * Delete a specific branch from a repository
   *
   * `DELETE /repos/{owner}/{repo}/branches/{branch}`
   */
  deleteBranch: repoDeleteBranch,
  /**
   * Delete a specific branch protection for the repository
   *
   * `DELETE /repos/{owner}/{repo}/branch_protections/{name}`
   */
  deleteBranchProtection: repoDeleteBranchProtection,
  /**
   * Delete a collaborator from a repository
   *
   * `DELETE /repos/{owner}/{repo}/collaborators/{collaborator}`
   */
  deleteCollaborator: repoDeleteCollaborator,
  /**
   * Delete a file in a repository
   *
   * `DELETE /repos/{owner}/{repo}/contents/{filepath}`
   */
  deleteFile: repoDeleteFile,
  /**
   * Remove a flag from a repository
   *
   * `DELETE /repos/{owner}/{repo}/flags/{flag}`
   */
  deleteFlag: repoDeleteFlag,
  /**
   * Delete a Git hook in a repository
   *
   * `DELETE /repos/{owner}/{repo}/hooks/git/{id}`
   */
  deleteGitHook: repoDeleteGitHook,
  /**
   * Delete a hook
   *
   * `DELETE /repos/{owner}/{repo}/hooks/{id}`
   */
  deleteHook: repoDeleteHook,
  /**
   * Delete a key from a repository
   *
   * `DELETE /repos/{owner}/{repo}/keys/{id}`
   */
  deleteKey: repoDeleteKey,
  /**
   * Delete a specific review from a pull request
   *
   * `DELETE /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
   */
  deletePullReview: repoDeletePullReview,
  /**
   * Delete a pull review comment
   *
   * `DELETE /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}`
   */
  deletePullReviewComment: repoDeletePullReviewComment,
  /**
   * cancel review requests for a pull request
   *
   * `DELETE /repos/{owner}/{repo}/pulls/{index}/requested_reviewers`
   */
  deletePullReviewRequests: repoDeletePullReviewRequests,
  /**
   * Remove a push mirror from a repository by remoteName
   *
   * `DELETE /repos/{owner}/{repo}/push_mirrors/{name}`
   */
  deletePushMirror: repoDeletePushMirror,
  /**
   * Delete a release
   *
   * `DELETE /repos/{owner}/{repo}/releases/{id}`
   */
  deleteRelease: repoDeleteRelease,
  /**
   * Delete a release attachment
   *
   * `DELETE /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
   */
  deleteReleaseAttachment: repoDeleteReleaseAttachment,
  /**
   * Delete a release by tag name
   *
   * `DELETE /repos/{owner}/{repo}/releases/tags/{tag}`
   */
  deleteReleaseByTag: repoDeleteReleaseByTag,
  /**
   * Delete a repository's tag by name
   *
   * `DELETE /repos/{owner}/{repo}/tags/{tag}`
   */
  deleteTag: repoDeleteTag,
  /**
   * Delete a specific tag protection for the repository
   *
   * `DELETE /repos/{owner}/{repo}/tag_protections/{id}`
   */
  deleteTagProtection: repoDeleteTagProtection,
  /**
   * Delete a team from a repository
   *
   * `DELETE /repos/{owner}/{repo}/teams/{team}`
   */
  deleteTeam: repoDeleteTeam,
  /**
   * Delete a topic from a repository
   *
   * `DELETE /repos/{owner}/{repo}/topics/{topic}`
   */
  deleteTopic: repoDeleteTopic,
  /**
   * Delete a wiki page
   *
   * `DELETE /repos/{owner}/{repo}/wiki/page/{pageName}`
   */
  deleteWikiPage: repoDeleteWikiPage,
  /**
   * Dismiss a review for a pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals`
   */
  dismissPullReview: repoDismissPullReview,
  /**
   * Get a commit's diff or patch
   *
   * `GET /repos/{owner}/{repo}/git/commits/{sha}.{diffType}`
   */
  downloadCommitDiffOrPatch: repoDownloadCommitDiffOrPatch,
  /**
   * Get a pull request diff or patch
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}.{diffType}`
   */
  downloadPullDiffOrPatch: repoDownloadPullDiffOrPatch,
  /**
   * Edit a repository's properties. Only fields that are set will be changed.
   *
   * `PATCH /repos/{owner}/{repo}`
   */
  edit: repoEdit,
  /**
   * Edit a branch protections for a repository. Only fields that are set will be changed
   *
   * `PATCH /repos/{owner}/{repo}/branch_protections/{name}`
   */
  editBranchProtection: repoEditBranchProtection,
  /**
   * Edit a Git hook in a repository
   *
   * `PATCH /repos/{owner}/{repo}/hooks/git/{id}`
   */
  editGitHook: repoEditGitHook,
  /**
   * Update a hook
   *
   * `PATCH /repos/{owner}/{repo}/hooks/{id}`
   */
  editHook: repoEditHook,
  /**
   * Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.
   *
   * `PATCH /repos/{owner}/{repo}/pulls/{index}`
   */
  editPullRequest: repoEditPullRequest,
  /**
   * Update a release
   *
   * `PATCH /repos/{owner}/{repo}/releases/{id}`
   */
  editRelease: repoEditRelease,
  /**
   * Edit a release attachment
   *
   * `PATCH /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
   */
  editReleaseAttachment: repoEditReleaseAttachment,
  /**
   * Edit a tag protections for a repository. Only fields that are set will be changed
   *
   * `PATCH /repos/{owner}/{repo}/tag_protections/{id}`
   */
  editTagProtection: repoEditTagProtection,
  /**
   * Edit a wiki page
   *
   * `PATCH /repos/{owner}/{repo}/wiki/page/{pageName}`
   */
  editWikiPage: repoEditWikiPage,
  /**
   * Get a repository
   *
   * `GET /repos/{owner}/{repo}`
   */
  get: repoGet,
  /**
   * Get a single workflow run job, including its step list
   *
   * `GET /repos/{owner}/{repo}/actions/jobs/{job_id}`
   */
  getActionJob: repoGetActionJob,
  /**
   * Download the plaintext logs of an action job
   *
   * `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`
   */
  getActionJobLogs: repoGetActionJobLogs,
  /**
   * Download a ZIP of plaintext logs for every job in an action run
   *
   * `GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs`
   */
  getActionRunLogs: repoGetActionRunLogs,
  /**
   * Get a list of all commits from a repository
   *
   * `GET /repos/{owner}/{repo}/commits` (a page: await it for one, iterate it for all)
   */
  getAllCommits: repoGetAllCommits,
  /**
   * Get an archive of a repository
   *
   * `GET /repos/{owner}/{repo}/archive/{archive}`
   */
  getArchive: repoGetArchive,
  /**
   * Return all users that have write access and can be assigned to issues
   *
   * `GET /repos/{owner}/{repo}/assignees`
   */
  getAssignees: repoGetAssignees,
  /**
   * Retrieve a specific branch from a repository, including its effective branch protection
   *
   * `GET /repos/{owner}/{repo}/branches/{branch}`
   */
  getBranch: repoGetBranch,
  /**
   * Get a specific branch protection for the repository
   *
   * `GET /repos/{owner}/{repo}/branch_protections/{name}`
   */
  getBranchProtection: repoGetBranchProtection,
  /**
   * Get a repository by id
   *
   * `GET /repositories/{id}`
   */
  getByID: repoGetByID,
  /**
   * Get a commit's combined status, by branch/tag/commit reference
   *
   * `GET /repos/{owner}/{repo}/commits/{ref}/status`
   */
  getCombinedStatusByRef: repoGetCombinedStatusByRef,
  /**
   * Get the pull request of the commit
   *
   * `GET /repos/{owner}/{repo}/commits/{sha}/pull`
   */
  getCommitPullRequest: repoGetCommitPullRequest,
  /**
   * Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir
   *
   * `GET /repos/{owner}/{repo}/contents/{filepath}`
   */
  getContents: repoGetContents,
  /**
   * Gets the metadata of all the entries of the root dir
   *
   * `GET /repos/{owner}/{repo}/contents`
   */
  getContentsList: repoGetContentsList,
  /**
   * Get the EditorConfig definitions of a file in a repository
   *
   * `GET /repos/{owner}/{repo}/editorconfig/{filepath}`
   */
  getEditorConfig: repoGetEditorConfig,
  /**
   * Get a Git hook
   *
   * `GET /repos/{owner}/{repo}/hooks/git/{id}`
   */
  getGitHook: repoGetGitHook,
  /**
   * Get a hook
   *
   * `GET /repos/{owner}/{repo}/hooks/{id}`
   */
  getHook: repoGetHook,
  /**
   * Get one delivery of a hook, with its request and response
   *
   * `GET /repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}`
   */
  getHookDelivery: repoGetHookDelivery,
  /**
   * Returns the issue config for a repo
   *
   * `GET /repos/{owner}/{repo}/issue_config`
   */
  getIssueConfig: repoGetIssueConfig,
  /**
   * Get available issue templates for a repository
   *
   * `GET /repos/{owner}/{repo}/issue_templates`
   */
  getIssueTemplates: repoGetIssueTemplates,
  /**
   * Get a repository's key by id
   *
   * `GET /repos/{owner}/{repo}/keys/{id}`
   */
  getKey: repoGetKey,
  /**
   * Get languages and number of bytes of code written
   *
   * `GET /repos/{owner}/{repo}/languages`
   */
  getLanguages: repoGetLanguages,
  /**
   * Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at
   *
   * `GET /repos/{owner}/{repo}/releases/latest`
   */
  getLatestRelease: repoGetLatestRelease,
  /**
   * Get a note corresponding to a single commit from a repository
   *
   * `GET /repos/{owner}/{repo}/git/notes/{sha}`
   */
  getNote: repoGetNote,
  /**
   * Get a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}`
   */
  getPullRequest: repoGetPullRequest,
  /**
   * Get a pull request by base and head
   *
   * `GET /repos/{owner}/{repo}/pulls/{base}/{head}`
   */
  getPullRequestByBaseHead: repoGetPullRequestByBaseHead,
  /**
   * Get commits for a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/commits` (a page: await it for one, iterate it for all)
   */
  getPullRequestCommits: repoGetPullRequestCommits,
  /**
   * Get changed files for a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/files` (a page: await it for one, iterate it for all)
   */
  getPullRequestFiles: repoGetPullRequestFiles,
  /**
   * Get a specific review for a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
   */
  getPullReview: repoGetPullReview,
  /**
   * Get a pull review comment
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}`
   */
  getPullReviewComment: repoGetPullReviewComment,
  /**
   * Get a specific review for a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments`
   */
  getPullReviewComments: repoGetPullReviewComments,
  /**
   * Get push mirror of the repository by remoteName
   *
   * `GET /repos/{owner}/{repo}/push_mirrors/{name}`
   */
  getPushMirrorByRemoteName: repoGetPushMirrorByRemoteName,
  /**
   * Get a file from a repository
   *
   * `GET /repos/{owner}/{repo}/raw/{filepath}`
   */
  getRawFile: repoGetRawFile,
  /**
   * Get a file or it's LFS object from a repository
   *
   * `GET /repos/{owner}/{repo}/media/{filepath}`
   */
  getRawFileOrLFS: repoGetRawFileOrLFS,
  /**
   * Get a release
   *
   * `GET /repos/{owner}/{repo}/releases/{id}`
   */
  getRelease: repoGetRelease,
  /**
   * Get a release attachment
   *
   * `GET /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}`
   */
  getReleaseAttachment: repoGetReleaseAttachment,
  /**
   * Get a release by tag name
   *
   * `GET /repos/{owner}/{repo}/releases/tags/{tag}`
   */
  getReleaseByTag: repoGetReleaseByTag,
  /**
   * Get repository permissions for a user
   *
   * `GET /repos/{owner}/{repo}/collaborators/{collaborator}/permission`
   */
  getRepoPermissions: repoGetRepoPermissions,
  /**
   * Return all users that can be requested to review in this repo
   *
   * `GET /repos/{owner}/{repo}/reviewers`
   */
  getReviewers: repoGetReviewers,
  /**
   * Get a repository's runner registration token
   *
   * `GET /repos/{owner}/{repo}/actions/runners/registration-token`
   */
  getRunnerRegistrationToken: repoGetRunnerRegistrationToken,
  /**
   * Get a single commit from a repository
   *
   * `GET /repos/{owner}/{repo}/git/commits/{sha}`
   */
  getSingleCommit: repoGetSingleCommit,
  /**
   * Get the tag of a repository by tag name
   *
   * `GET /repos/{owner}/{repo}/tags/{tag}`
   */
  getTag: repoGetTag,
  /**
   * Get a specific tag protection for the repository
   *
   * `GET /repos/{owner}/{repo}/tag_protections/{id}`
   */
  getTagProtection: repoGetTagProtection,
  /**
   * Get a wiki page
   *
   * `GET /repos/{owner}/{repo}/wiki/page/{pageName}`
   */
  getWikiPage: repoGetWikiPage,
  /**
   * Get revisions of a wiki page
   *
   * `GET /repos/{owner}/{repo}/wiki/revisions/{pageName}`
   */
  getWikiPageRevisions: repoGetWikiPageRevisions,
  /**
   * Get all wiki pages
   *
   * `GET /repos/{owner}/{repo}/wiki/pages` (a page: await it for one, iterate it for all)
   */
  getWikiPages: repoGetWikiPages,
  /**
   * List an repo's actions secrets
   *
   * `GET /repos/{owner}/{repo}/actions/secrets` (a page: await it for one, iterate it for all)
   */
  listActionsSecrets: repoListActionsSecrets,
  /**
   * List a repository's activity feeds
   *
   * `GET /repos/{owner}/{repo}/activities/feeds` (a page: await it for one, iterate it for all)
   */
  listActivityFeeds: repoListActivityFeeds,
  /**
   * Get specified ref or filtered repository's refs
   *
   * `GET /repos/{owner}/{repo}/git/refs`
   */
  listAllGitRefs: repoListAllGitRefs,
  /**
   * List branch protections for a repository
   *
   * `GET /repos/{owner}/{repo}/branch_protections`
   */
  listBranchProtection: repoListBranchProtection,
  /**
   * List a repository's branches
   *
   * `GET /repos/{owner}/{repo}/branches` (a page: await it for one, iterate it for all)
   */
  listBranches: repoListBranches,
  /**
   * List a repository's collaborators
   *
   * `GET /repos/{owner}/{repo}/collaborators` (a page: await it for one, iterate it for all)
   */
  listCollaborators: repoListCollaborators,
  /**
   * List a repository's flags
   *
   * `GET /repos/{owner}/{repo}/flags`
   */
  listFlags: repoListFlags,
  /**
   * List the Git hooks in a repository
   *
   * `GET /repos/{owner}/{repo}/hooks/git`
   */
  listGitHooks: repoListGitHooks,
  /**
   * Get specified ref or filtered repository's refs
   *
   * `GET /repos/{owner}/{repo}/git/refs/{ref}`
   */
  listGitRefs: repoListGitRefs,
  /**
   * List a hook's deliveries (one per attempt), newest first
   *
   * `GET /repos/{owner}/{repo}/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
   */
  listHookDeliveries: repoListHookDeliveries,
  /**
   * List the hooks
   *
   * `GET /repos/{owner}/{repo}/hooks` (a page: await it for one, iterate it for all)
   */
  listHooks: repoListHooks,
  /**
   * List a repository's keys
   *
   * `GET /repos/{owner}/{repo}/keys` (a page: await it for one, iterate it for all)
   */
  listKeys: repoListKeys,
  /**
   * List a repo's pinned issues
   *
   * `GET /repos/{owner}/{repo}/issues/pinned`
   */
  listPinnedIssues: repoListPinnedIssues,
  /**
   * List a repo's pinned pull requests
   *
   * `GET /repos/{owner}/{repo}/pulls/pinned`
   */
  listPinnedPullRequests: repoListPinnedPullRequests,
  /**
   * List a repo's pull requests
   *
   * `GET /repos/{owner}/{repo}/pulls` (a page: await it for one, iterate it for all)
   */
  listPullRequests: repoListPullRequests,
  /**
   * List all reviews for a pull request
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/reviews` (a page: await it for one, iterate it for all)
   */
  listPullReviews: repoListPullReviews,
  /**
   * Get all push mirrors of the repository
   *
   * `GET /repos/{owner}/{repo}/push_mirrors` (a page: await it for one, iterate it for all)
   */
  listPushMirrors: repoListPushMirrors,
  /**
   * List release's attachments
   *
   * `GET /repos/{owner}/{repo}/releases/{id}/assets`
   */
  listReleaseAttachments: repoListReleaseAttachments,
  /**
   * List a repo's releases
   *
   * `GET /repos/{owner}/{repo}/releases` (a page: await it for one, iterate it for all)
   */
  listReleases: repoListReleases,
  /**
   * List a repo's stargazers
   *
   * `GET /repos/{owner}/{repo}/stargazers` (a page: await it for one, iterate it for all)
   */
  listStargazers: repoListStargazers,
  /**
   * Get a commit's statuses
   *
   * `GET /repos/{owner}/{repo}/statuses/{sha}` (a page: await it for one, iterate it for all)
   */
  listStatuses: repoListStatuses,
  /**
   * Get a commit's statuses, by branch/tag/commit reference
   *
   * `GET /repos/{owner}/{repo}/commits/{ref}/statuses` (a page: await it for one, iterate it for all)
   */
  listStatusesByRef: repoListStatusesByRef,
  /**
   * List a repo's watchers
   *
   * `GET /repos/{owner}/{repo}/subscribers` (a page: await it for one, iterate it for all)
   */
  listSubscribers: repoListSubscribers,
  /**
   * List tag protections for a repository
   *
   * `GET /repos/{owner}/{repo}/tag_protections`
   */
  listTagProtection: repoListTagProtection,
  /**
   * List a repository's tags
   *
   * `GET /repos/{owner}/{repo}/tags` (a page: await it for one, iterate it for all)
   */
  listTags: repoListTags,
  /**
   * List a repository's teams
   *
   * `GET /repos/{owner}/{repo}/teams`
   */
  listTeams: repoListTeams,
  /**
   * Get list of topics that a repository has
   *
   * `GET /repos/{owner}/{repo}/topics`
   */
  listTopics: repoListTopics,
  /**
   * Merge a pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/merge`
   */
  mergePullRequest: repoMergePullRequest,
  /**
   * Migrate a remote git repository
   *
   * `POST /repos/migrate`
   */
  migrate: repoMigrate,
  /**
   * Sync a mirrored repository
   *
   * `POST /repos/{owner}/{repo}/mirror-sync`
   */
  mirrorSync: repoMirrorSync,
  /**
   * Returns if new Issue Pins are allowed
   *
   * `GET /repos/{owner}/{repo}/new_pin_allowed`
   */
  newPinAllowed: repoNewPinAllowed,
  /**
   * Check if a pull request has been merged
   *
   * `GET /repos/{owner}/{repo}/pulls/{index}/merge`
   */
  pullRequestIsMerged: repoPullRequestIsMerged,
  /**
   * Sync all push mirrored repository
   *
   * `POST /repos/{owner}/{repo}/push_mirrors-sync`
   */
  pushMirrorSync: repoPushMirrorSync,
  /**
   * Deliver a delivery again (same delivery id and body), as a new attempt
   *
   * `POST /repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts`
   */
  redeliverHook: repoRedeliverHook,
  /**
   * Removes a note corresponding to a single commit from a repository
   *
   * `DELETE /repos/{owner}/{repo}/git/notes/{sha}`
   */
  removeNote: repoRemoveNote,
  /**
   * Replace all flags of a repository
   *
   * `PUT /repos/{owner}/{repo}/flags`
   */
  replaceAllFlags: repoReplaceAllFlags,
  /**
   * Rerun a completed workflow job and its dependent jobs
   *
   * `POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun`
   */
  rerunActionJob: repoRerunActionJob,
  /**
   * Resolve a pull review comment
   *
   * `POST /repos/{owner}/{repo}/pulls/comments/{id}/resolve`
   */
  resolvePullReviewComment: repoResolvePullReviewComment,
  /**
   * Search for repositories
   *
   * `GET /repos/search`
   */
  search: repoSearch,
  /**
   * Search for repository's action jobs according filter conditions
   *
   * `GET /repos/{owner}/{repo}/actions/runners/jobs`
   */
  searchRunJobs: repoSearchRunJobs,
  /**
   * Set a note corresponding to a single commit from a repository
   *
   * `POST /repos/{owner}/{repo}/git/notes/{sha}`
   */
  setNote: repoSetNote,
  /**
   * Get signing-key.gpg for given repository
   *
   * `GET /repos/{owner}/{repo}/signing-key.gpg`
   */
  signingKey: repoSigningKey,
  /**
   * Submit a pending review to an pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}`
   */
  submitPullReview: repoSubmitPullReview,
  /**
   * Syncs a fork branch with the base branch
   *
   * `POST /repos/{owner}/{repo}/sync_fork/{branch}`
   */
  syncForkBranch: repoSyncForkBranch,
  /**
   * Gets information about syncing a fork branch with the base branch
   *
   * `GET /repos/{owner}/{repo}/sync_fork/{branch}`
   */
  syncForkBranchInfo: repoSyncForkBranchInfo,
  /**
   * Syncs the default branch of a fork with the base branch
   *
   * `POST /repos/{owner}/{repo}/sync_fork`
   */
  syncForkDefault: repoSyncForkDefault,
  /**
   * Gets information about syncing the fork default branch with the base branch
   *
   * `GET /repos/{owner}/{repo}/sync_fork`
   */
  syncForkDefaultInfo: repoSyncForkDefaultInfo,
  /**
   * Test a push webhook
   *
   * `POST /repos/{owner}/{repo}/hooks/{id}/tests`
   */
  testHook: repoTestHook,
  /**
   * List a repo's tracked times
   *
   * `GET /repos/{owner}/{repo}/times` (a page: await it for one, iterate it for all)
   */
  trackedTimes: repoTrackedTimes,
  /**
   * Transfer a repo ownership
   *
   * `POST /repos/{owner}/{repo}/transfer`
   */
  transfer: repoTransfer,
  /**
   * Cancel to dismiss a review for a pull request
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/undismissals`
   */
  unDismissPullReview: repoUnDismissPullReview,
  /**
   * Unresolve a pull review comment
   *
   * `POST /repos/{owner}/{repo}/pulls/comments/{id}/unresolve`
   */
  unresolvePullReviewComment: repoUnresolvePullReviewComment,
  /**
   * Update a repository's avatar
   *
   * `POST /repos/{owner}/{repo}/avatar`
   */
  updateAvatar: repoUpdateAvatar,
  /**
   * Update a branch
   *
   * `PATCH /repos/{owner}/{repo}/branches/{branch}`
   */
  updateBranch: repoUpdateBranch,
  /**
   * Move a branch to another commit
   *
   * `PUT /repos/{owner}/{repo}/branches/{branch}`
   */
  updateBranchRef: repoUpdateBranchRef,
  /**
   * Update a file in a repository
   *
   * `PUT /repos/{owner}/{repo}/contents/{filepath}`
   */
  updateFile: repoUpdateFile,
  /**
   * Merge PR's baseBranch into headBranch
   *
   * `POST /repos/{owner}/{repo}/pulls/{index}/update`
   */
  updatePullRequest: repoUpdatePullRequest,
  /**
   * Replace list of topics for a repository
   *
   * `PUT /repos/{owner}/{repo}/topics`
   */
  updateTopics: repoUpdateTopics,
  /**
   * Returns the validation information for a issue config
   *
   * `GET /repos/{owner}/{repo}/issue_config/validate`
   */
  validateIssueConfig: repoValidateIssueConfig,
  /**
   * Search for topics by keyword
   *
   * `GET /topics/search`
   */
  topicSearch: topicSearch,
  /**
   * Create or Update a secret value in a repository
   *
   * `PUT /repos/{owner}/{repo}/actions/secrets/{secretname}`
   */
  updateRepoSecret: updateRepoSecret,
  /**
   * Update a repo-level variable
   *
   * `PUT /repos/{owner}/{repo}/actions/variables/{variablename}`
   */
  updateRepoVariable: updateRepoVariable,
  /**
   * Check if the current user is watching a repo
   *
   * `GET /repos/{owner}/{repo}/subscription`
   */
  userCurrentCheckSubscription: userCurrentCheckSubscription,
  /**
   * Unwatch a repo
   *
   * `DELETE /repos/{owner}/{repo}/subscription`
   */
  userCurrentDeleteSubscription: userCurrentDeleteSubscription,
  /**
   * Watch a repo
   *
   * `PUT /repos/{owner}/{repo}/subscription`
   */
  userCurrentPutSubscription: userCurrentPutSubscription,
  /**
   * List a user's tracked times in a repo
   *
   * `GET /repos/{owner}/{repo}/times/{user}`
   */
  userTrackedTimes: userTrackedTimes,
} as const;

/** The operations tagged `settings`. */
export const settings = {
  /**
   * Get instance's global settings for api
   *
   * `GET /settings/api`
   */
  getGeneralAPISettings: getGeneralAPISettings,
  /**
   * Get instance's global settings for Attachment
   *
   * `GET /settings/attachment`
   */
  getGeneralAttachmentSettings: getGeneralAttachmentSettings,
  /**
   * Get instance's global settings for repositories
   *
   * `GET /settings/repository`
   */
  getGeneralRepositorySettings: getGeneralRepositorySettings,
  /**
   * Get instance's global settings for ui
   *
   * `GET /settings/ui`
   */
  getGeneralUISettings: getGeneralUISettings,
} as const;

/** The operations tagged `user`. */
export const users = {
  /**
   * Create a user-level variable
   *
   * `POST /user/actions/variables/{variablename}`
   */
  createUserVariable: createUserVariable,
  /**
   * Delete a particular user-level runner
   *
   * `DELETE /user/actions/runners/{runner_id}`
   */
  deleteUserRunner: deleteUserRunner,
  /**
   * Delete a secret in a user scope
   *
   * `DELETE /user/actions/secrets/{secretname}`
   */
  deleteUserSecret: deleteUserSecret,
  /**
   * Delete a user-level variable which is created by current doer
   *
   * `DELETE /user/actions/variables/{variablename}`
   */
  deleteUserVariable: deleteUserVariable,
  /**
   * Get a particular runner that belongs to the user
   *
   * `GET /user/actions/runners/{runner_id}`
   */
  getUserRunner: getUserRunner,
  /**
   * Get the user's runners
   *
   * `GET /user/actions/runners` (a page: await it for one, iterate it for all)
   */
  getUserRunners: getUserRunners,
  /**
   * Get current user's account settings
   *
   * `GET /user/settings`
   */
  getUserSettings: getUserSettings,
  /**
   * Get a user-level variable which is created by current doer
   *
   * `GET /user/actions/variables/{variablename}`
   */
  getUserVariable: getUserVariable,
  /**
   * Get the user-level list of variables which is created by current doer
   *
   * `GET /user/actions/variables` (a page: await it for one, iterate it for all)
   */
  getUserVariablesList: getUserVariablesList,
  /**
   * Get a Token to verify
   *
   * `GET /user/gpg_key_token`
   */
  getVerificationToken: getVerificationToken,
  /**
   * Register a new user-level runner
   *
   * `POST /user/actions/runners`
   */
  registerUserRunner: registerUserRunner,
  /**
   * Create or Update a secret value in a user scope
   *
   * `PUT /user/actions/secrets/{secretname}`
   */
  updateUserSecret: updateUserSecret,
  /**
   * Update settings in current user's account
   *
   * `PATCH /user/settings`
   */
  updateUserSettings: updateUserSettings,
  /**
   * Update a user-level variable which is created by current doer
   *
   * `PUT /user/actions/variables/{variablename}`
   */
  updateUserVariable: updateUserVariable,
  /**
   * Add an email addresses to the current user's account
   *
   * `POST /user/emails`
   */
  addEmail: userAddEmail,
  /**
   * Blocks a user from the doer
   *
   * `PUT /user/block/{username}`
   */
  blockUser: userBlockUser,
  /**
   * Check if one user is following another user
   *
   * `GET /users/{username}/following/{target}`
   */
  checkFollowing: userCheckFollowing,
  /**
   * Check if the authenticated user is over quota for a given subject
   *
   * `GET /user/quota/check`
   */
  checkQuota: userCheckQuota,
  /**
   * Create a hook
   *
   * `POST /user/hooks`
   */
  createHook: userCreateHook,
  /**
   * Creates a new OAuth2 application
   *
   * `POST /user/applications/oauth2`
   */
  createOAuth2Application: userCreateOAuth2Application,
  /**
   * Generate an access token for the specified user
   *
   * `POST /users/{username}/tokens`
   */
  createToken: userCreateToken,
  /**
   * Follow a remote activitypub account
   *
   * `POST /user/activitypub/follow`
   */
  currentActivityPubFollow: userCurrentActivityPubFollow,
  /**
   * Check whether a user is followed by the authenticated user
   *
   * `GET /user/following/{username}`
   */
  currentCheckFollowing: userCurrentCheckFollowing,
  /**
   * Whether the authenticated is starring the repo
   *
   * `GET /user/starred/{owner}/{repo}`
   */
  currentCheckStarring: userCurrentCheckStarring,
  /**
   * Unfollow a user
   *
   * `DELETE /user/following/{username}`
   */
  currentDeleteFollow: userCurrentDeleteFollow,
  /**
   * Remove a GPG public key from current user's account
   *
   * `DELETE /user/gpg_keys/{id}`
   */
  currentDeleteGPGKey: userCurrentDeleteGPGKey,
  /**
   * Delete a public key
   *
   * `DELETE /user/keys/{id}`
   */
  currentDeleteKey: userCurrentDeleteKey,
  /**
   * Unstar the given repo
   *
   * `DELETE /user/starred/{owner}/{repo}`
   */
  currentDeleteStar: userCurrentDeleteStar,
  /**
   * Get a GPG key
   *
   * `GET /user/gpg_keys/{id}`
   */
  currentGetGPGKey: userCurrentGetGPGKey,
  /**
   * Get a public key
   *
   * `GET /user/keys/{id}`
   */
  currentGetKey: userCurrentGetKey,
  /**
   * List the authenticated user's followers
   *
   * `GET /user/followers` (a page: await it for one, iterate it for all)
   */
  currentListFollowers: userCurrentListFollowers,
  /**
   * List the users that the authenticated user is following
   *
   * `GET /user/following` (a page: await it for one, iterate it for all)
   */
  currentListFollowing: userCurrentListFollowing,
  /**
   * List the authenticated user's GPG keys
   *
   * `GET /user/gpg_keys` (a page: await it for one, iterate it for all)
   */
  currentListGPGKeys: userCurrentListGPGKeys,
  /**
   * List the authenticated user's public keys
   *
   * `GET /user/keys` (a page: await it for one, iterate it for all)
   */
  currentListKeys: userCurrentListKeys,
  /**
   * List the repos that the authenticated user owns
   *
   * `GET /user/repos` (a page: await it for one, iterate it for all)
   */
  currentListRepos: userCurrentListRepos,
  /**
   * The repos that the authenticated user has starred
   *
   * `GET /user/starred` (a page: await it for one, iterate it for all)
   */
  currentListStarred: userCurrentListStarred,
  /**
   * List repositories watched by the authenticated user
   *
   * `GET /user/subscriptions` (a page: await it for one, iterate it for all)
   */
  currentListSubscriptions: userCurrentListSubscriptions,
  /**
   * Add a GPG public key to current user's account
   *
   * `POST /user/gpg_keys`
   */
  currentPostGPGKey: userCurrentPostGPGKey,
  /**
   * Create a public key
   *
   * `POST /user/keys`
   */
  currentPostKey: userCurrentPostKey,
  /**
   * Follow a user
   *
   * `PUT /user/following/{username}`
   */
  currentPutFollow: userCurrentPutFollow,
  /**
   * Star the given repo
   *
   * `PUT /user/starred/{owner}/{repo}`
   */
  currentPutStar: userCurrentPutStar,
  /**
   * List the current user's tracked times
   *
   * `GET /user/times` (a page: await it for one, iterate it for all)
   */
  currentTrackedTimes: userCurrentTrackedTimes,
  /**
   * Delete an access token from the specified user's account
   *
   * `DELETE /users/{username}/tokens/{token}`
   */
  deleteAccessToken: userDeleteAccessToken,
  /**
   * Delete avatar of the current user. It will be replaced by a default one
   *
   * `DELETE /user/avatar`
   */
  deleteAvatar: userDeleteAvatar,
  /**
   * Delete email addresses from the current user's account
   *
   * `DELETE /user/emails`
   */
  deleteEmail: userDeleteEmail,
  /**
   * Delete a hook
   *
   * `DELETE /user/hooks/{id}`
   */
  deleteHook: userDeleteHook,
  /**
   * Delete an OAuth2 application
   *
   * `DELETE /user/applications/oauth2/{id}`
   */
  deleteOAuth2Application: userDeleteOAuth2Application,
  /**
   * Update a hook
   *
   * `PATCH /user/hooks/{id}`
   */
  editHook: userEditHook,
  /**
   * Get a user
   *
   * `GET /users/{username}`
   */
  get: userGet,
  /**
   * Get the authenticated user
   *
   * `GET /user`
   */
  getCurrent: userGetCurrent,
  /**
   * Get a user's heatmap
   *
   * `GET /users/{username}/heatmap`
   */
  getHeatmapData: userGetHeatmapData,
  /**
   * Get a hook
   *
   * `GET /user/hooks/{id}`
   */
  getHook: userGetHook,
  /**
   * Get one delivery of a hook, with its request and response
   *
   * `GET /user/hooks/{id}/deliveries/{delivery_id}`
   */
  getHookDelivery: userGetHookDelivery,
  /**
   * Get an OAuth2 application
   *
   * `GET /user/applications/oauth2/{id}`
   */
  getOAuth2Application: userGetOAuth2Application,
  /**
   * List the authenticated user's oauth2 applications
   *
   * `GET /user/applications/oauth2` (a page: await it for one, iterate it for all)
   */
  getOAuth2Applications: userGetOAuth2Applications,
  /**
   * Get quota information for the authenticated user
   *
   * `GET /user/quota`
   */
  getQuota: userGetQuota,
  /**
   * Get the user's runner registration token
   *
   * `GET /user/actions/runners/registration-token`
   */
  getRunnerRegistrationToken: userGetRunnerRegistrationToken,
  /**
   * Get list of all existing stopwatches
   *
   * `GET /user/stopwatches` (a page: await it for one, iterate it for all)
   */
  getStopWatches: userGetStopWatches,
  /**
   * List the specified user's access tokens
   *
   * `GET /users/{username}/tokens` (a page: await it for one, iterate it for all)
   */
  getTokens: userGetTokens,
  /**
   * List actions secrets of the current user
   *
   * `GET /user/actions/secrets` (a page: await it for one, iterate it for all)
   */
  listActionsSecrets: userListActionsSecrets,
  /**
   * List a user's activity feeds
   *
   * `GET /users/{username}/activities/feeds` (a page: await it for one, iterate it for all)
   */
  listActivityFeeds: userListActivityFeeds,
  /**
   * List the authenticated user's blocked users
   *
   * `GET /user/list_blocked` (a page: await it for one, iterate it for all)
   */
  listBlockedUsers: userListBlockedUsers,
  /**
   * List all email addresses of the current user
   *
   * `GET /user/emails`
   */
  listEmails: userListEmails,
  /**
   * List the given user's followers
   *
   * `GET /users/{username}/followers` (a page: await it for one, iterate it for all)
   */
  listFollowers: userListFollowers,
  /**
   * List the users that the given user is following
   *
   * `GET /users/{username}/following` (a page: await it for one, iterate it for all)
   */
  listFollowing: userListFollowing,
  /**
   * List the given user's GPG keys
   *
   * `GET /users/{username}/gpg_keys` (a page: await it for one, iterate it for all)
   */
  listGPGKeys: userListGPGKeys,
  /**
   * List a hook's deliveries (one per attempt), newest first
   *
   * `GET /user/hooks/{id}/deliveries` (a page: await it for one, iterate it for all)
   */
  listHookDeliveries: userListHookDeliveries,
  /**
   * List the hooks
   *
   * `GET /user/hooks` (a page: await it for one, iterate it for all)
   */
  listHooks: userListHooks,
  /**
   * List the given user's public keys
   *
   * `GET /users/{username}/keys` (a page: await it for one, iterate it for all)
   */
  listKeys: userListKeys,
  /**
   * List the artifacts affecting the authenticated user's quota
   *
   * `GET /user/quota/artifacts` (a page: await it for one, iterate it for all)
   */
  listQuotaArtifacts: userListQuotaArtifacts,
  /**
   * List the attachments affecting the authenticated user's quota
   *
   * `GET /user/quota/attachments` (a page: await it for one, iterate it for all)
   */
  listQuotaAttachments: userListQuotaAttachments,
  /**
   * List the packages affecting the authenticated user's quota
   *
   * `GET /user/quota/packages` (a page: await it for one, iterate it for all)
   */
  listQuotaPackages: userListQuotaPackages,
  /**
   * List the repos owned by the given user
   *
   * `GET /users/{username}/repos` (a page: await it for one, iterate it for all)
   */
  listRepos: userListRepos,
  /**
   * The repos that the given user has starred
   *
   * `GET /users/{username}/starred` (a page: await it for one, iterate it for all)
   */
  listStarred: userListStarred,
  /**
   * List the repositories watched by a user
   *
   * `GET /users/{username}/subscriptions` (a page: await it for one, iterate it for all)
   */
  listSubscriptions: userListSubscriptions,
  /**
   * List all the teams a user belongs to
   *
   * `GET /user/teams` (a page: await it for one, iterate it for all)
   */
  listTeams: userListTeams,
  /**
   * Deliver a delivery again (same delivery id and body), as a new attempt
   *
   * `POST /user/hooks/{id}/deliveries/{delivery_id}/attempts`
   */
  redeliverHook: userRedeliverHook,
  /**
   * Search for users
   *
   * `GET /users/search`
   */
  search: userSearch,
  /**
   * Search for user's action jobs according filter conditions
   *
   * `GET /user/actions/runners/jobs`
   */
  searchRunJobs: userSearchRunJobs,
  /**
   * Unblocks a user from the doer
   *
   * `PUT /user/unblock/{username}`
   */
  unblockUser: userUnblockUser,
  /**
   * Update avatar of the current user
   *
   * `POST /user/avatar`
   */
  updateAvatar: userUpdateAvatar,
  /**
   * Update an OAuth2 application, this includes regenerating the client secret
   *
   * `PATCH /user/applications/oauth2/{id}`
   */
  updateOAuth2Application: userUpdateOAuth2Application,
  /**
   * Verify a GPG key
   *
   * `POST /user/gpg_key_verify`
   */
  verifyGPGKey: userVerifyGPGKey,
} as const;

/** Every group, by its name on the client. */
export const groups = { activitypub, admin, issues, misc, notifications, orgs, packages, repos, settings, users } as const;
