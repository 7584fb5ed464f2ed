import type { Generated, Selectable } from 'kysely';

export interface RepositoryTable {
  id: Generated<number>;
  owner_id: number;
  /** Lower-cased name: unique per owner, so names are case-insensitive. */
  lower_name: string;
  name: string;
  description: Generated<string>;
  website: Generated<string>;
  original_url: Generated<string>;
  default_branch: string;
  object_format_name: Generated<string>;
  is_private: Generated<number>;
  is_empty: Generated<number>;
  is_archived: Generated<number>;
  is_mirror: Generated<number>;
  is_fork: Generated<number>;
  fork_id: Generated<number>;
  is_template: Generated<number>;
  num_stars: Generated<number>;
  num_forks: Generated<number>;
  num_watches: Generated<number>;
  num_issues: Generated<number>;
  num_closed_issues: Generated<number>;
  num_pulls: Generated<number>;
  num_closed_pulls: Generated<number>;
  num_releases: Generated<number>;
  /** Bytes of git storage, refreshed after pushes. */
  size: Generated<number>;
  created_unix: number;
  updated_unix: number;
  /** JSON of the enabled units and their settings (see units.ts); '' means the defaults. */
  units: Generated<string>;
  /** JSON array of lower-case topic names. */
  topics: Generated<string>;
  /** The language with most bytes on the default branch, '' when unknown. */
  primary_language: Generated<string>;
  archived_unix: Generated<number>;
  trust_model: Generated<string>;
  /** The template repository this one was generated from (0: none). */
  template_id: Generated<number>;
  /** RepoStatus: 0 ready, 1 being migrated, 2 pending transfer. */
  status: Generated<number>;
  /** The wiki's branch ('' until the wiki is created: the default branch then). */
  wiki_branch: Generated<string>;
  /** 1 once the wiki (`<name>.wiki.git`) has a commit on its branch: kept by whatever writes the wiki. */
  has_wiki_contents: Generated<number>;
  /** The uploaded avatar's file name under `[repo-avatar] PATH` ('' for none). */
  avatar: Generated<string>;
}

/** An account watching a repository (Forgejo's watch modes: 1 normal, 2 don't watch, 3 auto). */
export interface WatchTable {
  id: Generated<number>;
  user_id: number;
  repo_id: number;
  mode: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** One ref a push moved (ids all zeros for a created or deleted ref). */
export interface RepoPushTable {
  id: Generated<number>;
  repo_id: number;
  pusher_id: number;
  ref_name: string;
  old_commit_id: string;
  new_commit_id: string;
  created_unix: number;
}

/** A transfer offered to a recipient who has not accepted it yet. */
export interface RepoTransferTable {
  id: Generated<number>;
  doer_id: number;
  recipient_id: number;
  repo_id: number;
  /** JSON array of team ids, for organization recipients. */
  team_ids: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

/**
 * What a git-and-database change was about to do, recorded before its git work and deleted by the transaction
 * that completes it; a row still here at start-up names an interrupted change (see repos/intents.ts).
 */
export interface RepoGitIntentTable {
  id: Generated<number>;
  op: string;
  /** The storage key: lower-cased owner and repository names. */
  owner_name: string;
  repo_name: string;
  /** The repository row the change concerns, when it has one (0 otherwise). */
  repo_id: Generated<number>;
  created_unix: number;
  /** The process making the change (`host:pid:random`; '' for intents older than leases, which count as expired). */
  owner: Generated<string>;
  /** Until when that process holds it (renewed while the change runs); after that any process may repair it. */
  lease_until_unix: Generated<number>;
}

/** The tables the repositories domain owns. */
export interface ReposTables {
  repository: RepositoryTable;
  repo_git_intent: RepoGitIntentTable;
  watch: WatchTable;
  repo_transfer: RepoTransferTable;
  repo_push: RepoPushTable;
}

export type RepoPush = Selectable<RepoPushTable>;

export type Watch = Selectable<WatchTable>;
export type RepoTransfer = Selectable<RepoTransferTable>;

export type RepoGitIntent = Selectable<RepoGitIntentTable>;

export type Repository = Selectable<RepositoryTable>;

/** `repository.status`, as Forgejo numbers it. */
export const RepoStatus = { Ready: 0, BeingMigrated: 1, PendingTransfer: 2 } as const;

declare module '../storage/schema.js' {
  interface Schema extends ReposTables {}
}
