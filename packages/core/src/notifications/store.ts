/**
 * The notifications domain's SQL: notification threads and explicit issue subscriptions. Participation (who
 * posted or commented), blocks and account states are read, never written, from the comments and users domains'
 * tables.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { CommentsTables } from '../timeline/index.js';
import type { User, UsersTables } from '../users/index.js';
import { userVisibleSql, type UserVisibilityFilter } from '../users/index.js';
import { NotificationStatus, type IssueWatch, type NewNotification, type Notification, type NotificationsTables } from './tables.js';

/** Which of an account's threads a list or a bulk change covers; every field narrows it. */
export interface NotificationFilter {
  userId: number;
  repoId?: number;
  /** Empty or absent: any status. */
  statuses?: readonly number[];
  /** Empty or absent: any source. */
  sources?: readonly number[];
  /** Updated at or after (unix seconds). */
  updatedSince?: number;
  /** Updated at or before (unix seconds). */
  updatedBefore?: number;
}

type Eb = ExpressionBuilder<NotificationsTables, 'notification'>;

function matches(eb: Eb, filter: NotificationFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('notification.user_id', '=', filter.userId)];
  if (filter.repoId !== undefined) all.push(eb('notification.repo_id', '=', filter.repoId));
  if (filter.statuses && filter.statuses.length > 0) all.push(eb('notification.status', 'in', [...filter.statuses]));
  if (filter.sources && filter.sources.length > 0) all.push(eb('notification.source', 'in', [...filter.sources]));
  if (filter.updatedSince !== undefined) all.push(eb('notification.updated_unix', '>=', filter.updatedSince));
  if (filter.updatedBefore !== undefined) all.push(eb('notification.updated_unix', '<=', filter.updatedBefore));
  return eb.and(all);
}

/** Rows per multi-row statement: well under both databases' bound-parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Comment types whose posters take part in an issue (Forgejo: comments, code comments, reviews). */
const PARTICIPATING_COMMENT_TYPES = [0, 21, 22] as const;

export class NotificationsStore extends Store<NotificationsTables & Pick<CommentsTables, 'comment'>> {
  private readonly unreadCountQuery = this.precompiled<{ n: number }, 'user'>('unreadCount', (db, param) =>
    db
      .selectFrom('notification')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', param('user'))
      .where('status', '=', sql.lit(NotificationStatus.Unread)),
  );

