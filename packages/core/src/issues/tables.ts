import type { Generated, Insertable, Selectable } from 'kysely';

/** An issue or a pull request (`is_pull`), as Forgejo stores it; `index` is its number in the repository. */
export interface IssueTable {
  id: Generated<number>;
  repo_id: number;
  index: number;
  poster_id: number;
  original_author: Generated<string>;
  original_author_id: Generated<number>;
  /** The title. */
  name: string;
  /** The body (markdown). */
  content: Generated<string>;
  content_version: Generated<number>;
  /** 0: none. */
  milestone_id: Generated<number>;
  priority: Generated<number>;
  is_closed: Generated<number>;
  is_pull: Generated<number>;
  /** Plain comments only (type 0), as Forgejo counts them. */
  num_comments: Generated<number>;
  ref: Generated<string>;
  /** 0: not pinned; pinned issues are ordered by it from 1. */
  pin_order: Generated<number>;
  /** 0: no due date. */
  deadline_unix: Generated<number>;
  created_unix: number;
  updated_unix: number;
  /** 0 while open. */
  closed_unix: Generated<number>;
  is_locked: Generated<number>;
}

/** The last index given out per repository (`group_id`), shared by issues and pull requests. */
export interface IssueIndexTable {
  group_id: number;
  max_index: number;
}

export interface IssueAssigneesTable {
  id: Generated<number>;
  assignee_id: number;
  issue_id: number;
}

export interface IssueLabelTable {
  id: Generated<number>;
  issue_id: number;
  label_id: number;
}

/** `issue_id` depends on `dependency_id`: the dependency blocks the issue until it is closed. */
export interface IssueDependencyTable {
  id: Generated<number>;
  user_id: number;
  issue_id: number;
  dependency_id: number;
  created_unix: number;
  updated_unix: number;
}

/** The tables the issues domain owns. */
export interface IssuesTables {
  issue: IssueTable;
  issue_index: IssueIndexTable;
  issue_assignees: IssueAssigneesTable;
  issue_label: IssueLabelTable;
  issue_dependency: IssueDependencyTable;
}

export type Issue = Selectable<IssueTable>;
export type NewIssue = Insertable<IssueTable>;
export type IssueDependency = Selectable<IssueDependencyTable>;

declare module '../storage/schema.js' {
  interface Schema extends IssuesTables {}
}
