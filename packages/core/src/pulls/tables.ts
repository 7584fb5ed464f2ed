import type { Generated, Insertable, Selectable } from 'kysely';
import type { Issue } from '../issues/index.js';

/**
 * Forgejo's PullRequestStatus: where a pull request stands against its base after the last check. `ancestor`:
 * the head is already in the base; `empty`: merging would change nothing.
 */
export const PULL_STATUS = { conflict: 0, checking: 1, mergeable: 2, manuallyMerged: 3, error: 4, empty: 5, ancestor: 6 } as const;
export type PullStatus = (typeof PULL_STATUS)[keyof typeof PULL_STATUS];

/** The git side of a pull request; its conversation is the `issue` row (`is_pull`) it belongs to. */
export interface PullRequestTable {
  id: Generated<number>;
  type: Generated<number>;
  status: Generated<number>;
  /** JSON array of paths. */
  conflicted_files: Generated<string>;
  commits_ahead: Generated<number>;
  commits_behind: Generated<number>;
  /** JSON array of paths. */
  changed_protected_files: Generated<string>;
  /** The diff's size from the merge base to the head at the last check. */
  additions: Generated<number>;
  deletions: Generated<number>;
  changed_files: Generated<number>;
  issue_id: number;
  index: number;
  head_repo_id: number;
  base_repo_id: number;
  head_branch: string;
  base_branch: string;
  merge_base: Generated<string>;
  /** The head commit when last checked; `refs/pull/{index}/head` of the base repository holds it too. */
  head_commit_id: Generated<string>;
  /**
   * The tips of `base_branch` (in the base repository) and `head_branch` (in the head repository) now, written in
   * the transaction of each push that moves them (`''`: the branch is gone), so views read no git. `null`: not
   * known (rows from before they were kept, imported or retargeted ones, a repository resynced after an
   * interrupted push): the next view reads them from git and stores them.
   */
  base_branch_commit_id: Generated<string | null>;
  head_branch_commit_id: Generated<string | null>;
  allow_maintainer_edit: Generated<number>;
  has_merged: Generated<number>;
  merged_commit_id: Generated<string>;
  merger_id: Generated<number>;
  merged_unix: Generated<number>;
  flow: Generated<number>;
}

export interface PullsTables {
  pull_request: PullRequestTable;
}

export type PullRequest = Selectable<PullRequestTable>;
export type NewPullRequest = Insertable<PullRequestTable>;

/** A pull request: its conversation and its git side. */
export interface Pull {
  issue: Issue;
  pull: PullRequest;
}

/** The ref of the base repository that keeps a pull request's head commit. */
export function pullHeadRef(index: number): string {
  return `refs/pull/${index}/head`;
}

declare module '../storage/schema.js' {
  interface Schema extends PullsTables {}
}
