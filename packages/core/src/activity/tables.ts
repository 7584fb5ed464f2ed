import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * What happened, in Forgejo's numbering (`ActionType`): the stored `op_type` is the position in this list plus
 * one, and the API writes the name.
 */
export const OP_TYPE_NAMES = [
  'create_repo',
  'rename_repo',
  'star_repo',
  'watch_repo',
  'commit_repo',
  'create_issue',
  'create_pull_request',
  'transfer_repo',
  'push_tag',
  'comment_issue',
  'merge_pull_request',
  'close_issue',
  'reopen_issue',
  'close_pull_request',
  'reopen_pull_request',
  'delete_tag',
  'delete_branch',
  'mirror_sync_push',
  'mirror_sync_create',
  'mirror_sync_delete',
  'approve_pull_request',
  'reject_pull_request',
  'comment_pull',
  'publish_release',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
] as const;
export type OpTypeName = (typeof OP_TYPE_NAMES)[number];

/** The stored numbers of the op types RepoHost records so far. */
export const OpType = {
  CreateRepo: 1,
  RenameRepo: 2,
  StarRepo: 3,
  CommitRepo: 5,
  CreateIssue: 6,
  CreatePullRequest: 7,
  TransferRepo: 8,
  PushTag: 9,
  CommentIssue: 10,
  MergePullRequest: 11,
  CloseIssue: 12,
  ReopenIssue: 13,
  ClosePullRequest: 14,
  ReopenPullRequest: 15,
  DeleteTag: 16,
  DeleteBranch: 17,
  CommentPull: 23,
  PublishRelease: 24,
} as const;

/** The API name of a stored op type (Forgejo writes unknown numbers as `action-N`). */
export function opTypeName(opType: number): string {
  return OP_TYPE_NAMES[opType - 1] ?? `action-${opType}`;
}

/** One action as it appears in one account's feed (Forgejo's `Action`). */
export interface ActionTable {
  id: Generated<number>;
  /** Whose feed this row belongs to. */
  user_id: number;
  op_type: number;
  /** Who did it. */
  act_user_id: number;
  repo_id: number;
  comment_id: Generated<number>;
  is_deleted: Generated<number>;
  ref_name: Generated<string>;
  /** The repository was private when it happened (kept in step when its visibility changes). */
  is_private: Generated<number>;
  content: Generated<string>;
  created_unix: number;
}

/** The tables the activity domain owns. */
export interface ActivityTables {
  action: ActionTable;
}

export type Action = Selectable<ActionTable>;
export type NewAction = Insertable<ActionTable>;

declare module '../storage/schema.js' {
  interface Schema extends ActivityTables {}
}
