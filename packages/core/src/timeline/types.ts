/**
 * Forgejo's comment types: the number stored in `comment.type` and the name `TimelineComment.type` shows.
 * The position in this list is the number, so it only ever grows at the end.
 */
export const COMMENT_TYPE_NAMES = [
  'comment',
  'reopen',
  'close',
  'issue_ref',
  'commit_ref',
  'comment_ref',
  'pull_ref',
  'label',
  'milestone',
  'assignees',
  'change_title',
  'delete_branch',
  'start_tracking',
  'stop_tracking',
  'add_time_manual',
  'cancel_tracking',
  'added_deadline',
  'modified_deadline',
  'removed_deadline',
  'add_dependency',
  'remove_dependency',
  'code',
  'review',
  'lock',
  'unlock',
  'change_target_branch',
  'delete_time_manual',
  'review_request',
  'merge_pull',
  'pull_push',
  'project',
  'project_board',
  'dismiss_review',
  'change_issue_ref',
  'pull_scheduled_merge',
  'pull_cancel_scheduled_merge',
  'pin',
  'unpin',
] as const;

export type CommentTypeName = (typeof COMMENT_TYPE_NAMES)[number];

/** The stored number of each comment type, by name: `COMMENT_TYPES.label` is 7. */
export const COMMENT_TYPES = Object.freeze(
  Object.fromEntries(COMMENT_TYPE_NAMES.map((name, number) => [name, number])) as Record<CommentTypeName, number>,
);

/** The name of a stored comment type; numbers this build does not know read as plain comments. */
export function commentTypeName(type: number): CommentTypeName {
  return COMMENT_TYPE_NAMES[type] ?? 'comment';
}

/** Cross-reference actions (Forgejo's XRefAction): the stored number's position. */
export const REF_ACTIONS = ['none', 'closes', 'reopens', 'neutered'] as const;
export const RefAction = { None: 0, Closes: 1, Reopens: 2, Neutered: 3 } as const;
