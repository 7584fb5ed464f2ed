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
}

/** The tables the repositories domain owns. */
export interface ReposTables {
  repository: RepositoryTable;
  repo_git_intent: RepoGitIntentTable;
}

export type RepoGitIntent = Selectable<RepoGitIntentTable>;

export type Repository = Selectable<RepositoryTable>;
