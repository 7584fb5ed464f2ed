import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `action` table: one row per feed an action appears in (`user_id` is whose feed, `act_user_id` who
 * did it). Rows go with the accounts and the repository they name.
 */
export const m0014_activity_actions: Migration = {
  name: '0014_activity_actions',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'action')
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('op_type', 'integer', (c) => c.notNull())
      .addColumn('act_user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_name', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_user_created').on('action').columns(['user_id', 'created_unix']).execute();
    await db.schema.createIndex('action_act_user_created').on('action').columns(['act_user_id', 'created_unix']).execute();
    await db.schema.createIndex('action_repo_created').on('action').columns(['repo_id', 'created_unix']).execute();
    await db.schema.createIndex('action_comment').on('action').column('comment_id').execute();
  },
};