  /**
   * Creates or refreshes the issue threads of several accounts in one statement per chunk, as Forgejo updates a
   * thread: a read thread becomes unread and points at the new comment; an unread or pinned one keeps its status
   * and its first unseen comment; either way it moves to the top (`updated_unix`) with its new author.
   */
  async upsertIssueThreads(rows: readonly NewNotification[]): Promise<void> {
    const read = NotificationStatus.Read;
    for (const chunk of chunks(rows)) {
      await this.db
        .insertInto('notification')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'issue_id'])
            .where('issue_id', '<>', sql.lit(0))
            .doUpdateSet({
              status: sql<number>`CASE WHEN notification.status = ${read} THEN excluded.status ELSE notification.status END`,
              comment_id: sql<number>`CASE WHEN notification.status = ${read} THEN excluded.comment_id ELSE notification.comment_id END`,
              updated_by: sql<number>`excluded.updated_by`,
              updated_unix: sql<number>`excluded.updated_unix`,
            }),
        )
        .execute();
    }
  }

  byId(id: number): Promise<Notification | undefined> {
    return this.db.selectFrom('notification').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A page of the threads `filter` lets through, latest update first, and their count. */
  list(filter: NotificationFilter, page: PageRequest): Promise<Page<Notification>> {
    const base = this.db.selectFrom('notification').where((eb) => matches(eb, filter));
    return Store.page(
      base.selectAll().orderBy('updated_unix', 'desc').orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The ids of every thread `filter` lets through, latest update first. */
  async idsWhere(filter: NotificationFilter): Promise<number[]> {
    const rows = await this.db
      .selectFrom('notification')
      .select('id')
      .where((eb) => matches(eb, filter))
      .orderBy('updated_unix', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Sets the status of these threads (as marked now); returns them as they are after, in the order of `ids`. */
  async setStatusOf(ids: readonly number[], status: number, now: number): Promise<Notification[]> {
    const byId = new Map<number, Notification>();
    for (const chunk of chunks(ids)) {
      const rows = await this.db.updateTable('notification').set({ status, updated_unix: now }).where('id', 'in', chunk).returningAll().execute();
      for (const row of rows) byId.set(row.id, row);
    }
    return ids.map((id) => byId.get(id)).filter((row): row is Notification => row !== undefined);
  }

  async countUnread(userId: number): Promise<number> {
    return Store.count((await this.unreadCountQuery({ user: userId }))[0]);
  }

  /** The latest plain comment of each issue (Forgejo's `GetLastComment`), by issue id, in one query. */
  async latestCommentIds(issueIds: readonly number[]): Promise<Map<number, number>> {
    const latest = new Map<number, number>();
    for (const chunk of chunks([...new Set(issueIds)])) {
      const rows = await this.db
        .selectFrom('comment')
        .select((eb) => ['issue_id', eb.fn.max<number>('id').as('id')])
        .where('issue_id', 'in', chunk)
        .where('type', '=', 0)
        .groupBy('issue_id')
        .execute();
      for (const row of rows) latest.set(Number(row.issue_id), Number(row.id));
    }
    return latest;
  }

  async deleteOfIssue(issueId: number): Promise<void> {
    await this.db.deleteFrom('notification').where('issue_id', '=', issueId).execute();
  }

  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('notification').where('repo_id', '=', repoId).execute();
  }

  async deleteOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('notification').where('user_id', '=', userId).execute();
  }
}

type WatchTables = NotificationsTables & Pick<CommentsTables, 'comment'> & Pick<UsersTables, 'user' | 'user_blocking'>;

/** Explicit issue subscriptions, and the participation and blocks that decide who else follows an issue. */
export class IssueWatchesStore extends Store<WatchTables> {
  find(userId: number, issueId: number): Promise<IssueWatch | undefined> {
    return this.db.selectFrom('issue_watch').selectAll().where('user_id', '=', userId).where('issue_id', '=', issueId).executeTakeFirst();
  }

  /** Records an explicit subscription or unsubscription, whatever was there. */
  async set(userId: number, issueId: number, watching: boolean, now: number): Promise<void> {
    const is_watching = watching ? 1 : 0;
    await this.db
      .insertInto('issue_watch')
      .values({ user_id: userId, issue_id: issueId, is_watching, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'issue_id']).doUpdateSet({ is_watching, updated_unix: now }))
      .execute();
  }

  /** The accounts that explicitly subscribed to (`watching`) or unsubscribed from an issue. */
  async userIds(issueId: number, watching: boolean): Promise<number[]> {
    const rows = await this.db.selectFrom('issue_watch').select('user_id').where('issue_id', '=', issueId).where('is_watching', '=', watching ? 1 : 0).execute();
    return rows.map((r) => r.user_id);
  }

  /** Active accounts subscribed to an issue that `shown` lets through, in the order they subscribed. */
  listSubscribers(issueId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    const base = this.db
      .selectFrom('issue_watch')
      .innerJoin('user', 'user.id', 'issue_watch.user_id')
      .where('issue_watch.issue_id', '=', issueId)
      .where('issue_watch.is_watching', '=', 1)
      .where('user.is_active', '=', 1)
      .where('user.prohibit_login', '=', 0)
      .where(userVisibleSql(shown));
    return Store.page(
      base.selectAll('user').orderBy('issue_watch.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Active accounts that commented on an issue (Forgejo's participants, without the poster). */
  async commenterIds(issueId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('comment')
      .innerJoin('user', 'user.id', 'comment.poster_id')
      .select('comment.poster_id')
      .distinct()
      .where('comment.issue_id', '=', issueId)
      .where('comment.type', 'in', [...PARTICIPATING_COMMENT_TYPES])
      .where('user.is_active', '=', 1)
      .where('user.prohibit_login', '=', 0)
      .execute();
    return rows.map((r) => r.poster_id);
  }

  /** Has `userId` commented on the issue? */
  async hasCommented(userId: number, issueId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('comment')
      .select('id')
      .where('issue_id', '=', issueId)
      .where('poster_id', '=', userId)
      .where('type', 'in', [...PARTICIPATING_COMMENT_TYPES])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Which of `userIds` blocked `blockedId`. */
  async blockersAmong(userIds: readonly number[], blockedId: number): Promise<Set<number>> {
    const found = new Set<number>();
    for (const chunk of chunks([...new Set(userIds)])) {
      const rows = await this.db.selectFrom('user_blocking').select('user_id').where('block_id', '=', blockedId).where('user_id', 'in', chunk).execute();
      for (const row of rows) found.add(row.user_id);
    }
    return found;
  }

  async deleteOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('issue_watch').where('user_id', '=', userId).execute();
  }
}
