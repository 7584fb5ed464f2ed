import { sql } from 'kysely';
import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Notification threads (Forgejo's `notification`) and explicit issue subscriptions (`issue_watch`).
 *
 * A thread is one per account and issue: the partial unique index lets the fan-out after an event upsert all its
 * recipients in one statement, while threads without an issue (repository notifications, `issue_id` 0) stay free.
 * `issue_watch` rows go with their issue (cascade); threads go with their issue, repository and account through
 * those domains' deletion events, since `issue_id` may be 0.
 */
export const m0026_notifications_create: Migration = {
  name: '0026_notifications_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'notification')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      // 1 unread, 2 read, 3 pinned.
      .addColumn('status', 'smallint', (c) => c.notNull())
      // 1 issue, 2 pull request, 3 commit, 4 repository.
      .addColumn('source', 'smallint', (c) => c.notNull())
      .addColumn('issue_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_by', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notification_user_issue')
      .on('notification')
      .columns(['user_id', 'issue_id'])
      .unique()
      .where(sql.ref('issue_id'), '<>', 0)
      .execute();
    await db.schema.createIndex('notification_user_status_updated').on('notification').columns(['user_id', 'status', 'updated_unix']).execute();
    await db.schema.createIndex('notification_issue').on('notification').column('issue_id').execute();
    await db.schema.createIndex('notification_repo').on('notification').column('repo_id').execute();

    await createTableWithId(db, dialect, 'issue_watch')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('is_watching', 'integer', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('issue_watch_user_issue').on('issue_watch').columns(['user_id', 'issue_id']).unique().execute();
    await db.schema.createIndex('issue_watch_issue').on('issue_watch').columns(['issue_id', 'is_watching']).execute();
  },
};
