import type { Generated, Insertable, Selectable } from 'kysely';

/** Forgejo's notification statuses. */
export const NotificationStatus = { Unread: 1, Read: 2, Pinned: 3 } as const;
export type NotificationStatusValue = (typeof NotificationStatus)[keyof typeof NotificationStatus];

/** What a thread is about, as Forgejo numbers it. */
export const NotificationSource = { Issue: 1, PullRequest: 2, Commit: 3, Repository: 4 } as const;
export type NotificationSourceValue = (typeof NotificationSource)[keyof typeof NotificationSource];

/** One notification thread of one account: about an issue or pull request (`issue_id`), or a repository. */
export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  repo_id: number;
  status: number;
  source: number;
  /** 0: a thread about the repository itself. */
  issue_id: Generated<number>;
  /** The first comment the account has not seen yet (0: none); kept while the thread stays unread. */
  comment_id: Generated<number>;
  /** Who caused the latest update. */
  updated_by: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** An explicit subscription (`is_watching` 1) or unsubscription (0) of an account to one issue. */
export interface IssueWatchTable {
  id: Generated<number>;
  user_id: number;
  issue_id: number;
  is_watching: number;
  created_unix: number;
  updated_unix: number;
}

/** The tables the notifications domain owns. */
export interface NotificationsTables {
  notification: NotificationTable;
  issue_watch: IssueWatchTable;
}

export type Notification = Selectable<NotificationTable>;
export type NewNotification = Insertable<NotificationTable>;
export type IssueWatch = Selectable<IssueWatchTable>;

declare module '../storage/schema.js' {
  interface Schema extends NotificationsTables {}
}
