import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Time tracking, with Forgejo's columns: `tracked_time` (seconds a user spent on an issue; deleting one only marks
 * it `deleted`, as Forgejo keeps them) and `stopwatch` (a running timer of a user on an issue, at most one per pair).
 * Both go with their issue (cascading keys).
 */
export const m0024_times_create: Migration = {
  name: '0024_times_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'tracked_time')
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      // Seconds.
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('tracked_time_issue').on('tracked_time').column('issue_id').execute();
    await db.schema.createIndex('tracked_time_user').on('tracked_time').columns(['user_id', 'created_unix']).execute();

    await createTableWithId(db, dialect, 'stopwatch')
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('stopwatch_user_issue').on('stopwatch').columns(['user_id', 'issue_id']).unique().execute();
    await db.schema.createIndex('stopwatch_issue').on('stopwatch').column('issue_id').execute();
  },
};
