import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Every ref a push moved, before and after, recorded with the push's bookkeeping: what webhooks, pull requests
 * and actions react to, durable even when no subscriber was listening.
 */
export const m0010_repos_pushes: Migration = {
  name: '0010_repos_pushes',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'repo_push')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      // 0 when the pusher is the system (no account).
      .addColumn('pusher_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref_name', 'varchar(1024)', (c) => c.notNull())
      .addColumn('old_commit_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('new_commit_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('repo_push_repo').on('repo_push').columns(['repo_id', 'id']).execute();
  },
};
