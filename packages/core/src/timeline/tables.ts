import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * A comment on an issue or pull request, or one event of its timeline: `type` is Forgejo's CommentType number
 * (`COMMENT_TYPES`), and each type fills the columns it needs (a label event `label_id`, a title change
 * `old_title`/`new_title`, …). Unused columns keep their defaults.
 */
export interface CommentTable {
  id: Generated<number>;
  type: number;
  poster_id: number;
  original_author: Generated<string>;
  original_author_id: Generated<number>;
  issue_id: number;
  label_id: Generated<number>;
  old_milestone_id: Generated<number>;
  milestone_id: Generated<number>;
  time_id: Generated<number>;
  assignee_id: Generated<number>;
  removed_assignee: Generated<number>;
  assignee_team_id: Generated<number>;
  resolve_doer_id: Generated<number>;
  old_title: Generated<string>;
  new_title: Generated<string>;
  old_ref: Generated<string>;
  new_ref: Generated<string>;
  dependent_issue_id: Generated<number>;
  commit_id: Generated<number>;
  line: Generated<number>;
  tree_path: Generated<string>;
  content: Generated<string>;
  content_version: Generated<number>;
  patch: Generated<string>;
  created_unix: number;
  updated_unix: number;
  commit_sha: Generated<string>;
  review_id: Generated<number>;
  invalidated: Generated<number>;
  ref_repo_id: Generated<number>;
  ref_issue_id: Generated<number>;
  ref_comment_id: Generated<number>;
  ref_action: Generated<number>;
  ref_is_pull: Generated<number>;
}

/** The tables the timeline domain owns: comments and timeline events. */
export interface CommentsTables {
  comment: CommentTable;
}

export type Comment = Selectable<CommentTable>;
export type NewComment = Insertable<CommentTable>;

declare module '../storage/schema.js' {
  interface Schema extends CommentsTables {}
}
